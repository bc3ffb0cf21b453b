import { randomBytes } from 'node:crypto';
import { eventually } from '@challenge/testing';
import { endOfRunProblems, type RealRun } from '../model/checks.ts';
import {
  settleChallenge,
  type MChallenge,
  type MSide,
  type ModelState,
  type Party,
} from '../model/state.ts';
import type { Account, Answer, ModelSystem } from '../model/system.ts';
import { Payouts } from './payouts.ts';

/**
 * The bank test's workload (issue 19, ADR 91): many people at once doing what the model-based
 * test's commands do (top up through the sandbox, create solo and duel challenges, accept,
 * decline, upload a real clip, approve, reject, cancel, withdraw to the bank; referees deciding
 * cases in the console's operation; a moderator taking challenges offline and removing them; staff
 * paying out as the console's payouts panel does: payouts.ts), each choosing what fits
 * the platform's state as it reads it, while faults strike. No answer is predicted (two people act
 * on one challenge at once, and a killed process answers nothing); every answer is counted by
 * operation and identifier. At the end the same invariants as the model-based test, with the
 * expectation derived from where each challenge ended (`settleChallenge`, the model's money rule).
 */

const random = (below: number) => Math.floor(Math.random() * below);
const pickOne = <T>(items: readonly T[]): T | undefined => items[random(items.length)];

interface Row {
  id: string;
  slug: string;
  status: string;
  type: 'solo' | 'duel';
  owner: string;
  challenged: string | null;
  reward: number;
  moderation: string | null;
}

/** Answers that are not the platform's: a request the test gave up on or that found no one. */
export const isTransport = (answer: Answer) =>
  answer.startsWith('no answer') || answer === 'hung' || answer.startsWith('HTTP');

export class Bank {
  /** operation -> answer -> count. */
  readonly answers = new Map<string, Map<string, number>>();
  /** Paid checkouts per user id: count and cents (each must be one top_up transfer). */
  readonly paid = new Map<string, { count: number; cents: number }>();
  private users: Account[] = [];
  private deadline = 0;
  /** Withdrawals: people's payout requests and staff paying them out (ADR 95). */
  private readonly payouts: Payouts;

  constructor(
    readonly system: ModelSystem,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.payouts = new Payouts(system, (operation, answer) => this.record(operation, answer));
  }

  /** Whether the last answer was no answer at all (the gateway is down): the next waits longer. */
  private unanswered = false;

  private record(operation: string, answer: Answer) {
    this.unanswered = isTransport(answer);
    const byAnswer = this.answers.get(operation) ?? new Map<string, number>();
    byAnswer.set(answer, (byAnswer.get(answer) ?? 0) + 1);
    this.answers.set(operation, byAnswer);
  }

  private async topUp(user: Account, cents: number, outcome: 'paid' | 'failed' | 'canceled') {
    const answer = await this.system.topUp(user, cents, outcome);
    this.record(`topUp ${outcome}`, answer);
    if (answer === 'ok' && outcome === 'paid') {
      const entry = this.paid.get(user.id) ?? { count: 0, cents: 0 };
      entry.count += 1;
      entry.cents += cents;
      this.paid.set(user.id, entry);
    }
    return answer;
  }

  /** `users` people, each topped up with `cents` (retried until paid: faults may already strike). */
  async open(users: number, cents: number): Promise<void> {
    this.users = await Promise.all(Array.from({ length: users }, () => this.system.newAccount()));
    await this.system.settle();
    await Promise.all(
      this.users.map((user) =>
        eventually(async () => {
          const answer = await this.topUp(user, cents, 'paid');
          if (answer !== 'ok') {
            throw new Error(`top-up: ${answer} (${this.system.lastRefusal.slice(0, 300)})`);
          }
        }, 60_000),
      ),
    );
    await this.payouts.open(this.users);
  }

  private async rows(): Promise<{ challenges: Row[]; sides: Map<string, Map<string, string>> }> {
    const ids = this.users.map((user) => user.id);
    const challenges = await this.system.db('challenge').$queryRawUnsafe<Row[]>(
      `SELECT id::text, slug, status::text, challenge_type::text AS type, owner_id::text AS owner,
              challenged_user_id::text AS challenged, reward_cents::int AS reward,
              moderation::text
         FROM challenges WHERE owner_id = ANY($1::uuid[])`,
      ids,
    );
    const sideRows = await this.system
      .db('challenge')
      .$queryRawUnsafe<{ challenge: string; performer: string; status: string }[]>(
        `SELECT challenge_id::text AS challenge, performer_id::text AS performer, status::text
         FROM challenge_sides WHERE challenge_id = ANY($1::uuid[])`,
        challenges.map((row) => row.id),
      );
    const sides = new Map<string, Map<string, string>>();
    for (const row of sideRows) {
      const of = sides.get(row.challenge) ?? new Map<string, string>();
      of.set(row.performer, row.status);
      sides.set(row.challenge, of);
    }
    return { challenges, sides };
  }

  /** One person's next step, chosen from what fits the state they read. */
  private async step(me: Account) {
    const { system } = this;
    const { challenges, sides } = await this.rows();
    const mine = challenges.filter((row) => row.owner === me.id || row.challenged === me.id);
    const as = (status: string[], role: 'owner' | 'challenged') =>
      mine.filter(
        (row) =>
          status.includes(row.status) && (role === 'owner' ? row.owner : row.challenged) === me.id,
      );
    const choice = random(22);
    if (choice >= 20) {
      await this.payouts.step(me);
      return;
    }
    if (choice < 1) {
      const outcome = pickOne(['paid', 'paid', 'paid', 'failed', 'canceled'] as const)!;
      await this.topUp(me, pickOne([500, 1000])!, outcome);
      return;
    }
    if (choice < 6) {
      const other = pickOne(this.users.filter((user) => user.id !== me.id))!;
      const result = await system.call(
        `mutation ($input: CreateChallengeInput!) { createChallenge(input: $input) { status { success identifier message } } }`,
        {
          input: {
            challengeName: 'Bank challenge',
            challengeDescription: 'Done on video, as agreed.',
            challengeReward: pickOne([100, 200, 300, 500, 800])!,
            tags: ['bank'],
            visibility: 'public',
            expirationTimeWeeks: 2,
            acceptCredit: true,
            challengeType: pickOne(['solo', 'duel'] as const)!,
            challengedUsername: other.username,
          },
        },
        me,
        'createChallenge',
      );
      this.record('createChallenge', result.answer);
      return;
    }
    if (choice < 10) {
      const row = pickOne(as(['open'], 'challenged'));
      if (!row) return;
      const decline = random(6) === 0;
      const answer = (
        await system.setStatus(
          me,
          row.slug,
          decline ? 'refused' : 'accepted',
          decline ? 'Not for me.' : undefined,
        )
      ).answer;
      this.record(decline ? 'decline' : 'accept', answer);
      return;
    }
    if (choice < 13) {
      // My performance: a solo I accepted, or my side of a duel still waiting for its video.
      const row = pickOne(
        mine.filter((each) =>
          each.type === 'solo'
            ? each.challenged === me.id && each.status === 'accepted'
            : ['accepted', 'review', 'referee'].includes(each.status) &&
              sides.get(each.id)?.get(me.id) === 'awaiting_video',
        ),
      );
      if (!row) return;
      this.record('upload', await system.upload(me, row.id));
      return;
    }
    if (choice < 17) {
      // Judging the other's video: a solo I own in review, or the other side of a duel.
      const row = pickOne(
        mine.filter((each) => {
          if (each.type === 'solo') return each.owner === me.id && each.status === 'review';
          const other = each.owner === me.id ? each.challenged : each.owner;
          return other !== null && sides.get(each.id)?.get(other) === 'review';
        }),
      );
      if (!row) return;
      const approve = random(2) === 0;
      const answer = (
        await system.setStatus(
          me,
          row.slug,
          approve ? 'completed' : 'referee',
          approve ? undefined : 'Not the proof phrase.',
        )
      ).answer;
      this.record(approve ? 'approve' : 'reject', answer);
      return;
    }
    if (choice < 18) {
      const row = pickOne(as(['open'], 'owner'));
      if (!row) return;
      this.record('cancel', (await system.cancel(me, row.slug)).answer);
      return;
    }
    // Two people on one challenge at once: the owner cancels while the challenged accepts.
    const row = pickOne(as(['open'], 'owner'));
    const challenged = this.users.find((user) => user.id === row?.challenged);
    if (!row || !challenged) return;
    const [cancelled, accepted] = await Promise.all([
      system.cancel(me, row.slug),
      system.setStatus(challenged, row.slug, 'accepted'),
    ]);
    this.record('cancel (raced)', cancelled.answer);
    this.record('accept (raced)', accepted.answer);
  }

  /** Referees decide the open cases of the run's challenges, sometimes two at once. */
  private async refereeStep() {
    const { system } = this;
    const { challenges } = await this.rows();
    const cases = await system.db('moderation').$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text FROM referee_cases WHERE status::text = 'open' AND challenge_id = ANY($1::uuid[])`,
      challenges.map((row) => row.id),
    );
    const open = pickOne(cases);
    if (!open) return;
    const decision = () => pickOne(['approve', 'reject'] as const)!;
    const [first, second] = system.staff.referees;
    const both = random(4) === 0;
    const answers = await Promise.all([
      system.decide(first, open.id, decision()),
      ...(both ? [system.decide(second, open.id, decision())] : []),
    ]);
    for (const { answer } of answers) this.record('decideRefereeCase', answer);
  }

  /** A moderator takes a live challenge offline or removes it (a report, then the action). */
  private async moderatorStep() {
    const { system } = this;
    const { challenges } = await this.rows();
    const row = pickOne(
      challenges.filter(
        (each) =>
          ['open', 'accepted', 'review', 'referee'].includes(each.status) && !each.moderation,
      ),
    );
    if (!row) return;
    const report = await system.report(row.id);
    this.record('createReport', report.answer);
    if (report.answer !== 'ok' || !report.reportId) return;
    const action = random(3) === 0 ? 'remove' : 'take_offline';
    this.record(
      `moderateReport ${action}`,
      (await system.moderate(report.reportId, action)).answer,
    );
  }

  /** Everyone acts until `durationMs` has passed. */
  async run(durationMs: number): Promise<void> {
    this.deadline = Date.now() + durationMs;
    const loop = async (act: () => Promise<void>, pauseMs: number) => {
      while (Date.now() < this.deadline) {
        try {
          await act();
        } catch (error) {
          // A read of the test's own (a database query) failed: counted, never hidden.
          this.record('the test itself', `threw: ${(error as Error).message.slice(0, 120)}`);
        }
        // People wait a moment when the site does not answer, then try again.
        const pause = this.unanswered ? 1_000 + random(1_000) : random(pauseMs);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    };
    await Promise.all([
      ...this.users.map((user) => loop(() => this.step(user), 300)),
      loop(() => this.refereeStep(), 1_000),
      loop(() => this.moderatorStep(), 8_000),
      loop(() => this.payouts.staffStep(), 4_000),
    ]);
    this.log(
      `workload over: ${[...this.answers.values()].reduce((sum, byAnswer) => sum + [...byAnswer.values()].reduce((a, b) => a + b, 0), 0)} operations`,
    );
  }

  /**
   * Waits until media has processed every video of the run's challenges. A video whose job a
   * kill lost waits for media's stuck-video sweep (5 minutes after its upload; the platform runs
   * the sweep every 20 s), so this waits up to 7 minutes and then names what is still open.
   */
  async videosSettled(): Promise<void> {
    const { challenges } = await this.rows();
    await eventually(async () => {
      const open = await this.system.db('media').$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT id::text, status::text, created_at FROM challenge_videos
          WHERE challenge_id = ANY($1::uuid[]) AND status::text NOT IN ('ready', 'failed')`,
        challenges.map((each) => each.id),
      );
      if (open.length) throw new Error(`videos still processing: ${JSON.stringify(open)}`);
    }, 420_000);
  }

  /**
   * The end-of-run invariants of the model-based test, the expectation taken from where each
   * challenge ended. Drafts (a creation cut short by a kill) are listed apart: the stale-draft
   * sweep gives their money back after 15 minutes (ADR 27), longer than a run.
   */
  async problems(): Promise<{
    problems: string[];
    drafts: number;
    challenges: Map<string, number>;
    payouts: { byStatus: Record<string, number>; held: number };
  }> {
    const { challenges, sides } = await this.rows();
    const keyOf = new Map(this.users.map((user, index) => [user.id, `u${index}`]));
    const drafts = challenges.filter((row) => row.status === 'draft');
    const state: ModelState = {
      users: this.users.map((user, index) => ({
        key: `u${index}`,
        id: user.id,
        username: user.username,
        email: user.email,
        banned: false,
        available: 0,
        frozen: 0,
        topUps: this.paid.get(user.id)?.count ?? 0,
        toppedUp: this.paid.get(user.id)?.cents ?? 0,
      })),
      invites: [],
      challenges: challenges
        .filter((row) => row.status !== 'draft')
        .map((row, index) => expectation(row, sides.get(row.id), keyOf, index)),
      cases: [],
      made: challenges.length,
    };
    const run: RealRun = {
      system: this.system,
      accounts: new Map(this.users.map((user, index) => [`u${index}`, user])),
      messagesAtStart: 0,
      parkedAtStart: 0,
      transcript: [],
    };
    const draftIds = new Set(drafts.map((row) => row.id));
    const problems = (await endOfRunProblems(run, state)).filter(
      (problem) => ![...draftIds].some((id) => problem.includes(id)),
    );
    // Each challenge a problem names, as it ended and what wallet holds for it.
    const named = new Set([...problems.join(' ').matchAll(/\bc(\d+)\b/g)].map((m) => m[0]));
    for (const key of named) {
      const ch = state.challenges.find((each) => each.key === key);
      if (!ch) continue;
      const holds = await this.system.db('wallet').$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT party::text, status::text, attempt_key, cycle, voided_at, settled_at
           FROM escrow_holds WHERE challenge_id = $1::uuid`,
        ch.id,
      );
      const events = await this.system
        .db('challenge')
        .$queryRawUnsafe<{ type: string }[]>(
          `SELECT type FROM outbox_events WHERE key = $1 ORDER BY seq`,
          ch.id,
        );
      const voids = await this.system
        .db('wallet')
        .$queryRawUnsafe<Record<string, unknown>[]>(
          `SELECT party::text, attempt_key FROM escrow_voids WHERE challenge_id = $1::uuid`,
          ch.id,
        );
      const seen = await this.system
        .db('wallet')
        .$queryRawUnsafe<{ status: string }[]>(
          `SELECT status FROM challenge_states WHERE challenge_id = $1::uuid`,
          ch.id,
        );
      const history = {
        events: events.map((row) => row.type),
        voids,
        walletSaw: seen[0]?.status ?? null,
      };
      problems.push(
        `  ${key} is ${ch.id}, a ${ch.type} ${ch.status}, sides ${JSON.stringify(ch.sides)}; wallet holds ${JSON.stringify(holds, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}; history ${JSON.stringify(history, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)).slice(0, 800)}`,
      );
    }
    const ends = new Map<string, number>();
    for (const row of challenges) {
      const name = `${row.type} ${row.status}${row.moderation ? ` (${row.moderation})` : ''}`;
      ends.set(name, (ends.get(name) ?? 0) + 1);
    }
    const payouts = await this.payouts.problems(this.users, this.paid);
    problems.push(...payouts.problems);
    return {
      problems,
      drafts: drafts.length,
      challenges: ends,
      payouts: { byStatus: payouts.byStatus, held: payouts.held },
    };
  }

  /** A unique tag for log lines of this run. */
  readonly tag = randomBytes(3).toString('hex');
}

/** Where a challenge's money must be, given where it ended (the model's rule of the ends). */
function expectation(
  row: Row,
  sides: Map<string, string> | undefined,
  keyOf: Map<string, string>,
  index: number,
): MChallenge {
  const party = (id: string | null) => (id === null ? null : (keyOf.get(id) ?? null));
  const side = (id: string | null) => ({
    status: ((id && sides?.get(id)) ?? 'awaiting_video') as MSide['status'],
    reviewStartedAt: null,
  });
  const ch: MChallenge = {
    key: `c${index}`,
    id: row.id,
    slug: row.slug,
    ownerKey: party(row.owner)!,
    challengedKey: party(row.challenged),
    invitedEmail: null,
    type: row.type,
    reward: row.reward,
    visibility: 'public',
    status: row.status as MChallenge['status'],
    moderation: row.moderation as MChallenge['moderation'],
    offlineSince: null,
    expiresAt: 0,
    reviewStartedAt: null,
    sides:
      row.type === 'duel' && sides
        ? { owner: side(row.owner), challenged: side(row.challenged) }
        : null,
    holds: { owner: { status: 'held', payee: null }, challenged: null },
    visibilityEdits: 0,
  };
  // A duel's challenged stake is held from the acceptance on.
  const joined: Party[] = row.type === 'duel' && row.status !== 'open' ? ['challenged'] : [];
  for (const each of joined) ch.holds[each] = { status: 'held', payee: null };
  settleChallenge(ch);
  return ch;
}
