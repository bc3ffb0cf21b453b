import { useTranslation } from 'react-i18next';
import { Outlet, useParams } from 'react-router';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Avatar } from '../../../ui/Avatar';
import { HeartIcon, TrophyIcon, VideoIcon, FlameIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { TabLinks } from '../../../ui/Tabs';
import styles from './Profile.module.css';

export const PROFILE_TABS = [
  'ongoing-challenges',
  'completed-challenges',
  'uploaded-videos',
  'respected-videos',
] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

/** /profile/:username: who it is, and tabs for the lists. */
export function ProfileLayout() {
  const { t } = useTranslation();
  const { username = '' } = useParams();
  usePageMeta(`@${username}`);
  const base = `/profile/${encodeURIComponent(username)}`;
  return (
    <div>
      <header className={styles.header}>
        <Avatar name={username} size="xl" />
        <div className={styles.identity}>
          <h1 className={styles.name}>@{username}</h1>
          <p className={styles.note}>{t('profile.headerNote')}</p>
        </div>
      </header>
      <TabLinks
        label={t('profile.tabsLabel')}
        links={PROFILE_TABS.map((tab) => ({
          to: `${base}/${tab}`,
          label: t(`profile.tabs.${tab}.title`),
        }))}
      />
      <Outlet />
    </div>
  );
}

const TAB_ICONS = {
  'ongoing-challenges': <FlameIcon size={28} />,
  'completed-challenges': <TrophyIcon size={28} />,
  'uploaded-videos': <VideoIcon size={28} />,
  'respected-videos': <HeartIcon size={28} />,
} satisfies Record<ProfileTab, unknown>;

function ProfileTabPage({ tab }: { tab: ProfileTab }) {
  const { t } = useTranslation();
  return (
    <PagePlaceholder
      as="h2"
      icon={TAB_ICONS[tab]}
      title={t(`profile.tabs.${tab}.title`)}
      description={t(`profile.tabs.${tab}.description`)}
    />
  );
}

export const OngoingChallengesTab = () => <ProfileTabPage tab="ongoing-challenges" />;
export const CompletedChallengesTab = () => <ProfileTabPage tab="completed-challenges" />;
export const UploadedVideosTab = () => <ProfileTabPage tab="uploaded-videos" />;
export const RespectedVideosTab = () => <ProfileTabPage tab="respected-videos" />;
