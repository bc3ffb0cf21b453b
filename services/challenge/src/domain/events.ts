import type { ChallengeRecord } from '../data/challenges.ts';

/** What every challenge event says about its challenge (packages/events challengeSnapshot). */
export function challengeEventData(challenge: ChallengeRecord) {
  return {
    challengeId: challenge.id,
    slug: challenge.slug,
    challengeName: challenge.name,
    rewardCents: Number(challenge.rewardCents),
    ownerId: challenge.ownerId,
    challengedUserId: challenge.challengedUserId,
    challengedEmail: challenge.challengedEmail,
    challengeType: challenge.challengeType,
    expiresAt: challenge.expirationDate.toISOString(),
  };
}
