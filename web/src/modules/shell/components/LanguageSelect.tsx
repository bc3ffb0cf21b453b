import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../../../app/i18n';
import { SUPPORTED_LANGUAGES, isAppLanguage } from '../../../lib/locale';
import { ChevronDownIcon, GlobeIcon } from '../../../ui/icons';
import styles from './LanguageSelect.module.css';

/** NL / EN switch. The choice is stored in localStorage and wins over the default (English). */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = isAppLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  return (
    <div className={styles.wrapper}>
      <label htmlFor={id} className={styles.label}>
        <GlobeIcon size={18} />
        <span>{t('nav.language')}</span>
      </label>
      <div className={styles.control}>
        <select
          id={id}
          className={styles.select}
          value={current}
          onChange={(event) => {
            if (isAppLanguage(event.target.value)) void switchLanguage(i18n, event.target.value);
          }}
        >
          {SUPPORTED_LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {t(`languages.${language}`)}
            </option>
          ))}
        </select>
        <ChevronDownIcon size={16} className={styles.chevron} />
      </div>
    </div>
  );
}
