import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { cx } from '../lib/cx';
import { FieldMessage, hasFieldMessage, type FieldStatus } from './Field';
import { ChevronDownIcon } from './icons';
import fieldStyles from './Field.module.css';
import styles from './SelectField.module.css';

export interface SelectFieldProps extends Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'size' | 'className'
> {
  label: ReactNode;
  status?: FieldStatus;
  message?: ReactNode;
  className?: string;
  children: ReactNode;
}

/**
 * A native select styled like the shared Input (same label, border, focus ring and message), so
 * phones show their own picker.
 */
export function SelectField({
  label,
  status = 'none',
  message,
  className,
  id,
  children,
  'aria-describedby': describedBy,
  ...rest
}: SelectFieldProps) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  const messageId = `${selectId}-message`;
  const showMessage = hasFieldMessage(status, message);
  return (
    <div className={cx(fieldStyles.field, fieldStyles.md, className)}>
      <label htmlFor={selectId} className={fieldStyles.label}>
        {label}
      </label>
      <div
        className={cx(
          fieldStyles.control,
          status === 'error' && fieldStyles.controlError,
          status === 'success' && fieldStyles.controlSuccess,
        )}
      >
        <select
          id={selectId}
          className={cx(fieldStyles.input, styles.select)}
          aria-invalid={status === 'error' || undefined}
          aria-describedby={cx(describedBy, showMessage && messageId) || undefined}
          {...rest}
        >
          {children}
        </select>
        <ChevronDownIcon size={18} className={styles.chevron} />
      </div>
      <FieldMessage id={messageId} status={status}>
        {message}
      </FieldMessage>
    </div>
  );
}
