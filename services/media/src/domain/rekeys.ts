import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  cancelDeletions,
  clearRekeyRequest,
  dropDeletion,
  findRekeyRequest,
  findStaleRekeyRequests,
  findVideoKeysOfChallenge,
  lockDueDeletion,
  rescheduleDeletions,
  scheduleDeletions,
  swapVideoKeys,
  type VideoKeys,
} from '../data/rekeys.ts';
import { findChallengeAccess } from '../data/challenges.ts';
import type { ObjectStorage } from '../data/storage.ts';

/**
 * Links handed out before a challenge was hidden (or made private) stop working at once
 * (docs/adr/0065): a signed URL names one key, so the challenge's objects move to new random keys
 * and the old ones are deleted. Staff (and, for a private challenge, the parties) get fresh links
 * signed for the new keys.
 *
 * The steps, each safe to repeat after a crash or a redelivered event:
 *  1. the request (`rekey_requested_at`) is written in the transaction that hides the challenge
 *     (handled once per event id: a redelivery asks for nothing);
 *  2. the new keys go on the deletion list, due in an hour (a move that never commits leaves no
 *     orphan), then each object is copied server-side;
 *  3. one transaction points each row at its new keys when it still holds the old ones
 *     (processing may have changed one meanwhile: then that video is moved again in the next
 *     round), takes the new keys off the list (all of them must still be there: a sweep that
 *     deleted a copy makes the move start again), puts the old keys on it, due now, and clears
 *     the request it read;
 *  4. the due objects are deleted (never one a row still points at).
 * A crash before 3 leaves the request, and the next run moves again; after 3, the old keys wait
 * on the list and the next run (or sweep) deletes them. No object a row points at is ever deleted.
 */

export interface RekeyDeps {
  db: Database;
  storage: Pick<ObjectStorage, 'copyObject' | 'removeObject'>;
  logger: Pick<Logger, 'info' | 'warn'>;
}

/** How long a copy of a move in progress is kept before a sweep may take it for an orphan. */
export const COPY_GRACE_MS = 60 * 60 * 1000;
const MAX_ROUNDS = 5;

/** videos/<id>/<random>/<file name>: the file name (and so a download's extension) is kept. */
function movedKey(videoId: string, key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1) || 'object';
  return `videos/${videoId}/${randomBytes(12).toString('hex')}/${name}`;
}

interface Move {
  video: VideoKeys;
  /** old key -> new key; an object that does not exist maps to itself (nothing to move). */
  copies: Map<string, string>;
}

function planMove(video: VideoKeys): Move {
  const copies = new Map<string, string>();
  for (const key of [video.objectKey, video.originalKey, video.thumbnailKey]) {
    if (key && !copies.has(key)) copies.set(key, movedKey(video.id, key));
  }
  return { video, copies };
}

function keysAfter({ video, copies }: Move): Omit<VideoKeys, 'id'> {
  const to = (key: string | null) => (key === null ? null : (copies.get(key) ?? key));
  return {
    objectKey: to(video.objectKey)!,
    originalKey: to(video.originalKey),
    thumbnailKey: to(video.thumbnailKey),
  };
}

/**
 * The job queued for the move asked for at `requestedAt` (docs/adr/0073): it moves only when that
 * is still the pending request. A newer request has a job of its own (the latest wins, and many
 * switches in a row cost one move); none pending means an earlier job (or the sweep) did it.
 */
export async function runRekeyJob(
  deps: RekeyDeps,
  challengeId: string,
  requestedAt: Date,
): Promise<number> {
  const pending = await findRekeyRequest(deps.db, challengeId);
  if (pending?.getTime() !== requestedAt.getTime()) return 0;
  return rekeyChallenge(deps, challengeId);
}

/**
 * Finishes the challenge's pending move, if any: answers the number of videos moved (0 when no
 * move was asked for, as on a redelivered event, or when the challenge is public and online
 * again by now: nobody's link needs revoking). Goes on while a newer request comes in meanwhile
 * (up to five rounds). Throws on a storage or database failure; the request stays, and the job's
 * retry (or the sweep) finishes the move.
 */
export async function rekeyChallenge(deps: RekeyDeps, challengeId: string): Promise<number> {
  const transaction = transactionRunner(deps.db);
  let moved = 0;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const requestedAt = await findRekeyRequest(deps.db, challengeId);
    if (!requestedAt) break;
    const access = await findChallengeAccess(deps.db, challengeId);
    if (access?.visibility === 'public' && !access.hiddenAt) {
      await transaction((tx) => clearRekeyRequest(tx, challengeId, requestedAt));
      continue;
    }
    const moves = (await findVideoKeysOfChallenge(deps.db, challengeId)).map(planMove);
    const copies = moves.flatMap((move) =>
      [...move.copies.values()].map((key) => ({ key, videoId: move.video.id })),
    );
    await scheduleDeletions(deps.db, copies, new Date(Date.now() + COPY_GRACE_MS));
    for (const move of moves) {
      for (const [from, to] of move.copies) {
        // No object at the old key (never stored, or deleted): nothing to move, the row keeps it.
        if (!(await deps.storage.copyObject(from, to))) move.copies.set(from, from);
      }
    }
    const done = await transaction(async (tx) => {
      let complete = true;
      let swapped = 0;
      for (const move of moves) {
        const pairs = [...move.copies].filter(([from, to]) => from !== to);
        const newKeys = pairs.map(([, to]) => to);
        if (!(await swapVideoKeys(tx, move.video, keysAfter(move)))) {
          complete = false;
          await rescheduleDeletions(tx, newKeys, new Date());
          continue;
        }
        if ((await cancelDeletions(tx, newKeys)) !== newKeys.length) {
          throw new Error(`a copy of video ${move.video.id} was swept before its move committed`);
        }
        await scheduleDeletions(
          tx,
          pairs.map(([from]) => ({ key: from, videoId: move.video.id })),
          new Date(),
        );
        swapped++;
      }
      if (complete) await clearRekeyRequest(tx, challengeId, requestedAt);
      return { complete, swapped };
    });
    moved += done.swapped;
    deps.logger.info({ challengeId, moved: done.swapped, round }, 'challenge objects moved');
  }
  await deleteDueObjects(deps);
  return moved;
}

/** A move still pending this long after it was asked for is taken up by the sweep. */
export const STALE_REKEY_MS = 5 * 60 * 1000;

/**
 * Finishes the moves their event did not (its retries ran out and it was parked: ADR 18), asked
 * for more than STALE_REKEY_MS ago. Running beside the consumer on the same challenge is safe:
 * one commits, the other's copies become due orphans. Answers the videos moved.
 */
export async function finishStaleRekeys(deps: RekeyDeps, now = new Date()): Promise<number> {
  const stale = await findStaleRekeyRequests(deps.db, new Date(now.getTime() - STALE_REKEY_MS), 50);
  let moved = 0;
  for (const challengeId of stale) {
    try {
      moved += await rekeyChallenge(deps, challengeId);
    } catch (error) {
      deps.logger.warn({ err: error, challengeId }, 'could not move the challenge objects yet');
    }
  }
  return moved;
}

/**
 * Deletes the objects whose time has come, one locked entry at a time (a move committing to a
 * copy waits on the lock, then finds the entry gone and starts again). An object a row still
 * points at is kept (the entry is dropped). Answers how many objects were deleted.
 */
export async function deleteDueObjects(deps: RekeyDeps, limit = 1000): Promise<number> {
  const transaction = transactionRunner(deps.db);
  let deleted = 0;
  for (let i = 0; i < limit; i++) {
    const outcome = await transaction(async (tx) => {
      const due = await lockDueDeletion(tx);
      if (!due) return 'none' as const;
      if (!due.referenced) await deps.storage.removeObject(due.key);
      await dropDeletion(tx, due.key);
      return due.referenced ? ('kept' as const) : ('deleted' as const);
    });
    if (outcome === 'none') break;
    if (outcome === 'deleted') deleted++;
  }
  return deleted;
}
