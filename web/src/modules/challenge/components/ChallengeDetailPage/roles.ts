import type { ChallengeDetail, ChallengeSide } from '../../graphql/ChallengeBySlug';

export type Role = 'owner' | 'challenged' | 'viewer';

export function roleOf(challenge: ChallengeDetail, viewerId: string | null): Role {
  if (!viewerId) return 'viewer';
  if (challenge.owner.id === viewerId) return 'owner';
  if (challenge.challengedUser?.id === viewerId) return 'challenged';
  return 'viewer';
}

export const isDuel = (challenge: ChallengeDetail) => challenge.challengeType === 'duel';

/** A duel's side of one party (docs/adr/0032); undefined before acceptance or in a solo. */
export function sideOf(challenge: ChallengeDetail, party: 'owner' | 'challenged') {
  const id = party === 'owner' ? challenge.owner.id : challenge.challengedUser?.id;
  return (challenge.sides ?? []).find((side) => side.performer.id === id);
}

/** In a duel, the side this viewer judges: the other party's, while its video waits for them. */
export function sideToJudge(challenge: ChallengeDetail, role: Role): ChallengeSide | undefined {
  if (!isDuel(challenge) || role === 'viewer') return undefined;
  const side = sideOf(challenge, role === 'owner' ? 'challenged' : 'owner');
  return side?.status === 'review' ? side : undefined;
}
