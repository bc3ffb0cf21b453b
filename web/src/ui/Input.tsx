import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
} from 'react';
import { cx } from '../lib/cx';
import { FieldMessage, hasFieldMessage, type FieldSize, type FieldStatus } from './Field';
import styles from './Field.module.css';

interface FieldProps {
  label: ReactNode;
  /** Keep the label for screen readers only. */
  hideLabel?: boolean;
  size?: FieldSize;
  status?: FieldStatus;
  /** Shown under the field when status is success, error or hint. */
  message?: ReactNode;
  className?: string;
}

export interface InputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'className'>, FieldProps {
  endAdornment?: ReactNode;
  /** Shown next to the label, outside it (e.g. an info tooltip), so it is not part of the name. */
  labelAction?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

function controlClass(status: FieldStatus) {
  return cx(
    styles.control,
    status === 'error' && styles.controlError,
    status === 'success' && styles.controlSuccess,
  );
}

export function Input({
  label,
  hideLabel = false,
  size = 'md',
  status = 'none',
  message,
  className,
  endAdornment,
  labelAction,
  id,
  'aria-describedby': describedBy,
  ...rest
}: InputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  const showMessage = hasFieldMessage(status, message);
  const labelElement = (
    <label htmlFor={inputId} className={cx(styles.label, hideLabel && 'visually-hidden')}>
      {label}
    </label>
  );
  return (
    <div className={cx(styles.field, styles[size], className)} data-field>
      {labelAction ? (
        <div className={styles.labelRow}>
          {labelElement}
          {labelAction}
        </div>
      ) : (
        labelElement
      )}
      <div className={controlClass(status)}>
        <input
          id={inputId}
          className={styles.input}
          aria-invalid={status === 'error' || undefined}
          aria-describedby={cx(describedBy, showMessage && messageId) || undefined}
          {...rest}
        />
        {endAdornment ? <div className={styles.adornment}>{endAdornment}</div> : null}
      </div>
      <FieldMessage id={messageId} status={status}>
        {message}
      </FieldMessage>
    </div>
  );
}

export interface TextAreaProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'className'>, FieldProps {
  ref?: Ref<HTMLTextAreaElement>;
}

/** Multi-line input; two rows unless told otherwise. */
export function TextArea({
  label,
  hideLabel = false,
  size = 'md',
  status = 'none',
  message,
  className,
  id,
  rows = 2,
  'aria-describedby': describedBy,
  ...rest
}: TextAreaProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  const showMessage = hasFieldMessage(status, message);
  return (
    <div className={cx(styles.field, styles[size], className)} data-field>
      <label htmlFor={inputId} className={cx(styles.label, hideLabel && 'visually-hidden')}>
        {label}
      </label>
      <div className={controlClass(status)}>
        <textarea
          id={inputId}
          rows={rows}
          className={cx(styles.input, styles.textarea)}
          aria-invalid={status === 'error' || undefined}
          aria-describedby={cx(describedBy, showMessage && messageId) || undefined}
          {...rest}
        />
      </div>
      <FieldMessage id={messageId} status={status}>
        {message}
      </FieldMessage>
    </div>
  );
}
