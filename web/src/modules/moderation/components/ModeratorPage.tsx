import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { cx } from '../../../lib/cx';
import { usePageMeta } from '../../../lib/usePageMeta';
import { PageHeader } from '../../../ui/PageHeader';
import { useScrollSelectedIntoView } from '../../../ui/useScrollSelectedIntoView';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { hasRole, isAdmin, isRefereeOnly } from '../../auth/roles';
import { AuditLogPanel } from './AuditLogPanel';
import { BannedUsersPanel } from './BannedUsersPanel';
import { MoneyStatisticsPanel } from './MoneyStatisticsPanel';
import { PayoutsPanel } from './PayoutsPanel';
import { RefereePanel } from './RefereePanel';
import { RefusedVideosPanel } from './RefusedVideosPanel';
import { ReportsPanel } from './ReportsPanel';
import { VerifyUsersPanel } from './VerifyUsersPanel';
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
  // Not a tab of the spec: the staff audit log (ADR 0042), for admins only.
  'audit-log',
] as const;
export type ModeratorSection = (typeof MODERATOR_SECTIONS)[number];

/** The disputes: the referees' part (ADR 41, 57). */
const REFEREE_SECTIONS: readonly ModeratorSection[] = ['referee', 'refused-videos'];

/**
 * The sections a staff member reaches: admins all (and the audit log); referees the disputes
 * (referee cases and refused videos); moderators the rest (reports, bans, verification, payouts,
 * money). The server checks every call again.
 */
export function sectionsFor(roles: readonly string[] | null | undefined): ModeratorSection[] {
  if (isAdmin(roles)) return [...MODERATOR_SECTIONS];
  const referee = hasRole(roles, 'referee');
  const moderator = hasRole(roles, 'moderator');
  return MODERATOR_SECTIONS.filter((section) =>
    REFEREE_SECTIONS.includes(section) ? referee : section === 'audit-log' ? false : moderator,
  );
}

/**
 * /moderator (staff, full-screen layout; each role sees its sections): one tab per section, the
 * current one in `?tab=`, so a section can be linked to and survives a reload.
 */
export function ModeratorPage() {
  const { t } = useTranslation();
  const { user } = useGetCurrentUser();
  // A referee who is not also a moderator or admin has a referee's console (issue 22, point 14).
  const refereeOnly = isRefereeOnly(user?.roles);
  const title = refereeOnly ? t('pages.referee.title') : t('pages.moderator.title');
  usePageMeta(title);
  const [params, setParams] = useSearchParams();
  const sections = sectionsFor(user?.roles);
  const requested = params.get('tab');
  const current: ModeratorSection =
    sections.find((section) => section === requested) ?? sections[0] ?? 'reports';
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
    const index = sections.indexOf(current);
    const last = sections.length - 1;
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
    select(sections[target]!, true);
  };

  return (
    <div className={styles.page}>
      <PageHeader
        title={title}
        subtitle={refereeOnly ? t('moderator.refereeSubtitle') : t('moderator.subtitle')}
      />
      <div className={styles.tabsScroller} ref={strip} data-tab-strip>
        <div
          className={styles.tabs}
          role="tablist"
          aria-label={t('moderator.tabsLabel')}
          onKeyDown={onKeyDown}
        >
          {sections.map((section) => {
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
                {section === 'audit-log' ? t('auditLog.tab') : t(`moderator.tabs.${section}`)}
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
        ) : current === 'reports' ? (
          <ReportsPanel />
        ) : current === 'referee' ? (
          <RefereePanel />
        ) : current === 'banned-users' ? (
          <BannedUsersPanel />
        ) : current === 'verify-users' ? (
          <VerifyUsersPanel />
        ) : current === 'refused-videos' ? (
          <RefusedVideosPanel />
        ) : (
          <AuditLogPanel />
        )}
      </div>
    </div>
  );
}
