import { useQuery } from '@apollo/client/react';
import { useId, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useParams } from 'react-router';
import { cx } from '../../../lib/cx';
import { describeFailure } from '../../../lib/mutationOutcome';
import { errorText } from '../../../lib/errorMessages';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Avatar } from '../../../ui/Avatar';
import { Button, ButtonLink } from '../../../ui/Button';
import {
  AlertIcon,
  FlameIcon,
  HeartIcon,
  LockIcon,
  SettingsIcon,
  TrophyIcon,
  VideoIcon,
} from '../../../ui/icons';
import { Checkbox } from '../../../ui/Checkbox';
import { PageLoader } from '../../../ui/PageLoader';
import { Pager } from '../../../ui/Pager';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { TabLinks } from '../../../ui/Tabs';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { ReportButton } from '../../moderation/components/ReportButton';
import { ErrorPage } from '../../errors/components/ErrorPage';
import { PublicChallengeCard } from '../../challenge/components/PublicChallengeCard';
import challengeStyles from '../../challenge/components/Challenge.module.css';
import { ProfileListsDocument, type ProfileListField } from '../graphql/ProfileLists';
import type { PublicProfile } from '../graphql/UserProfile';
import { useFollowUser } from '../hooks/useFollowUser';
import { useGetUserProfile } from '../hooks/useGetUserProfile';
import { useShowPrivateChallenges } from '../hooks/useShowPrivateChallenges';
import { useUnfollowUser } from '../hooks/useUnfollowUser';
import { ChallengeUserButton } from './ChallengeUserButton';
import { FollowsDialog, type FollowsList } from './FollowsDialog';
import { isValidUsername } from '../../../lib/validation';
import { InvalidRouteParamsPage } from '../../errors/components/NotFoundPage';
import styles from './Profile.module.css';

export const PROFILE_TABS = [
  'ongoing-challenges',
  'completed-challenges',
  'uploaded-videos',
  'respected-videos',
] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

/** A bio longer than this is cut at a word boundary behind a "Read more" button. */
export const BIO_PREVIEW_LENGTH = 180;

/** /profile/:username: who it is, who follows them, and tabs for the lists. */
export function ProfileLayout() {
  const { username = '' } = useParams();
  // Route validation first (spec section 5): no account can have this username.
  if (!isValidUsername(username)) return <InvalidRouteParamsPage />;
  // A new username is a new page: no state (open dialogs, expanded bio) carries over.
  return <ProfileView key={username} username={username} />;
}

/**
 * The sizes the name and the handle scale by (Profile.module.css): the name's longest word (a
 * username is one word) and the handle's length, so that neither breaks mid-word on a phone.
 */
function fitted(name: string, username: string): CSSProperties {
  const longest = Math.max(13, ...name.split(/\s+/).map((word) => [...word].length));
  return {
    '--longest-word': longest,
    '--handle-length': Math.max(17, [...username].length + 1),
  } as CSSProperties;
}

function ProfileView({ username }: { username: string }) {
  const { t } = useTranslation();
  const { profile, failure, requestFailed, loading, refetch } = useGetUserProfile(username);
  const name = profile ? profile.displayName?.trim() || profile.username : null;
  usePageMeta(name ? `${name} (@${profile?.username})` : `@${username}`);

  if (loading) return <PageLoader />;
  const identifier = failure?.identifier;
  if (identifier === 'private_profile') return <PrivateProfile username={username} />;
  if (identifier === 'user_not_found' || identifier === 'invalid_input') {
    return <ErrorPage identifier="user_not_found" statusCode={404} />;
  }
  if (!profile) {
    return (
      <div className={styles.alert} role="alert">
        <AlertIcon size={20} />
        <div className={styles.alertBody}>
          <p>{t('profile.loadFailed')}</p>
          {failure && !requestFailed ? (
            <p>{errorText(t, failure.identifier, failure.message)}</p>
          ) : null}
          <div>
            <Button variant="secondary" size="sm" onClick={() => void refetch()}>
              {t('wallet.retry')}
            </Button>
          </div>
        </div>
      </div>
    );
  }

  const base = `/profile/${encodeURIComponent(profile.username)}`;
  return (
    <div>
      <ProfileHeader profile={profile} onChanged={refetch} />
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

function ProfileHeader({
  profile,
  onChanged,
}: {
  profile: PublicProfile;
  onChanged: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useGetCurrentUser();
  const [list, setList] = useState<FollowsList | null>(null);
  const name = profile.displayName?.trim() || profile.username;
  const own = user?.username.toLowerCase() === profile.username.toLowerCase();
  const count = (value: number) => new Intl.NumberFormat(i18n.language).format(value);

  return (
    <header className={styles.header}>
      <Avatar name={name} src={profile.avatar} size="xl" />
      <div className={styles.identity} style={fitted(name, profile.username)}>
        <h1 className={styles.name}>{name}</h1>
        <p className={styles.handle}>@{profile.username}</p>
        {profile.bio?.trim() ? <Bio text={profile.bio.trim()} /> : null}
        <ul className={styles.stats} aria-label={t('profile.statsLabel')}>
          <li>
            <button type="button" className={styles.stat} onClick={() => setList('followers')}>
              <strong>{count(profile.followersCount)}</strong>{' '}
              {t('profile.followers', { count: profile.followersCount })}
            </button>
          </li>
          <li>
            <button type="button" className={styles.stat} onClick={() => setList('following')}>
              <strong>{count(profile.followingCount)}</strong> {t('profile.following')}
            </button>
          </li>
        </ul>
      </div>
      <div className={styles.headerActions}>
        {own ? (
          <ButtonLink
            to="/settings/edit-profile"
            variant="secondary"
            size="sm"
            iconStart={<SettingsIcon size={18} />}
          >
            {t('profile.editProfile')}
          </ButtonLink>
        ) : (
          <>
            {profile.challengeable ? <ChallengeUserButton username={profile.username} /> : null}
            {user ? (
              <>
                <FollowButton profile={profile} onChanged={onChanged} />
                <ReportButton entityType="User" entityId={profile.id} name={name} />
              </>
            ) : null}
          </>
        )}
      </div>
      <FollowsDialog
        list={list}
        username={profile.username}
        name={name}
        onClose={() => setList(null)}
      />
    </header>
  );
}

function FollowButton({
  profile,
  onChanged,
}: {
  profile: PublicProfile;
  onChanged: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const follow = useFollowUser();
  const unfollow = useUnfollowUser();
  const [busy, setBusy] = useState(false);
  const following = profile.isFollowing;

  const toggle = async () => {
    setBusy(true);
    const outcome = following
      ? await unfollow.unfollowUser(profile.username)
      : await follow.followUser(profile.username);
    // Already (un)followed elsewhere: the refetch below brings the page up to date.
    if (!outcome.ok && outcome.status?.identifier !== 'redundant_mutation') {
      const text = describeFailure(t, outcome);
      if (text) toasts.error(text);
    }
    await onChanged();
    setBusy(false);
  };

  return (
    <Button
      variant={following ? 'secondary' : 'primary'}
      size="sm"
      onClick={() => void toggle()}
      loading={busy}
    >
      {following ? t('profile.unfollow') : t('profile.follow')}
    </Button>
  );
}

function Bio({ text }: { text: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [expanded, setExpanded] = useState(false);
  const long = text.length > BIO_PREVIEW_LENGTH;
  const preview = long
    ? `${text
        .slice(0, BIO_PREVIEW_LENGTH)
        .replace(/\s+\S*$/, '')
        .trimEnd()}…`
    : text;
  return (
    <div className={styles.bio}>
      <p id={id} className={styles.bioText}>
        {expanded || !long ? text : preview}
      </p>
      {long ? (
        <button
          type="button"
          className={styles.readMore}
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? t('profile.readLess') : t('profile.readMore')}
        </button>
      ) : null}
    </div>
  );
}

function PrivateProfile({ username }: { username: string }) {
  const { t } = useTranslation();
  return (
    <section
      className={cx(layout.messageCard, styles.private)}
      aria-labelledby="private-profile-title"
    >
      <div className={layout.iconTile} aria-hidden="true">
        <LockIcon size={28} />
      </div>
      <h1 id="private-profile-title" className={styles.privateTitle}>
        {t('profile.private.title')}
      </h1>
      <p className={styles.note}>{t('profile.private.text', { username })}</p>
    </section>
  );
}

const TAB_ICONS = {
  'ongoing-challenges': <FlameIcon size={28} />,
  'completed-challenges': <TrophyIcon size={28} />,
  'uploaded-videos': <VideoIcon size={28} />,
  'respected-videos': <HeartIcon size={28} />,
} satisfies Record<ProfileTab, unknown>;

const TAB_FIELDS = {
  'ongoing-challenges': 'runningChallenges',
  'completed-challenges': 'completedChallenges',
  'uploaded-videos': 'uploadedVideos',
  'respected-videos': 'respectedVideos',
} satisfies Record<ProfileTab, ProfileListField>;

export const PROFILE_LIST_PAGE_SIZE = 12;

/** One of the profile's four lists, a page at a time; its owner may include private items. */
function ProfileTabPage({ tab }: { tab: ProfileTab }) {
  const { t } = useTranslation();
  const { username = '' } = useParams();
  const { user } = useGetCurrentUser();
  const own = user?.username.toLowerCase() === username.toLowerCase();
  // The account's setting (showPrivateChallenges), changed here and kept with the account.
  const [showPrivate, setShowPrivate] = useShowPrivateChallenges(user?.showPrivateChallenges);
  const [page, setPage] = useState(1);
  const field = TAB_FIELDS[tab];
  const { data, previousData, loading, error, refetch } = useQuery(ProfileListsDocument, {
    variables: {
      username,
      showPrivate: own && showPrivate,
      page,
      itemsPerPage: PROFILE_LIST_PAGE_SIZE,
      running: field === 'runningChallenges',
      completed: field === 'completedChallenges',
      uploaded: field === 'uploadedVideos',
      respected: field === 'respectedVideos',
    },
  });
  const result = (data ?? previousData)?.getUserProfile;
  const profile = result?.status.success ? result.profile : null;
  const items = profile ? (profile[field] ?? []) : null;
  const total = profile?.[`${field}Count`] ?? items?.length ?? 0;
  const title = t(`profile.tabs.${tab}.title`);

  return (
    <section className={styles.tabPanel} aria-label={title}>
      {own ? (
        <Checkbox
          label={t('profile.lists.showPrivate')}
          checked={showPrivate}
          onChange={(event) => {
            setShowPrivate(event.target.checked);
            setPage(1);
          }}
        />
      ) : null}
      {items === null ? (
        (result && !result.status.success) || (error && !result) ? (
          <div className={styles.alert} role="alert">
            <AlertIcon size={20} />
            <div className={styles.alertBody}>
              <p>{t('profile.lists.loadFailed')}</p>
              {result ? (
                <p>{errorText(t, result.status.identifier, result.status.message)}</p>
              ) : null}
              <div>
                <Button variant="secondary" size="sm" onClick={() => void refetch()}>
                  {t('wallet.retry')}
                </Button>
              </div>
            </div>
          </div>
        ) : loading ? (
          <PageLoader />
        ) : null
      ) : items.length === 0 ? (
        <PagePlaceholder
          as="h2"
          icon={TAB_ICONS[tab]}
          title={title}
          description={t(`profile.lists.empty.${tab}`)}
        >
          {own ? (
            <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
              {t('challenge.startOne')}
            </ButtonLink>
          ) : null}
        </PagePlaceholder>
      ) : (
        <>
          <ul className={challengeStyles.list} aria-label={title} aria-busy={loading}>
            {items.map((challenge) => (
              <PublicChallengeCard key={challenge.id} challenge={challenge} />
            ))}
          </ul>
          <Pager
            page={page}
            totalPages={Math.max(1, Math.ceil(total / PROFILE_LIST_PAGE_SIZE))}
            onPage={setPage}
            disabled={loading}
            label={t('discover.pages', { list: title })}
          />
        </>
      )}
    </section>
  );
}

export const OngoingChallengesTab = () => <ProfileTabPage tab="ongoing-challenges" />;
export const CompletedChallengesTab = () => <ProfileTabPage tab="completed-challenges" />;
export const UploadedVideosTab = () => <ProfileTabPage tab="uploaded-videos" />;
export const RespectedVideosTab = () => <ProfileTabPage tab="respected-videos" />;
