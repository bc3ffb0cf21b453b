import type { Account, ModelSystem } from './system.ts';
import { isLive, type MChallenge, type ModelState, type Party, type Status } from './state.ts';

/**
 * What the model says against what the platform holds: after every step (statuses, sides, holds,
 * balances, referee cases of the run) and at the end of a run (the invariants of issue 19). Each
 * check returns the list of differences in words; empty means it holds.
 */

export interface RealRun {
  system: ModelSystem;
  /** The run's accounts by model key (users, and invited addresses once signed up). */
  accounts: Map<string, Account>;
  /** How many recorded messages there were when the run started (redeliveries pick later ones). */
  messagesAtStart: number;
  /** The dead-letter topic's size when the run started. */
  parkedAtStart: number;
  /** What ran and what the platform answered, printed with a failure. */
  transcript: string[];
}

export interface Snapshot {
  challenges: Map<
    string,
    {
      status: string;
      moderation: string | null;
      visibility: string;
      challengedUserId: string | null;
      sides: Map<string, string>;
    }
  >;
  holds: Map<string, { status: string; staker: string; payee: string | null }>;
  balances: Map<string, { available: number; frozen: number }>;
  cases: { id: string; challengeId: string; performer: string | null; status: string }[];
}

const holdKey = (challengeId: string, party: Party) => `${challengeId}/${party}`;

/** Everything the checks compare, read in one query per table. */
export async function observe(run: RealRun, s: ModelState): Promise<Snapshot> {
  const ids = s.challenges.map((ch) => ch.id).filter(Boolean);
  const userIds = s.users.map((user) => user.id).filter(Boolean);
  const { system } = run;
  const [challenges, sides, holds, accounts, cases] = await Promise.all([
    system.db('challenge').$queryRawUnsafe<
      {
        id: string;
        status: string;
        moderation: string | null;
        visibility: string;
        challenged: string | null;
      }[]
    >(
      `SELECT id::text, status::text, moderation::text, visibility::text,
              challenged_user_id::text AS challenged
         FROM challenges WHERE id = ANY($1::uuid[])`,
      ids,
    ),
    system
      .db('challenge')
      .$queryRawUnsafe<{ challenge: string; performer: string; status: string }[]>(
        `SELECT challenge_id::text AS challenge, performer_id::text AS performer, status::text
           FROM challenge_sides WHERE challenge_id = ANY($1::uuid[])`,
        ids,
      ),
    system.db('wallet').$queryRawUnsafe<
      {
        challenge: string;
        party: Party;
        staker: string;
        status: string;
        payee: string | null;
      }[]
    >(
      `SELECT challenge_id::text AS challenge, party::text, owner_id::text AS staker,
              status::text, payee_id::text AS payee
         FROM escrow_holds WHERE challenge_id = ANY($1::uuid[])`,
      ids,
    ),
    system.db('wallet').$queryRawUnsafe<{ user: string; kind: string; balance: string }[]>(
      `SELECT user_id::text AS user, kind::text, balance::text FROM ledger_accounts
          WHERE user_id = ANY($1::uuid[]) AND kind IN ('user_available', 'user_frozen')`,
      userIds,
    ),
    system
      .db('moderation')
      .$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT * FROM referee_cases WHERE challenge_id = ANY($1::uuid[])`,
        ids,
      ),
  ]);
  const snapshot: Snapshot = {
    challenges: new Map(),
    holds: new Map(),
    balances: new Map(),
    cases: cases.map((row) => ({
      id: String(row.id),
      challengeId: String(row.challenge_id),
      performer: (row.performer_id as string | null | undefined) ?? null,
      status: String(row.status),
    })),
  };
  for (const row of challenges) {
    snapshot.challenges.set(row.id, {
      status: row.status,
      moderation: row.moderation,
      visibility: row.visibility,
      challengedUserId: row.challenged,
      sides: new Map(),
    });
  }
  for (const row of sides)
    snapshot.challenges.get(row.challenge)?.sides.set(row.performer, row.status);
  for (const row of holds) {
    snapshot.holds.set(holdKey(row.challenge, row.party), {
      status: row.status,
      staker: row.staker,
      payee: row.payee,
    });
  }
  for (const id of userIds) snapshot.balances.set(id, { available: 0, frozen: 0 });
  for (const row of accounts) {
    const balance = snapshot.balances.get(row.user)!;
    if (row.kind === 'user_available') balance.available = Number(row.balance);
    else balance.frozen = Number(row.balance);
  }
  return snapshot;
}

const idOf = (s: ModelState, key: string | null) =>
  key === null ? null : (s.users.find((user) => user.key === key)?.id ?? null);

/** The differences between the model and the platform, in words (empty: they agree). */
export function compare(s: ModelState, real: Snapshot): string[] {
  const problems: string[] = [];
  for (const ch of s.challenges) {
    if (!ch.id) continue;
    const seen = real.challenges.get(ch.id);
    const name = `${ch.key} (${ch.type}, ${ch.id})`;
    if (!seen) {
      problems.push(`${name}: missing in challenge`);
      continue;
    }
    if (seen.status !== ch.status)
      problems.push(`${name}: status ${seen.status}, model ${ch.status}`);
    if (seen.moderation !== ch.moderation) {
      problems.push(`${name}: moderation ${seen.moderation}, model ${ch.moderation}`);
    }
    if (seen.visibility !== ch.visibility) {
      problems.push(`${name}: visibility ${seen.visibility}, model ${ch.visibility}`);
    }
    if (seen.challengedUserId !== idOf(s, ch.challengedKey)) {
      problems.push(`${name}: challenged user ${seen.challengedUserId}, model ${ch.challengedKey}`);
    }
    if (ch.sides) {
      for (const party of ['owner', 'challenged'] as const) {
        const status = seen.sides.get(idOf(s, party === 'owner' ? ch.ownerKey : ch.challengedKey)!);
        if (status !== ch.sides[party].status) {
          problems.push(`${name}: ${party}'s side ${status}, model ${ch.sides[party].status}`);
        }
      }
    } else if (seen.sides.size) problems.push(`${name}: has sides, the model none`);
    problems.push(...compareHolds(s, ch, real));
  }
  for (const user of s.users) {
    if (!user.id) continue;
    const balance = real.balances.get(user.id);
    if (balance?.available !== user.available || balance.frozen !== user.frozen) {
      problems.push(
        `${user.key}: available ${balance?.available} frozen ${balance?.frozen}, model ${user.available} / ${user.frozen}`,
      );
    }
  }
  for (const refereeCase of s.cases) {
    if (!refereeCase.id) continue;
    const seen = real.cases.find((row) => row.id === refereeCase.id);
    const expected = refereeCase.decided ? 'decided' : refereeCase.withdrawn ? 'withdrawn' : 'open';
    if (seen?.status !== expected) {
      problems.push(`case ${refereeCase.key}: ${seen?.status ?? 'missing'}, model ${expected}`);
    }
  }
  return problems;
}

function compareHolds(s: ModelState, ch: MChallenge, real: Snapshot): string[] {
  const problems: string[] = [];
  for (const party of ['owner', 'challenged'] as const) {
    const expected = ch.holds[party];
    const seen = real.holds.get(holdKey(ch.id, party));
    const name = `${ch.key}'s ${party} stake`;
    if (!expected) {
      // A stake given back after a failed acceptance is as good as none.
      if (seen && seen.status !== 'released') problems.push(`${name}: ${seen.status}, model none`);
      continue;
    }
    if (!seen) {
      problems.push(`${name}: missing, model ${expected.status}`);
      continue;
    }
    if (seen.status !== expected.status) {
      problems.push(`${name}: ${seen.status}, model ${expected.status}`);
    } else if (expected.status === 'captured' && seen.payee !== idOf(s, expected.payee)) {
      problems.push(`${name}: paid to ${seen.payee}, model ${expected.payee}`);
    }
  }
  return problems;
}

/** Binds the ids of the cases moderation opened since the last step to the model's cases. */
export function bindCases(s: ModelState, real: Snapshot): void {
  for (const refereeCase of s.cases) {
    if (refereeCase.id) continue;
    const ch = s.challenges.find((candidate) => candidate.key === refereeCase.challengeKey)!;
    const performerId = idOf(s, refereeCase.performer === 'owner' ? ch.ownerKey : ch.challengedKey);
    const taken = new Set(s.cases.map((other) => other.id).filter(Boolean));
    const found = real.cases.find(
      (row) =>
        row.challengeId === ch.id &&
        !taken.has(row.id) &&
        (row.performer === null || row.performer === performerId),
    );
    if (found) refereeCase.id = found.id;
  }
}

const ENDINGS: Record<string, string> = {
  ChallengeCompleted: 'completed',
  ChallengeFailed: 'failed',
  ChallengeRefused: 'refused',
  ChallengeCancelled: 'cancelled',
  ChallengeExpired: 'expired',
};

/**
 * The end-of-run invariants (issue 19), once the platform has settled: the ledger sums to zero and
 * every account's balance is its transfers; no balance is negative; every challenge's holds match
 * its state (compare, above) and a creation that failed holds nothing; wallet's reconciliation has
 * no row of this run; no outbox row is unpublished; no side in referee lacks its open case; every
 * challenge that ended published one ending event, which wallet applied once, with the stakes
 * moved once each; every paid top-up credited once; no event was parked; media's projection of
 * every challenge says what challenge says.
 */
export async function endOfRunProblems(run: RealRun, s: ModelState): Promise<string[]> {
  const { system } = run;
  const problems: string[] = [];
  const ids = s.challenges.map((ch) => ch.id).filter(Boolean);
  const userIds = s.users.map((user) => user.id).filter(Boolean);
  const wallet = system.db('wallet');

  const [sum] = await wallet.$queryRawUnsafe<{ total: string }[]>(
    `SELECT COALESCE(SUM(balance), 0)::text AS total FROM ledger_accounts`,
  );
  if (Number(sum?.total) !== 0) problems.push(`the ledger sums to ${sum?.total}, not 0`);
  const drifted = await wallet.$queryRawUnsafe<{ id: string; balance: string; moved: string }[]>(
    `SELECT a.id::text, a.balance::text,
            (COALESCE((SELECT SUM(amount_cents) FROM ledger_transfers WHERE credit_account_id = a.id), 0)
           - COALESCE((SELECT SUM(amount_cents) FROM ledger_transfers WHERE debit_account_id = a.id), 0))::text AS moved
       FROM ledger_accounts a WHERE a.user_id = ANY($1::uuid[])`,
    userIds,
  );
  for (const row of drifted) {
    if (row.balance !== row.moved) {
      problems.push(`account ${row.id}: balance ${row.balance}, its transfers ${row.moved}`);
    }
  }
  const negative = await wallet.$queryRawUnsafe<{ user: string; kind: string; balance: string }[]>(
    `SELECT user_id::text AS user, kind::text, balance::text FROM ledger_accounts
      WHERE kind IN ('user_available', 'user_frozen') AND balance < 0`,
  );
  for (const row of negative) problems.push(`${row.kind} of ${row.user} is ${row.balance}`);

  // A creation that failed (or a draft swept) leaves no money held.
  const stray = await wallet.$queryRawUnsafe<{ challenge: string; status: string }[]>(
    `SELECT challenge_id::text AS challenge, status::text FROM escrow_holds
      WHERE owner_id = ANY($1::uuid[]) AND NOT (challenge_id = ANY($2::uuid[])) AND status <> 'released'`,
    userIds,
    ids,
  );
  for (const row of stray) {
    problems.push(`hold of unknown challenge ${row.challenge} is ${row.status}`);
  }

  const reconciliation = await system.call(
    '{ escrowReconciliation { status { success identifier } holdsWithoutLiveChallenge { challengeId } liveChallengesWithoutHold { challengeId } } }',
    {},
    system.staff.moderator,
    'escrowReconciliation',
  );
  if (reconciliation.answer !== 'ok') problems.push(`reconciliation: ${reconciliation.answer}`);
  for (const list of ['holdsWithoutLiveChallenge', 'liveChallengesWithoutHold'] as const) {
    for (const row of (reconciliation.data?.[list] ?? []) as { challengeId: string }[]) {
      if (ids.includes(row.challengeId))
        problems.push(`reconciliation ${list}: ${row.challengeId}`);
    }
  }

  const pending = await system.pendingOutbox();
  for (const [service, count] of Object.entries(pending)) {
    if (count) problems.push(`${service} has ${count} outbox rows unpublished`);
  }

  const real = await observe(run, s);
  for (const [id, ch] of real.challenges) {
    // A challenge that ended another way (removed) keeps its sides as they were and its open
    // cases are withdrawn (ADR 70): no money waits for them. A live dispute needs its case.
    if (!isLive(ch.status as Status)) continue;
    const open = real.cases.filter((row) => row.challengeId === id && row.status === 'open');
    const disputed =
      ch.sides.size > 0
        ? [...ch.sides].filter(([, status]) => status === 'referee').map(([performer]) => performer)
        : ch.status === 'referee'
          ? [ch.challengedUserId]
          : [];
    for (const performer of disputed) {
      const hasCase = open.some((row) => row.performer === null || row.performer === performer);
      if (!hasCase)
        problems.push(`challenge ${id}: ${performer}'s side is in referee without a case`);
    }
  }

  problems.push(...(await exactlyOnce(run, s)));
  problems.push(...(await projectionProblems(run, ids)));

  const parked = await system.parkedCount();
  if (parked !== run.parkedAtStart) {
    problems.push(`${parked - run.parkedAtStart} events parked on the dead-letter topic`);
  }

  // Through the gateway too: staff read each challenge's status as the model has it.
  for (const ch of s.challenges) {
    if (!ch.id) continue;
    const { data } = await system.call(
      'query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { status { success identifier } challenge { status } } }',
      { input: { slug: ch.slug } },
      system.staff.moderator,
      'getChallengeBySlug',
    );
    if (data?.challenge?.status !== ch.status) {
      problems.push(
        `${ch.key} reads ${data?.challenge?.status} through the gateway, model ${ch.status}`,
      );
    }
  }
  return problems;
}

/**
 * Media's projection of each challenge (who may upload, who may see its videos) says what
 * challenge says, once every event arrived: a lost event or one applied out of order (an
 * outbox that published an aggregate's events out of order, 98b5155) leaves it behind. The
 * visibility of every challenge; the status of a solo one. A duel's status is derived from its
 * sides and goes back to accepted when a judged side ends (docs/challenge-states.md), which
 * media does not follow: it decides a duel's uploads by the sides it saw close (ADR 55).
 */
async function projectionProblems(run: RealRun, ids: string[]): Promise<string[]> {
  const source = await run.system
    .db('challenge')
    .$queryRawUnsafe<{ id: string; status: string; visibility: string; type: string }[]>(
      `SELECT id::text, status::text, visibility::text, challenge_type::text AS type
         FROM challenges WHERE id = ANY($1::uuid[]) AND status <> 'draft'`,
      ids,
    );
  const projected = await run.system
    .db('media')
    .$queryRawUnsafe<{ id: string; status: string | null; visibility: string | null }[]>(
      `SELECT challenge_id::text AS id, status, visibility FROM challenge_access
        WHERE challenge_id = ANY($1::uuid[])`,
      ids,
    );
  const media = new Map(projected.map((row) => [row.id, row]));
  return source.flatMap((row) => {
    const seen = media.get(row.id);
    const statusAgrees = row.type === 'duel' || seen?.status === row.status;
    if (seen && statusAgrees && seen.visibility === row.visibility) return [];
    return [
      `media sees ${row.type} ${row.id} as ${seen?.status ?? 'unknown'}/${seen?.visibility ?? '-'}, challenge says ${row.status}/${row.visibility}`,
    ];
  });
}

/**
 * Every money event applied exactly once: one ending event per ended challenge (redeliveries
 * carry the same id), wallet's escrow consumer handled it, and the ledger moved each stake once
 * (net of the challenge's transfers per staker: the stake while held, nothing once settled; a
 * capture to the right party). Every paid top-up is one top_up transfer.
 */
async function exactlyOnce(run: RealRun, s: ModelState): Promise<string[]> {
  const { system } = run;
  const problems: string[] = [];
  const wallet = system.db('wallet');
  const endings = new Map<string, Set<string>>();
  for (const message of system.messages) {
    if (message.topic !== 'challenge.v1' || !(message.type in ENDINGS)) continue;
    const set = endings.get(message.aggregateId) ?? new Set<string>();
    set.add(`${message.type}:${message.eventId}`);
    endings.set(message.aggregateId, set);
  }
  const ids = s.challenges.map((ch) => ch.id).filter(Boolean);
  const handled = new Set(
    (
      await wallet.$queryRawUnsafe<{ id: string }[]>(
        `SELECT event_id::text AS id FROM processed_events WHERE consumer = 'wallet-escrow'`,
      )
    ).map((row) => row.id),
  );
  const transfers = await wallet.$queryRawUnsafe<
    {
      challenge: string;
      kind: string;
      amount: string;
      debit_user: string;
      credit_user: string;
      credit_kind: string;
    }[]
  >(
    `SELECT t.challenge_id::text AS challenge, t.kind::text, t.amount_cents::text AS amount,
            d.user_id::text AS debit_user, c.user_id::text AS credit_user, c.kind::text AS credit_kind
       FROM ledger_transfers t
       JOIN ledger_accounts d ON d.id = t.debit_account_id
       JOIN ledger_accounts c ON c.id = t.credit_account_id
      WHERE t.challenge_id = ANY($1::uuid[])`,
    ids,
  );
  for (const ch of s.challenges) {
    if (!ch.id) continue;
    const events = [...(endings.get(ch.id) ?? [])];
    const expected = isLive(ch.status) ? 0 : 1;
    if (events.length !== expected) {
      problems.push(
        `${ch.key}: ${events.length} ending events (${events.join(', ')}), model ${ch.status}`,
      );
    }
    for (const event of events) {
      const [type, id] = event.split(':') as [string, string];
      if (ENDINGS[type] !== ch.status) problems.push(`${ch.key}: ${type}, model ${ch.status}`);
      if (!handled.has(id)) problems.push(`${ch.key}: wallet never applied ${type} ${id}`);
    }
    for (const party of ['owner', 'challenged'] as const) {
      const hold = ch.holds[party];
      const stakerKey = party === 'owner' ? ch.ownerKey : ch.challengedKey;
      const staker = s.users.find((user) => user.key === stakerKey)?.id;
      if (!staker) continue;
      const mine = transfers.filter((t) => t.challenge === ch.id && t.debit_user === staker);
      const frozenIn = transfers
        .filter(
          (t) =>
            t.challenge === ch.id && t.credit_user === staker && t.credit_kind === 'user_frozen',
        )
        .reduce((sum, t) => sum + Number(t.amount), 0);
      const frozenOut = mine
        .filter((t) => t.kind !== 'escrow_hold')
        .reduce((sum, t) => sum + Number(t.amount), 0);
      const net = frozenIn - frozenOut;
      const wanted = hold?.status === 'held' ? ch.reward : 0;
      if (net !== wanted)
        problems.push(`${ch.key}'s ${party} stake: ${net} held by the ledger, model ${wanted}`);
      const captures = mine.filter((t) => t.kind === 'escrow_capture');
      const expectedCaptures = hold?.status === 'captured' ? 1 : 0;
      if (captures.length !== expectedCaptures) {
        problems.push(
          `${ch.key}'s ${party} stake: ${captures.length} captures, model ${expectedCaptures}`,
        );
      } else if (captures[0] && captures[0].credit_user !== idOf(s, hold!.payee)) {
        problems.push(
          `${ch.key}'s ${party} stake captured to ${captures[0].credit_user}, model ${hold!.payee}`,
        );
      }
    }
  }
  const topUps = await wallet.$queryRawUnsafe<{ user: string; count: number; cents: string }[]>(
    `SELECT c.user_id::text AS user, count(*)::int AS count, SUM(t.amount_cents)::text AS cents
       FROM ledger_transfers t JOIN ledger_accounts c ON c.id = t.credit_account_id
      WHERE t.kind = 'top_up' AND c.user_id = ANY($1::uuid[]) GROUP BY c.user_id`,
    s.users.map((user) => user.id).filter(Boolean),
  );
  for (const user of s.users) {
    const row = topUps.find((candidate) => candidate.user === user.id);
    if ((row?.count ?? 0) !== user.topUps || Number(row?.cents ?? 0) !== user.toppedUp) {
      problems.push(
        `${user.key}: ${row?.count ?? 0} top-ups of ${row?.cents ?? 0} cents, model ${user.topUps} of ${user.toppedUp}`,
      );
    }
  }
  return problems;
}
