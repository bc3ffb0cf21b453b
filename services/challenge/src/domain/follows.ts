import type { DomainEvent } from '@challenge/events';
import type { Transaction } from '../data/db.ts';
import { recordFollow, removeFollow } from '../data/social.ts';

/**
 * Challenge's projection of identity's follows (docs/adr/0044): who follows whom, for the discover
 * list of challenges from people one follows. Identity's events of one follower share a
 * partition (keyed by the follower), so a follow and its unfollow arrive in order.
 */
export type FollowEvent = DomainEvent<'UserFollowed' | 'UserUnfollowed'>;

export async function projectFollow(tx: Transaction, event: FollowEvent): Promise<void> {
  const { followerId, followeeId } = event.data;
  if (event.type === 'UserFollowed') {
    await recordFollow(tx, followerId, followeeId, new Date(event.occurredAt));
  } else {
    await removeFollow(tx, followerId, followeeId);
  }
}
