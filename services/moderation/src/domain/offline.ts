import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError, type AuthUser } from '@challenge/kit';
import { z } from 'zod';
import { appendAudit } from '../data/audit.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import { clearOffline, findKnownChallenge, followsAnyOf } from '../data/projections.ts';
import { moveOpenDeadlines } from '../data/referee.ts';
import { staffReason } from './actions.ts';

export const bringBackOnlineInputSchema = z.object({
  challengeId: z.uuid(),
  reason: staffReason,
});
export type BringBackOnlineInput = z.output<typeof bringBackOnlineInputSchema>;

/**
 * Staff bring a challenge they took offline back online (docs/adr/0071): ChallengeBroughtBackOnline
 * lets its parties see it again (challenge, media) and moves its deadlines by the time it was
 * offline (challenge: the expiration date and the judging windows; here: its open referee cases'
 * deadlines), so its timers go on where they stood. A removed challenge stays removed. Not by a
 * party of the challenge nor one who follows a party (the referees' conflict rule, docs/adr/0041).
 * One transaction: the projection, the cases, the event and the audit entry.
 */
export async function bringChallengeBackOnline(
  db: Database,
  actor: AuthUser,
  input: BringBackOnlineInput,
  now = new Date(),
): Promise<void> {
  const known = await findKnownChallenge(db, input.challengeId);
  if (!known) throw new AppError('not_found', 'No challenge has this id.');
  const parties = [known.ownerId, known.challengedUserId].filter((id): id is string => !!id);
  if (parties.includes(actor.id)) {
    throw new AppError('access_denied', 'You cannot act on a challenge you take part in.');
  }
  if (await followsAnyOf(db, actor.id, parties)) {
    throw new AppError('access_denied', 'You cannot act on a challenge of someone you follow.');
  }
  await transactionRunner(db)(async (tx) => {
    const offline = await clearOffline(tx, known.id);
    if (!offline) {
      const current = await findKnownChallenge(tx, known.id);
      if (current?.moderation === 'removed') {
        throw new AppError('invalid_action', 'A removed challenge stays removed.');
      }
      throw new AppError('redundant_mutation', 'This challenge is online.');
    }
    if (offline.offlineAt) await moveOpenDeadlines(tx, known.id, offline.offlineAt, now);
    await enqueueEvents(tx, [
      newEvent('ChallengeBroughtBackOnline', {
        aggregateId: known.id,
        actorId: actor.id,
        data: { challengeId: known.id, moderatorId: actor.id },
      }),
    ]);
    await appendAudit(tx, {
      actorId: actor.id,
      action: 'challenge_brought_back_online',
      targetType: 'Challenge',
      targetId: known.id,
      reason: input.reason,
      createdAt: now,
    });
  });
}
