import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { cx } from '../../../lib/cx';
import { usePageMeta } from '../../../lib/usePageMeta';
import { PageHeader } from '../../../ui/PageHeader';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { useScrollSelectedIntoView } from '../../../ui/useScrollSelectedIntoView';
import { ShieldIcon, UsersIcon, VideoIcon, AlertIcon, CheckIcon } from '../../../ui/icons';
import { MoneyStatisticsPanel } from './MoneyStatisticsPanel';
import { PayoutsPanel } from './PayoutsPanel';
import styles from './Moderator.module.css';

/** The moderator dashboard's sections (product spec, section 2), in the order of the spec. */
export const MODERATOR_SECTIONS = [
  'referee',
  'refused-videos',
  'banned-users',
  'reports',
  'payouts',
  'verify-users',
  'money',
] as const;
export type ModeratorSection = (typeof MODERATOR_SECTIONS)[number];

function isSection(value: string | null): value is ModeratorSection {
  return (MODERATOR_SECTIONS as readonly (string | null)[]).includes(value);
}

/** Sections still to be built: a placeholder says what will be there. */
type PlaceholderSection = Exclude<ModeratorSection, 'payouts' | 'money'>;

const PLACEHOLDER_ICONS: Record<PlaceholderSection, ReactNode> = {
  referee: <ShieldIcon size={28} />,
  'refused-videos': <VideoIcon size={28} />,
  'banned-users': <UsersIcon size={28} />,
  reports: <AlertIcon size={28} />,
  'verify-users': <CheckIcon size={28} />,
};

/**
 * /moderator (admins, full-screen layout): one tab per section, the current one in `?tab=`, so a
 * section can be linked to and survives a reload.
 */
export function ModeratorPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.moderator.title'));
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const current: ModeratorSection = isSection(requested) ? requested : MODERATOR_SECTIONS[0];
  const tabRefs = useRef(new Map<ModeratorSection, HTMLButtonElement>());

  const select = (section: ModeratorSection, focus = false) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', section);
        return next;
      },
      { replace: true },
    );
    if (focus) tabRefs.current.get(section)?.focus();
  };

  // On a phone the strip scrolls; the selected tab is kept in view (also when the page opens).
  const strip = useRef<HTMLDivElement>(null);
  useScrollSelectedIntoView(strip, current);

  // Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = MODERATOR_SECTIONS.indexOf(current);
    const last = MODERATOR_SECTIONS.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    select(MODERATOR_SECTIONS[target]!, true);
  };

  return (
    <div className={styles.page}>
      <PageHeader title={t('pages.moderator.title')} subtitle={t('moderator.subtitle')} />
      <div className={styles.tabsScroller} ref={strip} data-tab-strip>
        <div
          className={styles.tabs}
          role="tablist"
          aria-label={t('moderator.tabsLabel')}
          onKeyDown={onKeyDown}
        >
          {MODERATOR_SECTIONS.map((section) => {
            const selected = section === current;
            return (
              <button
                key={section}
                ref={(element) => {
                  if (element) tabRefs.current.set(section, element);
                  else tabRefs.current.delete(section);
                }}
                type="button"
                role="tab"
                id={`moderator-tab-${section}`}
                aria-selected={selected}
                aria-controls={`moderator-panel-${section}`}
                tabIndex={selected ? 0 : -1}
                className={cx(styles.tab, selected && styles.tabSelected)}
                onClick={() => select(section)}
              >
                {t(`moderator.tabs.${section}`)}
              </button>
            );
          })}
        </div>
      </div>
      <div
        role="tabpanel"
        id={`moderator-panel-${current}`}
        aria-labelledby={`moderator-tab-${current}`}
        className={styles.panel}
      >
        {current === 'payouts' ? (
          <PayoutsPanel />
        ) : current === 'money' ? (
          <MoneyStatisticsPanel />
        ) : (
          <PagePlaceholder
            as="h2"
            icon={PLACEHOLDER_ICONS[current]}
            title={t(`moderator.placeholders.${current}.title`)}
            description={t(`moderator.placeholders.${current}.description`)}
          />
        )}
      </div>
    </div>
  );
}
