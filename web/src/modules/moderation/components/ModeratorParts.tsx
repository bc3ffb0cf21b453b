import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../ui/Spinner';
import styles from './Moderator.module.css';

/** A moderator panel's list or figures on their way. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <div className={styles.loading} role="status">
      <Spinner size="md" />
      <span className="visually-hidden">{t('ui.loading')}</span>
    </div>
  );
}

/**
 * The header row of a moderator table. Explicit roles keep the table semantics when small screens
 * restyle rows as cards; each cell names its column again in data-label.
 */
export function ColumnHeaders({ labels }: { labels: string[] }) {
  return (
    <thead role="rowgroup">
      <tr role="row">
        {labels.map((label) => (
          <th key={label} scope="col" role="columnheader">
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
