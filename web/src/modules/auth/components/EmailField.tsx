import { useTranslation } from 'react-i18next';
import { Input } from '../../../ui/Input';

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  /** The validation message to show under the field, if any. */
  error: string | null;
}

/** The e-mail field of the log-in and recovery forms: focused first, with the browser's hints. */
export function EmailField({ value, onChange, onBlur, error }: EmailFieldProps) {
  const { t } = useTranslation();
  return (
    <Input
      label={t('auth.fields.email')}
      type="email"
      name="email"
      autoComplete="email"
      inputMode="email"
      autoFocus
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      status={error ? 'error' : 'none'}
      message={error}
      placeholder={t('auth.fields.emailPlaceholder')}
    />
  );
}
