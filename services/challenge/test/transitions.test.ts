import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  CHALLENGE_STATUSES,
  TRANSITIONS,
  SIDE_ACTIONS,
  SIDE_STATUSES,
  SIDE_TRANSITIONS,
  actorsOf,
  decideSideTransition,
  decideTransition,
  duelStatus,
  type Actor,
  type SideActor,
  type SideStatus,
  type Status,
} from '../src/domain/transitions.ts';

const ACTORS: Actor[] = ['owner', 'challenged', 'system'];

/** The table written out by hand: action -> [from statuses, to, by]. */
const EXPECTED: Record<string, [Status[], Status, Actor]> = {
  open: [['draft'], 'open', 'system'],
  accept: [['open'], 'accepted', 'challenged'],
  decline: [['open'], 'refused', 'challenged'],
  cancel: [['draft', 'open'], 'cancelled', 'owner'],
  videoProcessed: [['accepted'], 'review', 'system'],
  approve: [['review'], 'completed', 'owner'],
  reject: [['review'], 'referee', 'owner'],
  judgingWindowElapsed: [['review'], 'completed', 'system'],
  refereeApprove: [['referee'], 'completed', 'system'],
  refereeFail: [['referee'], 'failed', 'system'],
  expire: [['draft', 'open', 'accepted'], 'expired', 'system'],
  remove: [['draft', 'open', 'accepted', 'review', 'referee'], 'cancelled', 'system'],
};

describe('the transition table', () => {
  it('has exactly the transitions written out here', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [action, [from, to, by]] of Object.entries(EXPECTED)) {
      expect(TRANSITIONS[action as keyof typeof TRANSITIONS], action).toMatchObject({
        from,
        to,
        by,
      });
    }
  });

  // Every action x every status x every actor, not expired: the decision follows the table.
  for (const action of ACTIONS) {
    const [from, to, by] = EXPECTED[action]!;
    for (const status of CHALLENGE_STATUSES) {
      for (const actor of ACTORS) {
        const expected =
          actor !== by
            ? by === 'owner'
              ? 'invalid_challenge_owner'
              : 'invalid_action'
            : status === to
              ? 'status_unchanged'
              : from.includes(status)
                ? `-> ${to}`
                : 'invalid_status_change';
        it(`${action} by ${actor} in ${status}: ${expected}`, () => {
          const decision = decideTransition({ action, status, actors: [actor], expired: false });
          expect(decision.allowed ? `-> ${decision.to}` : decision.identifier).toBe(expected);
        });
      }
    }
  }

  it('refuses accepting or declining after the expiration date with challenge_expired', () => {
    for (const action of ['accept', 'decline']) {
      expect(
        decideTransition({ action, status: 'open', actors: ['challenged'], expired: true }),
      ).toEqual({ allowed: false, identifier: 'challenge_expired' });
    }
    // Already moved on: the status answer wins.
    expect(
      decideTransition({
        action: 'accept',
        status: 'accepted',
        actors: ['challenged'],
        expired: true,
      }),
    ).toEqual({ allowed: false, identifier: 'status_unchanged' });
    // The owner may still cancel (the money goes back either way), and the scheduler expire.
    expect(
      decideTransition({ action: 'cancel', status: 'open', actors: ['owner'], expired: true }),
    ).toMatchObject({ allowed: true, to: 'cancelled' });
    expect(
      decideTransition({ action: 'expire', status: 'open', actors: ['system'], expired: true }),
    ).toMatchObject({ allowed: true, to: 'expired' });
  });

  it('refuses an unknown action with invalid_action', () => {
    expect(
      decideTransition({ action: 'steal', status: 'open', actors: ACTORS, expired: false }),
    ).toEqual({ allowed: false, identifier: 'invalid_action' });
  });

  it('refuses a stranger (no role for the challenge) everything', () => {
    for (const action of ACTIONS) {
      const decision = decideTransition({ action, status: 'open', actors: [], expired: false });
      expect(decision.allowed).toBe(false);
    }
  });

  it('is written down in docs/challenge-states.md, row for row', () => {
    // Prettier pads the table's columns: compare with runs of spaces collapsed.
    const doc = readFileSync(
      new URL('../../../docs/challenge-states.md', import.meta.url),
      'utf8',
    ).replace(/ +/g, ' ');
    for (const [action, [from, to, by]] of Object.entries(EXPECTED)) {
      const row = `| \`${action}\` | ${from.map((s) => `\`${s}\``).join(', ')} | \`${to}\` | ${by} |`;
      expect(doc, action).toContain(row);
    }
  });
});

describe('actorsOf', () => {
  const challenge = { ownerId: 'o', challengedUserId: 'c' };

  it('names the owner and the challenged user', () => {
    expect(actorsOf(challenge, { id: 'o' })).toEqual(['owner']);
    expect(actorsOf(challenge, { id: 'c' })).toEqual(['challenged']);
    expect(actorsOf(challenge, { id: 's' })).toEqual([]);
  });

  it('gives a referee no role: a referee decides in the case, the system applies it (docs/adr/0070)', () => {
    const referee = { id: 'r', roles: ['user', 'referee'] };
    expect(actorsOf(challenge, referee)).toEqual([]);
    for (const action of ['refereeApprove', 'refereeFail']) {
      expect(
        decideTransition({
          action,
          status: 'referee',
          actors: actorsOf(challenge, referee),
          expired: false,
        }),
      ).toEqual({ allowed: false, identifier: 'invalid_action' });
    }
  });
});

/** A duel's side table (docs/adr/0032) written out by hand: action -> [from, to, by]. */
const SIDE_EXPECTED: Record<string, [SideStatus[], SideStatus, SideActor]> = {
  videoProcessed: [['awaiting_video'], 'review', 'system'],
  approve: [['review'], 'completed', 'judge'],
  reject: [['review'], 'referee', 'judge'],
  judgingWindowElapsed: [['review'], 'completed', 'system'],
  refereeApprove: [['referee'], 'completed', 'system'],
  refereeFail: [['referee'], 'failed', 'system'],
  expire: [['awaiting_video'], 'failed', 'system'],
};

describe("a duel's side table", () => {
  it('has exactly the transitions written out here, and in docs/challenge-states.md', () => {
    expect(Object.keys(SIDE_TRANSITIONS).sort()).toEqual(Object.keys(SIDE_EXPECTED).sort());
    const doc = readFileSync(
      new URL('../../../docs/challenge-states.md', import.meta.url),
      'utf8',
    ).replace(/ +/g, ' ');
    for (const [action, [from, to, by]] of Object.entries(SIDE_EXPECTED)) {
      expect(SIDE_TRANSITIONS[action as keyof typeof SIDE_TRANSITIONS], action).toEqual({
        from,
        to,
        by,
      });
      const row = `| side \`${action}\` | ${from.map((s) => `\`${s}\``).join(', ')} | \`${to}\` | ${by} |`;
      expect(doc, action).toContain(row);
    }
  });

  it('decides by the table: the wrong person first, then the status', () => {
    for (const action of SIDE_ACTIONS) {
      const [from, to, by] = SIDE_EXPECTED[action]!;
      for (const status of SIDE_STATUSES) {
        for (const actor of ['judge', 'system'] as SideActor[]) {
          const decision = decideSideTransition({ action, status, actors: [actor] });
          const expected =
            actor !== by
              ? by === 'judge'
                ? 'invalid_challenge_owner'
                : 'invalid_action'
              : status === to
                ? 'status_unchanged'
                : from.includes(status)
                  ? `-> ${to}`
                  : 'invalid_status_change';
          expect(decision.allowed ? `-> ${decision.to}` : decision.identifier).toBe(expected);
        }
      }
    }
  });

  it("derives the duel's status from its two sides", () => {
    const of = (a: SideStatus, b: SideStatus) => duelStatus([{ status: a }, { status: b }]);
    expect(of('awaiting_video', 'awaiting_video')).toBe('accepted');
    expect(of('completed', 'awaiting_video')).toBe('accepted');
    expect(of('review', 'awaiting_video')).toBe('review');
    expect(of('review', 'referee')).toBe('referee');
    expect(of('failed', 'review')).toBe('review');
    expect(of('completed', 'failed')).toBe('completed');
    expect(of('completed', 'completed')).toBe('completed');
    expect(of('failed', 'failed')).toBe('failed');
  });
});
