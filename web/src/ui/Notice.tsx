import type { ReactNode } from 'react';
import { cx } from '../lib/cx';
import { AlertIcon, CheckIcon, InfoIcon } from './icons';
import styles from './Notice.module.css';

export type NoticeTone = 'error' | 'success' | 'info' | 'warning';

/**
 * A boxed message inside a page or form. Errors are announced at once (role alert), the others
 * politely (role status), so a screen reader hears what a submit came to.
 */
export function Notice({
  tone,
  title,
  children,
  actions,
  className,
}: {
  tone: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  const icon =
    tone === 'success' ? (
      <CheckIcon size={20} />
    ) : tone === 'info' ? (
      <InfoIcon size={20} />
    ) : (
      <AlertIcon size={20} />
    );
  return (
    <div
      className={cx(styles.notice, styles[tone], className)}
      role={tone === 'error' ? 'alert' : 'status'}
    >
      <span className={styles.icon}>{icon}</span>
      <div className={styles.body}>
        {title ? <p className={styles.title}>{title}</p> : null}
        {children}
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
    </div>
  );
}
