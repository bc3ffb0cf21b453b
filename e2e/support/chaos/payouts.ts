import { randomBytes } from 'node:crypto';
import { seedPassword, type createDatabase } from '@challenge/identity/seed';
import type { Account, Answer, ModelSystem } from '../model/system.ts';

/**
 * Withdrawals in the bank test (issue 19, ADR 95): people save their bank details, ask for
 * payouts (a form's idempotency key, resubmitted when no answer came, sometimes twice at once as
 * a double click) and now and then replace their IBAN (re-authenticated with their password), so
 * that their payouts are held for review; staff do what the console's payouts panel does: release
 * the held ones, export a SEPA file, mark exported payouts paid or cancel them, sometimes two
 * staff on one payout at once. Every answer is counted; at the end `problems()` checks that each
 * payout is in one consistent state, its money moved once, and every wallet adds up.
 */

const random = (below: number) => Math.floor(Math.random() * below);
const pickOne = <T>(items: readonly T[]): T | undefined => items[random(items.length)];

const PASSWORD = 'Sturdy-Pass-42';

/** Two valid accounts a person switches between (IBAN, BIC of the same country). */
const BANKS = [
  { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', country: 'DE', city: 'Berlin' },
  { iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', country: 'NL', city: 'Amsterdam' },
] as const;

const STATUS = 'status { success identifier message }';
const PAYOUT = 'payoutRequest { id userId amount status heldForReview }';

interface Asked {
  user: string;
  amount: number;
  /** The form's idempotency key: every submission of it must name this payout. */
  key: string;
}

export class Payouts {
  /** Payouts answered `ok` to the person who asked, by id. */
  private readonly asked = new Map<string, Asked>();
  /** Staff answers `ok` per payout: completions and cancellations (each at most once, never both). */
  private readonly completedOk = new Map<string, number>();
  private readonly cancelledOk = new Map<string, number>();
  private readonly releasedOk = new Map<string, number>();
  /** What the platform answered that contradicts itself, seen while running. */
  private readonly seen: string[] = [];
  /** Whose bank details are saved, and which of BANKS each has now. */
  private readonly bank = new Map<string, number>();
  private clerks: [Account, Account] | null = null;

  constructor(
    private readonly system: ModelSystem,
    private readonly record: (operation: string, answer: Answer) => void,
  ) {}

  /** Gives every person a password (for the re-authentication an IBAN change asks) and two clerks. */
  async open(users: Account[]): Promise<void> {
    const identity = this.system.db('identity') as unknown as ReturnType<typeof createDatabase>;
    for (const user of users) await seedPassword(identity, user.id, PASSWORD);
    this.clerks = [this.system.staff.moderator, await this.system.reporter()];
  }

  private profileInput(user: Account, bank: (typeof BANKS)[number], reauthProof?: string) {
    return {
      paymentName: `Bank ${user.username}`,
      paymentAccountNumber: bank.iban,
      paymentBic: bank.bic,
      paymentAddress: 'Stationsstraat 1',
      paymentPostalCode: '1012 AB',
      paymentCity: bank.city,
      paymentCountryCode: bank.country,
      phoneNumber: '+31 20 123 4567',
      ...(reauthProof ? { reauthProof } : {}),
    };
  }

  private saveProfile(user: Account, bankIndex: number, reauthProof?: string) {
    return this.system.call(
      `mutation ($input: PaymentProfileInput!) { updateProfilePaymentInformation(input: $input) { ${STATUS} } }`,
      { input: this.profileInput(user, BANKS[bankIndex]!, reauthProof) },
      user,
      'updateProfilePaymentInformation',
    );
  }

  /** One person's withdrawal step: bank details first, then a payout, now and then a new IBAN. */
  async step(me: Account): Promise<void> {
    const current = this.bank.get(me.id);
    if (current === undefined) {
      const saved = await this.saveProfile(me, 0);
      this.record('savePaymentProfile', saved.answer);
      if (saved.answer === 'ok') this.bank.set(me.id, 0);
      return;
    }
    if (random(6) === 0) {
      await this.changeIban(me, current);
      return;
    }
    const amount = pickOne([1_000, 1_000, 1_500, 2_000])!;
    const key = randomBytes(8).toString('hex');
    const ask = () =>
      this.system.call(
        `mutation ($input: PayoutRequestInput!) { payoutRequest(input: $input) { ${STATUS} ${PAYOUT} } }`,
        { input: { amount, idempotencyKey: key } },
        me,
        'payoutRequest',
      );
    // A double click now and then: the form sent twice at once.
    const answers = random(5) === 0 ? await Promise.all([ask(), ask()]) : [await ask()];
    for (const answer of answers) this.record('payoutRequest', answer.answer);
    // No answer: the person submits the same form again (its key), as the web app does.
    if (answers.every((each) => each.answer !== 'ok' && isLost(each.answer))) {
      const again = await ask();
      this.record('payoutRequest (resubmitted)', again.answer);
      answers.push(again);
    }
    for (const { answer, data } of answers) {
      if (answer !== 'ok') continue;
      const payout = data?.payoutRequest as { id: string; amount: number } | undefined;
      if (!payout) {
        this.seen.push(`payoutRequest ${key}: ok without a payout`);
        continue;
      }
      const known = [...this.asked].find(([, each]) => each.key === key);
      if (known && known[0] !== payout.id) {
        this.seen.push(`payoutRequest ${key}: two payouts ${known[0]} and ${payout.id}`);
      }
      if (payout.amount !== amount) {
        this.seen.push(`payout ${payout.id}: answered ${payout.amount} cents, asked ${amount}`);
      }
      this.asked.set(payout.id, { user: me.id, amount, key });
    }
  }

  /** Replaces the IBAN: the password again (identity's proof for this session), then the save. */
  private async changeIban(me: Account, current: number) {
    const proof = await this.system.call(
      `mutation ($input: ReauthenticateInput!) { reauthenticate(input: $input) { ${STATUS} proof } }`,
      { input: { purpose: 'payment_profile', password: PASSWORD } },
      me,
      'reauthenticate',
    );
    this.record('reauthenticate', proof.answer);
    if (proof.answer !== 'ok') return;
    const next = 1 - current;
    const saved = await this.saveProfile(me, next, proof.data.proof as string);
    this.record('changeIban', saved.answer);
    if (saved.answer === 'ok') this.bank.set(me.id, next);
  }

  private list(status: 'open' | 'exported') {
    return this.system.call(
      `query ($status: String) { paginatedListOfPayoutRequests(status: $status, itemsPerPage: 100) { ${STATUS} items { id status heldForReview } } }`,
      { status },
      this.clerks![0],
      'paginatedListOfPayoutRequests',
    );
  }

  private staffCall(clerk: Account, mutation: string, field: string, id: string) {
    return this.system.call(
      `mutation ($id: ID!) { ${mutation} { ${STATUS} ${PAYOUT} } }`,
      { id },
      clerk,
      field,
    );
  }

  private count(map: Map<string, number>, id: string) {
    map.set(id, (map.get(id) ?? 0) + 1);
  }

  /** Staff on the payouts panel: release the held, export a file, mark paid or cancel. */
  async staffStep(): Promise<void> {
    const [first, second] = this.clerks!;
    const open = await this.list('open');
    this.record('paginatedListOfPayoutRequests', open.answer);
    const held = ((open.data?.items ?? []) as { id: string; heldForReview: boolean }[]).filter(
      (each) => each.heldForReview,
    );
    const toRelease = pickOne(held);
    if (toRelease) {
      const both = random(4) === 0;
      const answers = await Promise.all([
        this.staffCall(
          first,
          'releasePayoutRequest(id: $id)',
          'releasePayoutRequest',
          toRelease.id,
        ),
        ...(both
          ? [
              this.staffCall(
                second,
                'releasePayoutRequest(id: $id)',
                'releasePayoutRequest',
                toRelease.id,
              ),
            ]
          : []),
      ]);
      for (const { answer } of answers) {
        this.record('releasePayoutRequest', answer);
        if (answer === 'ok') this.count(this.releasedOk, toRelease.id);
      }
    }
    // A lost file now and then: the exported ones again.
    const exported = await this.system.call(
      `mutation ($input: ExportPayoutRequestsInput) { exportPayoutRequests(input: $input) { ${STATUS} payoutCount } }`,
      { input: { includeExported: random(8) === 0 } },
      first,
      'exportPayoutRequests',
    );
    this.record('exportPayoutRequests', exported.answer);
    const inFile = await this.list('exported');
    this.record('paginatedListOfPayoutRequests', inFile.answer);
    for (const payout of ((inFile.data?.items ?? []) as { id: string }[]).slice(0, 3)) {
      const roll = random(10);
      const complete = (clerk: Account) =>
        this.staffCall(
          clerk,
          'setPayoutRequestAsCompleted(id: $id)',
          'setPayoutRequestAsCompleted',
          payout.id,
        );
      const cancel = (clerk: Account) =>
        this.system.call(
          `mutation ($id: ID!, $reason: String!) { cancelPayoutRequest(id: $id, reason: $reason) { ${STATUS} ${PAYOUT} } }`,
          { id: payout.id, reason: 'The bank returned the transfer.' },
          clerk,
          'cancelPayoutRequest',
        );
      // Mostly paid; sometimes returned by the bank; sometimes two staff at once.
      const calls =
        roll < 6
          ? [['complete', complete(first)] as const]
          : roll < 7
            ? [['cancel', cancel(first)] as const]
            : roll < 9
              ? [['complete', complete(first)] as const, ['complete', complete(second)] as const]
              : [['complete', complete(first)] as const, ['cancel', cancel(second)] as const];
      for (const [kind, pending] of calls) {
        const { answer } = await pending;
        this.record(
          kind === 'complete' ? 'setPayoutRequestAsCompleted' : 'cancelPayoutRequest',
          answer,
        );
        if (answer === 'ok')
          this.count(kind === 'complete' ? this.completedOk : this.cancelledOk, payout.id);
      }
    }
  }

  /**
   * The payouts' end-of-run invariants, once the platform has settled: every payout in one
   * consistent state with exactly the transfers of that state (asked once; paid out once or given
   * back once, never both); staff's answers agree with where it ended; every person's frozen
   * money is their held stakes plus their open payouts; money in equals money out for each person
   * (top-ups and rewards won, less rewards lost and payouts paid); the payout clearing account
   * holds exactly the paid payouts.
   */
  async problems(
    users: Account[],
    paid: Map<string, { count: number; cents: number }>,
  ): Promise<{ problems: string[]; byStatus: Record<string, number>; held: number }> {
    const wallet = this.system.db('wallet');
    const problems = [...this.seen];
    const rows = await wallet.$queryRawUnsafe<
      {
        id: string;
        user: string;
        amount: number;
        status: string;
        exported: boolean;
        completed: boolean;
        cancelled: boolean;
        held: boolean;
        released_at: Date | null;
        completed_at: Date | null;
        request_key: string | null;
      }[]
    >(
      `SELECT id::text, user_id::text AS user, amount_cents::int AS amount, status::text,
              exported_at IS NOT NULL AND export_batch IS NOT NULL AS exported,
              completed_at IS NOT NULL AS completed, cancelled_at IS NOT NULL AS cancelled,
              held_for_review AS held, released_at, completed_at, request_key
         FROM payout_requests`,
    );
    const transfers = await wallet.$queryRawUnsafe<{ key: string; kind: string; amount: number }[]>(
      `SELECT idempotency_key AS key, kind::text, amount_cents::int AS amount FROM ledger_transfers
        WHERE kind IN ('payout_request', 'payout_complete', 'payout_cancel')`,
    );
    const byKey = new Map<string, { kind: string; amount: number }[]>();
    for (const transfer of transfers) {
      const id = transfer.key.split(':')[1] ?? '';
      byKey.set(id, [...(byKey.get(id) ?? []), transfer]);
    }
    const byStatus: Record<string, number> = {};
    for (const row of rows) {
      byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
      const name = `payout ${row.id} (${row.status}, ${row.amount} cents)`;
      const moved = byKey.get(row.id) ?? [];
      byKey.delete(row.id);
      const of = (kind: string) => moved.filter((each) => each.kind === kind);
      const wanted = {
        payout_request: 1,
        payout_complete: row.status === 'done' ? 1 : 0,
        payout_cancel: row.status === 'cancelled' ? 1 : 0,
      };
      for (const [kind, count] of Object.entries(wanted)) {
        const found = of(kind);
        if (found.length !== count)
          problems.push(`${name}: ${found.length} ${kind} transfers, ${count} wanted`);
        for (const each of found) {
          if (each.amount !== row.amount)
            problems.push(`${name}: a ${kind} of ${each.amount} cents`);
        }
      }
      const consistent =
        row.status === 'open'
          ? !row.exported && !row.completed && !row.cancelled
          : row.status === 'exported'
            ? row.exported && !row.completed && !row.cancelled
            : row.status === 'done'
              ? row.exported && row.completed && !row.cancelled
              : row.status === 'cancelled' && !row.completed && row.cancelled;
      if (!consistent) {
        problems.push(
          `${name}: exported ${row.exported}, completed ${row.completed}, cancelled ${row.cancelled}`,
        );
      }
      if (
        row.status === 'done' &&
        row.held &&
        (!row.released_at || (row.completed_at && row.released_at > row.completed_at))
      ) {
        problems.push(`${name}: held for review, paid without a release first`);
      }
      const completions = this.completedOk.get(row.id) ?? 0;
      const cancellations = this.cancelledOk.get(row.id) ?? 0;
      if (completions > 1) problems.push(`${name}: marked paid ${completions} times with ok`);
      if (cancellations > 1) problems.push(`${name}: cancelled ${cancellations} times with ok`);
      if (completions && row.status !== 'done') problems.push(`${name}: marked paid with ok`);
      if (cancellations && row.status !== 'cancelled') problems.push(`${name}: cancelled with ok`);
      if ((this.releasedOk.get(row.id) ?? 0) > 1) problems.push(`${name}: released twice with ok`);
      const asked = this.asked.get(row.id);
      if (asked && (asked.user !== row.user || asked.amount !== row.amount)) {
        problems.push(
          `${name}: asked by ${asked.user} for ${asked.amount}, stored for ${row.user}`,
        );
      }
    }
    for (const [id, moved] of byKey) {
      problems.push(`${moved.length} payout transfers of ${id}, which is no payout`);
    }
    for (const [id, asked] of this.asked) {
      if (!rows.some((row) => row.id === id))
        problems.push(`payout ${id} answered ok, not stored (${asked.key})`);
    }

    // Each person's money: frozen is stakes held plus payouts open; in equals out.
    const ids = users.map((user) => user.id);
    const balances = await wallet.$queryRawUnsafe<
      { user: string; kind: string; balance: number }[]
    >(
      `SELECT user_id::text AS user, kind::text, balance::int AS balance FROM ledger_accounts
        WHERE user_id = ANY($1::uuid[]) AND kind IN ('user_available', 'user_frozen')`,
      ids,
    );
    const stakes = await wallet.$queryRawUnsafe<{ user: string; cents: number }[]>(
      `SELECT owner_id::text AS user, SUM(amount_cents)::int AS cents FROM escrow_holds
        WHERE status = 'held' AND owner_id = ANY($1::uuid[]) GROUP BY owner_id`,
      ids,
    );
    const captures = await wallet.$queryRawUnsafe<{ user: string; won: number; lost: number }[]>(
      `SELECT u AS user, SUM(won)::int AS won, SUM(lost)::int AS lost FROM (
         SELECT c.user_id::text AS u, t.amount_cents AS won, 0 AS lost
           FROM ledger_transfers t JOIN ledger_accounts c ON c.id = t.credit_account_id
          WHERE t.kind = 'escrow_capture'
         UNION ALL
         SELECT d.user_id::text, 0, t.amount_cents
           FROM ledger_transfers t JOIN ledger_accounts d ON d.id = t.debit_account_id
          WHERE t.kind = 'escrow_capture') moves
        WHERE u = ANY($1::text[]) GROUP BY u`,
      ids,
    );
    for (const user of users) {
      const balance = (kind: string) =>
        balances.find((row) => row.user === user.id && row.kind === kind)?.balance ?? 0;
      const mine = rows.filter((row) => row.user === user.id);
      const sum = (statuses: string[]) =>
        mine
          .filter((row) => statuses.includes(row.status))
          .reduce((total, row) => total + row.amount, 0);
      const open = sum(['open', 'exported']);
      const paidOut = sum(['done']);
      const held = stakes.find((row) => row.user === user.id)?.cents ?? 0;
      if (balance('user_frozen') !== held + open) {
        problems.push(
          `${user.username}: frozen ${balance('user_frozen')}, stakes held ${held} + payouts open ${open}`,
        );
      }
      const moved = captures.find((row) => row.user === user.id);
      const expected =
        (paid.get(user.id)?.cents ?? 0) + (moved?.won ?? 0) - (moved?.lost ?? 0) - paidOut;
      const total = balance('user_available') + balance('user_frozen');
      if (total !== expected) {
        problems.push(
          `${user.username}: ${total} in the wallet, ${expected} expected (top-ups ${paid.get(user.id)?.cents ?? 0}, won ${moved?.won ?? 0}, lost ${moved?.lost ?? 0}, paid out ${paidOut})`,
        );
      }
      // What the person reads: the open payouts the wallet page shows.
      const read = await this.system.call(
        `{ getWallet { ${STATUS} wallet { availableAmount freezeAmount openPayoutAmount } } }`,
        {},
        user,
        'getWallet',
      );
      const shown = read.data?.wallet as
        { availableAmount: number; freezeAmount: number; openPayoutAmount: number } | undefined;
      if (
        shown?.openPayoutAmount !== open ||
        shown.availableAmount !== balance('user_available') ||
        shown.freezeAmount !== balance('user_frozen')
      ) {
        problems.push(
          `${user.username} reads ${JSON.stringify(shown ?? read.answer)}, the ledger ${balance('user_available')} / ${balance('user_frozen')}, open payouts ${open}`,
        );
      }
    }
    const [clearing] = await wallet.$queryRawUnsafe<{ balance: number }[]>(
      `SELECT COALESCE(SUM(balance), 0)::int AS balance FROM ledger_accounts WHERE kind = 'payout_clearing'`,
    );
    const paidTotal = rows
      .filter((row) => row.status === 'done')
      .reduce((t, row) => t + row.amount, 0);
    if (clearing?.balance !== paidTotal) {
      problems.push(`payout clearing holds ${clearing?.balance}, the paid payouts ${paidTotal}`);
    }
    return { problems, byStatus, held: rows.filter((row) => row.held).length };
  }
}

/**
 * No answer that says what happened (a process was killed meanwhile): the request may or may not
 * have been applied, so the person submits the form again.
 */
const isLost = (answer: Answer) =>
  answer.startsWith('no answer') ||
  answer === 'hung' ||
  answer.startsWith('HTTP') ||
  answer === 'generic_error';
