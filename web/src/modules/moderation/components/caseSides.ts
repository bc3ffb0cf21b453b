/**
 * Whose performance a referee case is about (ADR 70): a case per disputed side, so in a duel the
 * performer may be the owner or the challenged user, judged by the other party. Shared by the
 * referee tab and the refused videos.
 */
interface CaseUser {
  id: string;
  username: string;
  displayName: string | null;
}

interface CaseSides<Video extends { id: string }> {
  owner: CaseUser;
  challengedUser: CaseUser | null;
  performer: CaseUser | null;
  videoId: string | null;
  challenge: { challengeType: string; challengeVideos: Video[] };
}

export const nameOf = (user: CaseUser) => user.displayName?.trim() || `@${user.username}`;

const isDuel = (item: CaseSides<{ id: string }>) => item.challenge.challengeType === 'duel';

/**
 * The disputed performer with their part in the challenge. A case opened before sides were
 * recorded has none: a solo challenge's is its challenged user, a duel's is unknown (null).
 */
export function performerOf(
  item: CaseSides<{ id: string }>,
): { user: CaseUser; role: 'owner' | 'challenged' } | null {
  const user = item.performer ?? (isDuel(item) ? null : item.challengedUser);
  if (!user) return null;
  return { user, role: user.id === item.owner.id ? 'owner' : 'challenged' };
}

/** Who rejected the video: the other party (in a solo challenge, the owner). */
export function judgeOf(item: CaseSides<{ id: string }>): CaseUser | null {
  const performer = performerOf(item);
  if (!performer) return null;
  return performer.role === 'owner' ? item.challengedUser : item.owner;
}

/**
 * The disputed side's video: the one the case names. Without it (an older case), a solo
 * challenge's newest video is its one proof; a duel's newest may be the other side's, so none.
 */
export function disputedVideo<Video extends { id: string }>(
  item: CaseSides<Video>,
): Video | undefined {
  const videos = item.challenge.challengeVideos;
  return (
    videos.find((video) => video.id === item.videoId) ?? (isDuel(item) ? undefined : videos[0])
  );
}
