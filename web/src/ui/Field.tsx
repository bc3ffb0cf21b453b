import type { ReactNode } from 'react';
import { cx } from '../lib/cx';
import { AlertIcon, CheckIcon, InfoIcon } from './icons';
import styles from './Field.module.css';

export type FieldStatus = 'success' | 'error' | 'hint' | 'none';
export type FieldSize = 'xs' | 'sm' | 'md' | 'lg';

export interface FieldMessageProps {
  id: string;
  status: FieldStatus;
  children?: ReactNode;
}

/** The validation message under a field. Nothing is rendered for status "none" or an empty message. */
export function FieldMessage({ id, status, children }: FieldMessageProps) {
  if (status === 'none' || children === undefined || children === null || children === '')
    return null;
  const icon =
    status === 'error' ? (
      <AlertIcon size={16} />
    ) : status === 'success' ? (
      <CheckIcon size={16} />
    ) : (
      <InfoIcon size={16} />
    );
  return (
    <p id={id} className={cx(styles.message, styles[status])} data-status={status}>
      {icon}
      <span>{children}</span>
    </p>
  );
}

/** Whether a field with this status and message renders a message (for aria-describedby). */
export function hasFieldMessage(status: FieldStatus, message: ReactNode): boolean {
  return status !== 'none' && message !== undefined && message !== null && message !== '';
}
