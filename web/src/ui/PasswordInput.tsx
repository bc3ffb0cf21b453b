import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from './icons';
import { Input, type InputProps } from './Input';
import styles from './PasswordInput.module.css';

export type PasswordInputProps = Omit<InputProps, 'type' | 'endAdornment'>;

/** A password field with a button that toggles between hidden and visible text. */
export function PasswordInput({ id, ...rest }: PasswordInputProps) {
  const { t } = useTranslation();
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const [visible, setVisible] = useState(false);
  return (
    <Input
      id={inputId}
      type={visible ? 'text' : 'password'}
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      {...rest}
      endAdornment={
        <button
          type="button"
          className={styles.toggle}
          onClick={() => setVisible((value) => !value)}
          aria-label={visible ? t('ui.password.hide') : t('ui.password.show')}
          aria-pressed={visible}
          aria-controls={inputId}
        >
          {visible ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
        </button>
      }
    />
  );
}
