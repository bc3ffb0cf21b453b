import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { appConfig } from '../../../app/config';
import { cx } from '../../../lib/cx';
import { Avatar } from '../../../ui/Avatar';
import { Button, ButtonLink } from '../../../ui/Button';
import {
  ChatIcon,
  CompassIcon,
  DashboardIcon,
  FlameIcon,
  LogoutIcon,
  PlusIcon,
  SettingsIcon,
  ShieldIcon,
  SwordsIcon,
  UserIcon,
  UsersIcon,
  WalletIcon,
} from '../../../ui/icons';
import type { CurrentUserProfile } from '../../auth/graphql/CurrentUser';
import { displayNameOf, useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { useLogoutUser } from '../../auth/hooks/useLogoutUser';
import { useModalRoute } from '../../auth/hooks/useModalRoute';
import { isRefereeOnly, isStaff } from '../../auth/roles';
import {
  DISCOVER_PARAM,
  parseDiscoverSection,
  discoverPath,
  type DiscoverSection,
} from '../discover';
import { LanguageSelect } from './LanguageSelect';
import { SocialLinks } from './SocialLinks';
import styles from './SidebarContent.module.css';

/** Everything the sidebar shows; the desktop sidebar and the small-screen menu both render it. */
export function SidebarContent() {
  const { t } = useTranslation();
  const { user, loading } = useGetCurrentUser();

  return (
    <div className={styles.content}>
      <ButtonLink
        to="/challenge/create/step-1"
        variant="action-gradient"
        block
        iconStart={<PlusIcon size={20} />}
        className={styles.cta}
      >
        {t('nav.startChallenge')}
      </ButtonLink>

      {user ? (
        <UserNavigation user={user} />
      ) : (
        <>
          {/* Decided without waiting for the session check, as the home page's hero is (ADR 81,
              101): a visitor (no session cookie: no `data-session` mark from the gateway) sees
              the login box from the first paint, a page asked with a session the skeleton. */}
          {loading ? <div className={styles.skeleton} aria-hidden="true" /> : null}
          <LoginBox pending={loading} />
        </>
      )}

      <nav aria-label={t('nav.discover')} className={styles.section}>
        <h2 className={styles.heading}>{t('nav.discover')}</h2>
        <ul className={styles.list}>
          <DiscoverItem
            section="challenges"
            icon={<FlameIcon />}
            label={t('nav.discoverAllChallenges')}
          />
          <DiscoverItem section="solo" icon={<UserIcon />} label={t('nav.discoverSolo')} />
          <DiscoverItem section="duel" icon={<SwordsIcon />} label={t('nav.discoverDuel')} />
          <DiscoverItem section="users" icon={<CompassIcon />} label={t('nav.discoverAllUsers')} />
          <DiscoverItem
            section="following"
            icon={<UsersIcon />}
            label={t('nav.discoverFollowing')}
          />
        </ul>
      </nav>

      <div className={styles.footer}>
        <ul className={styles.list}>
          <li>
            {appConfig.supportUrl ? (
              <a
                className={styles.item}
                href={appConfig.supportUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                <ChatIcon />
                <span>{t('nav.support')}</span>
                <span className="visually-hidden"> {t('social.newTab')}</span>
              </a>
            ) : (
              // No chat number configured: the contact page still says how to get help.
              <NavLink
                to={appConfig.contactPath}
                className={({ isActive }) => cx(styles.item, isActive && styles.active)}
              >
                <ChatIcon />
                <span>{t('nav.support')}</span>
              </NavLink>
            )}
          </li>
          {user ? (
            <li>
              <LogoutItem />
            </li>
          ) : null}
        </ul>
        <LanguageSelect />
        <SocialLinks />
      </div>
    </div>
  );
}

function UserNavigation({ user }: { user: CurrentUserProfile }) {
  const { t } = useTranslation();
  const name = displayNameOf(user);
  return (
    <nav aria-label={t('nav.account')} className={styles.section}>
      <ul className={styles.list}>
        <NavItem to="/challenge-dashboard" icon={<DashboardIcon />} label={t('nav.myDashboard')} />
        <NavItem to="/wallet" icon={<WalletIcon />} label={t('nav.wallet')} />
        <li>
          <NavLink
            to={`/profile/${encodeURIComponent(user.username)}/ongoing-challenges`}
            className={({ isActive }) => cx(styles.item, styles.profile, isActive && styles.active)}
          >
            <Avatar name={name} src={user.avatar} size="sm" />
            <span className={styles.profileText}>
              <span className={styles.profileName}>{name}</span>
              <span className={styles.profileHandle}>@{user.username}</span>
            </span>
          </NavLink>
        </li>
        <NavItem
          to="/settings/edit-profile"
          activePrefix="/settings"
          icon={<SettingsIcon />}
          label={t('nav.settings')}
        />
        {isStaff(user.roles) ? (
          <NavItem
            to="/moderator"
            icon={<ShieldIcon />}
            label={isRefereeOnly(user.roles) ? t('nav.referee') : t('nav.moderator')}
          />
        ) : null}
      </ul>
    </nav>
  );
}

function NavItem({
  to,
  icon,
  label,
  activePrefix,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  activePrefix?: string;
}) {
  const { pathname } = useLocation();
  const active = activePrefix
    ? pathname === activePrefix || pathname.startsWith(`${activePrefix}/`)
    : undefined;
  return (
    <li>
      <NavLink
        to={to}
        className={({ isActive }) => cx(styles.item, (active ?? isActive) && styles.active)}
      >
        {icon}
        <span>{label}</span>
      </NavLink>
    </li>
  );
}

function DiscoverItem({
  section,
  icon,
  label,
}: {
  section: DiscoverSection;
  icon: ReactNode;
  label: string;
}) {
  const { pathname, search } = useLocation();
  const active =
    pathname === '/' &&
    parseDiscoverSection(new URLSearchParams(search).get(DISCOVER_PARAM)) === section;
  return (
    <li>
      <Link
        to={discoverPath(section)}
        className={cx(styles.item, active && styles.active)}
        aria-current={active ? 'page' : undefined}
      >
        {icon}
        <span>{label}</span>
      </Link>
    </li>
  );
}

function LoginBox({ pending }: { pending: boolean }) {
  const { t } = useTranslation();
  const { openModal } = useModalRoute();
  // The box renders twice (sidebar and small-screen menu), so its heading id must be unique.
  const titleId = useId();
  return (
    <section
      className={styles.loginBox}
      aria-labelledby={titleId}
      data-pending={pending || undefined}
    >
      <h2 id={titleId} className={styles.loginTitle}>
        {t('loginBox.title')}
      </h2>
      <p className={styles.loginText}>{t('loginBox.text')}</p>
      <Button variant="action" block onClick={() => openModal('login-magic-link')}>
        {t('loginBox.button')}
      </Button>
    </section>
  );
}

function LogoutItem() {
  const { t } = useTranslation();
  const { logout, loggingOut } = useLogoutUser();
  return (
    <button
      type="button"
      className={styles.item}
      onClick={() => void logout()}
      disabled={loggingOut}
      aria-busy={loggingOut || undefined}
    >
      <LogoutIcon />
      <span>{loggingOut ? t('nav.loggingOut') : t('nav.logout')}</span>
    </button>
  );
}
