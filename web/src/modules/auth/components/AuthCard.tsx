import { useId, type ReactNode } from 'react';
import { cx } from '../../../lib/cx';
import { Button } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';
import styles from './AuthPage.module.css';

export interface AuthCardProps {
  icon?: ReactNode;
  tone?: 'default' | 'error' | 'success';
  title: string;
  /** Heading id, for a form labelled by the title too; generated when not given. */
  titleId?: string;
  text?: ReactNode;
  children?: ReactNode;
  centered?: boolean;
  /** role="alert" for a failure that appears after an action, role="status" for progress. */
  role?: 'alert' | 'status';
}

/** The card of the login pages (link check, password recovery). */
export function AuthCard({
  icon,
  tone = 'default',
  title,
  titleId,
  text,
  children,
  centered = false,
  role,
}: AuthCardProps) {
  const generatedId = useId();
  const headingId = titleId ?? generatedId;
  return (
    <section
      className={cx(styles.card, centered && styles.centered)}
      aria-labelledby={headingId}
      role={role}
    >
      {icon ? (
        <div
          className={cx(
            layout.iconTile,
            tone === 'error' && styles.iconError,
            tone === 'success' && styles.iconSuccess,
          )}
          aria-hidden="true"
        >
          {icon}
        </div>
      ) : null}
      <h1 id={headingId} className={styles.title}>
        {title}
      </h1>
      {text ? <p className={styles.text}>{text}</p> : null}
      {children}
    </section>
  );
}

/** The end of a login page's form: why the last submit failed, if it did, then the submit button. */
export function AuthFormSubmit({
  failure,
  disabled,
  loading,
  children,
}: {
  failure: string | null;
  disabled: boolean;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {failure ? (
        <p className={cx(layout.alert, styles.alert)} role="alert">
          <AlertIcon size={18} />
          <span>{failure}</span>
        </p>
      ) : null}
      <Button
        type="submit"
        variant="action-gradient"
        size="lg"
        block
        disabled={disabled}
        loading={loading}
      >
        {children}
      </Button>
    </>
  );
}
