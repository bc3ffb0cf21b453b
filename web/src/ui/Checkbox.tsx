import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cx } from '../lib/cx';
import { FieldMessage, hasFieldMessage, type FieldStatus } from './Field';
import { CheckIcon } from './icons';
import styles from './Checkbox.module.css';

export interface CheckboxProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'size' | 'className'
> {
  label: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  status?: FieldStatus;
  message?: ReactNode;
  className?: string;
}

export function Checkbox({
  label,
  size = 'md',
  status = 'none',
  message,
  className,
  id,
  ...rest
}: CheckboxProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  return (
    <div className={cx(styles.wrapper, className)} data-field>
      <label htmlFor={inputId} className={cx(styles.checkbox, styles[size])}>
        <input
          id={inputId}
          type="checkbox"
          className={styles.input}
          aria-invalid={status === 'error' || undefined}
          aria-describedby={hasFieldMessage(status, message) ? messageId : undefined}
          {...rest}
        />
        <span className={cx(styles.box, status === 'error' && styles.boxError)} aria-hidden="true">
          <CheckIcon className={styles.tick} size={16} strokeWidth={3} />
        </span>
        <span className={styles.label}>{label}</span>
      </label>
      <FieldMessage id={messageId} status={status}>
        {message}
      </FieldMessage>
    </div>
  );
}
