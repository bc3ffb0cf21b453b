import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { ChevronDownIcon } from './icons';
import styles from './Pager.module.css';

/** Previous and next for a paginated list; nothing when everything fits on one page. */
export function Pager({
  page,
  totalPages,
  onPage,
  label,
  disabled = false,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  /** The navigation's accessible name, e.g. "Transaction pages". */
  label: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  return (
    <nav className={styles.pager} aria-label={label}>
      <Button
        variant="secondary"
        size="sm"
        disabled={disabled || page <= 1}
        onClick={() => onPage(page - 1)}
        iconStart={<ChevronDownIcon size={16} className={styles.previous} />}
      >
        {t('ui.pager.previous')}
      </Button>
      <span className={styles.position} aria-live="polite">
        {t('ui.pager.pageOf', { page, total: totalPages })}
      </span>
      <Button
        variant="secondary"
        size="sm"
        disabled={disabled || page >= totalPages}
        onClick={() => onPage(page + 1)}
        iconEnd={<ChevronDownIcon size={16} className={styles.next} />}
      >
        {t('ui.pager.next')}
      </Button>
    </nav>
  );
}
