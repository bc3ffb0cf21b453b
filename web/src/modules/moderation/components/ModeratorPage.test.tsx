import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { EscrowReconciliationDocument, type EscrowHold } from '../graphql/EscrowReconciliation';
import {
  ResolveEscrowHoldDocument,
  type ResolveEscrowHoldMutationVariables,
} from '../graphql/ResolveEscrowHold';
import {
  ExportPayoutRequestsDocument,
  type ExportPayoutRequestsMutationVariables,
} from '../graphql/ExportPayoutRequests';
import { MoneyTotalsDocument, type MoneyTotals } from '../graphql/MoneyTotals';
import {
  ReleasePayoutRequestDocument,
  type ReleasePayoutRequestMutationVariables,
} from '../graphql/ReleasePayoutRequest';
import {
  PayoutRequestsDocument,
  type PayoutRequest,
  type PayoutRequestsQueryVariables,
} from '../graphql/PayoutRequests';
import {
  CancelPayoutRequestDocument,
  type CancelPayoutRequestMutationVariables,
} from '../graphql/CancelPayoutRequest';
import {
  SetPayoutRequestAsCompletedDocument,
  type SetPayoutRequestAsCompletedMutationVariables,
} from '../graphql/SetPayoutRequestAsCompleted';

const admin = { ...alice, username: 'ada_admin', displayName: 'Ada', roles: ['user', 'admin'] };
/** jsdom's Blob has no text(); FileReader reads it. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

function payout(
  values: Partial<PayoutRequest> & Pick<PayoutRequest, 'id' | 'name'>,
): PayoutRequest {
  const userId = values.userId ?? `user-${values.id}`;
  return {
    userId,
    user: { id: userId, username: `user_${values.id}`, displayName: null },
    amount: 2500,
    accountNumber: 'NL91ABNA0417164300',
    bic: 'ABNANL2A',
    address: 'Damrak 1',
    postalCode: '1012 LG',
    city: 'Amsterdam',
    countryCode: 'NL',
    status: 'open',
    createdAt: '2026-11-20T09:30:00.000Z',
    completedAt: null,
    exportedAt: null,
    cancelledAt: null,
    cancelReason: null,
    heldForReview: false,
    ibanChangedAt: null,
    ...values,
  };
}

const bob = payout({
  id: 'p-1',
  name: 'Bob de Vries',
  amount: 12345,
  userId: 'u-bob',
  user: { id: 'u-bob', username: 'bobby', displayName: 'Bobby' },
});
const carla = payout({
  id: 'p-2',
  name: 'Carla Smit',
  amount: 5000,
  accountNumber: 'BE68539007547034',
  bic: 'GKCCBEBB',
  countryCode: 'BE',
  status: 'exported',
  exportedAt: '2026-11-21T08:00:00.000Z',
});
/** Bob's request once it is in a SEPA file: only then can it be marked as paid. */
const bobInFile: PayoutRequest = {
  ...bob,
  status: 'exported',
  exportedAt: '2026-11-21T08:00:00.000Z',
};
const dirk = payout({
  id: 'p-3',
  name: 'Dirk Bakker',
  status: 'done',
  completedAt: '2026-11-19T12:00:00.000Z',
});

/** A payout as the gateway answers it: the user resolved by identity. */
const payoutResult = (item: PayoutRequest) => ({
  __typename: 'PayoutRequest',
  ...item,
  user: { __typename: 'User', ...item.user },
});

/** paginatedListOfPayoutRequests answering from `answer(variables)`; records the variables. */
function payoutsMock(
  answer: (variables: PayoutRequestsQueryVariables) => { items: PayoutRequest[]; pages?: number },
  asked: PayoutRequestsQueryVariables[] = [],
) {
  return answerMock<PayoutRequestsQueryVariables>(
    PayoutRequestsDocument,
    () => true,
    (variables) => {
      asked.push(variables);
      const { items, pages = 1 } = answer(variables);
      return {
        paginatedListOfPayoutRequests: {
          __typename: 'PayoutRequestPage',
          status: statusOf(true, 'ok', 'OK'),
          items: items.map(payoutResult),
          pagination: {
            __typename: 'Pagination',
            currentPage: variables.page,
            totalPages: pages,
            totalCount: pages > 1 ? pages * 20 : items.length,
          },
        },
      };
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

function exportMock(
  sent: ExportPayoutRequestsMutationVariables[],
  answer: Record<string, unknown>,
) {
  return answerMock<ExportPayoutRequestsMutationVariables>(
    ExportPayoutRequestsDocument,
    () => true,
    {
      exportPayoutRequests: {
        __typename: 'PayoutExportResult',
        heldForReviewCount: 0,
        heldForReviewAmount: 0,
        ...answer,
      },
    },
    { onVariables: (variables) => sent.push(variables), times: Number.POSITIVE_INFINITY },
  );
}

function completeMock(
  sent: SetPayoutRequestAsCompletedMutationVariables[],
  success: boolean,
  identifier: string | null = null,
) {
  return answerMock<SetPayoutRequestAsCompletedMutationVariables>(
    SetPayoutRequestAsCompletedDocument,
    () => true,
    {
      setPayoutRequestAsCompleted: {
        __typename: 'PayoutRequestResult',
        status: statusOf(success, identifier ?? 'ok', success ? 'OK' : 'Refused'),
        payoutRequest: success
          ? { ...payoutResult(bob), status: 'done', completedAt: '2026-11-22T10:00:00.000Z' }
          : null,
      },
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

function cancelMock(
  sent: CancelPayoutRequestMutationVariables[],
  success: boolean,
  identifier: string | null = null,
) {
  return answerMock<CancelPayoutRequestMutationVariables>(
    CancelPayoutRequestDocument,
    () => true,
    {
      cancelPayoutRequest: {
        __typename: 'PayoutRequestResult',
        status: statusOf(success, identifier ?? 'ok', success ? 'OK' : 'Refused'),
        payoutRequest: success
          ? {
              ...payoutResult(bob),
              status: 'cancelled',
              cancelledAt: '2026-11-22T10:00:00.000Z',
              cancelReason: 'Returned by the bank',
            }
          : null,
      },
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

function totalsMock(totals: MoneyTotals) {
  return answerMock(
    MoneyTotalsDocument,
    {},
    {
      totalMoneyInCirculation: {
        __typename: 'MoneyTotalsResult',
        status: statusOf(true, 'ok', 'OK'),
        totals: { __typename: 'MoneyTotals', ...totals },
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

/** The reconciliation's two lists; a function answers each request anew (after a resolution). */
function escrowMock(
  holdsWithoutLiveChallenge: EscrowHold[] | (() => EscrowHold[]),
  liveChallengesWithoutHold: EscrowHold[] = [],
) {
  const hold = (item: EscrowHold) => ({
    __typename: 'EscrowHold',
    ...item,
    owner: { __typename: 'User', ...item.owner },
    captureTo: item.captureTo && { __typename: 'User', ...item.captureTo },
  });
  return answerMock(
    EscrowReconciliationDocument,
    {},
    () => ({
      escrowReconciliation: {
        __typename: 'EscrowReconciliationResult',
        status: statusOf(true, 'ok', 'OK'),
        holdsWithoutLiveChallenge: (typeof holdsWithoutLiveChallenge === 'function'
          ? holdsWithoutLiveChallenge()
          : holdsWithoutLiveChallenge
        ).map(hold),
        liveChallengesWithoutHold: liveChallengesWithoutHold.map(hold),
        checkedAt: '2026-11-22T10:00:00.000Z',
      },
    }),
    { times: Number.POSITIVE_INFINITY },
  );
}

/** A held stake as the reconciliation reports it; the fields a test cares about given. */
function strayHold(values: Partial<EscrowHold> & Pick<EscrowHold, 'challengeId'>): EscrowHold {
  return {
    party: 'owner',
    slug: null,
    challengeName: null,
    ownerId: 'u-9',
    owner: { id: 'u-9', username: 'carla_c' },
    amount: 750,
    createdAt: '2026-10-01T12:00:00.000Z',
    challengeStatus: null,
    expiresAt: null,
    reason: 'challenge_missing',
    captureTo: null,
    ...values,
  };
}

function resolveMock(sent: ResolveEscrowHoldMutationVariables[], identifier = 'ok') {
  const success = identifier === 'ok';
  return answerMock<ResolveEscrowHoldMutationVariables>(
    ResolveEscrowHoldDocument,
    () => true,
    (variables) => ({
      resolveEscrowHold: {
        __typename: 'ResolveEscrowHoldResult',
        status: statusOf(success, identifier, success ? 'OK' : 'Refused'),
        hold: success
          ? {
              __typename: 'ResolvedEscrowHold',
              challengeId: variables.input.challengeId,
              party: variables.input.party,
              amount: 750,
              status: variables.input.outcome === 'release' ? 'released' : 'captured',
              payee: { __typename: 'User', id: 'u-1', username: 'someone' },
            }
          : null,
      },
    }),
    { onVariables: (variables) => sent.push(variables) },
  );
}

describe('moderator page: access', () => {
  it('is for admins only: a logged-in user without the role sees access denied', async () => {
    const asked: PayoutRequestsQueryVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [loggedInMock(alice), payoutsMock(() => ({ items: [bob] }), asked)],
    });
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(asked).toEqual([]);
  });

  it('asks a logged-out visitor to log in', async () => {
    renderApp({ path: '/moderator', mocks: [loggedOutMock()] });
    expect(await screen.findByRole('heading', { name: 'Log in to continue' })).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });
});

describe('moderator page: sections', () => {
  it('has a tab per section and keeps the tab in the URL', async () => {
    const { router } = renderApp({
      path: '/moderator',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [] })),
        totalsMock({ walletSum: 0, totalBalance: 0, totalMoneyTopUps: 0, totalMoneyPayouts: 0 }),
        escrowMock([], []),
      ],
    });
    const tabs = await screen.findByRole('tablist', { name: 'Moderator sections' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual([
      'Referee',
      'Refused videos',
      'Banned users',
      'Reports',
      'Payouts',
      'Verify users',
      'Money statistics',
      'Audit log',
    ]);
    const referee = within(tabs).getByRole('tab', { name: 'Referee' });
    expect(referee.getAttribute('aria-selected')).toBe('true');
    expect(
      within(screen.getByRole('tabpanel', { name: 'Referee' })).getByRole('heading', {
        name: 'Referee decisions',
      }),
    ).toBeTruthy();

    // Arrow keys move between tabs.
    fireEvent.keyDown(referee, { key: 'ArrowRight' });
    const refused = within(tabs).getByRole('tab', { name: 'Refused videos' });
    expect(refused.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(refused);
    expect(screen.getByRole('heading', { name: 'Refused videos', level: 2 })).toBeTruthy();
    fireEvent.keyDown(refused, { key: 'End' });
    expect(within(tabs).getByRole('tab', { name: 'Audit log' }).getAttribute('aria-selected')).toBe(
      'true',
    );

    fireEvent.click(within(tabs).getByRole('tab', { name: 'Payouts' }));
    expect(currentUrl(router)).toBe('/moderator?tab=payouts');
    expect(await screen.findByRole('heading', { name: 'Payouts', level: 2 })).toBeTruthy();
  });
});

describe('moderator page: payouts', () => {
  let clicked: Array<{ download: string; href: string }>;
  let blobs: Blob[];
  const originalCreate = URL.createObjectURL;

  beforeEach(() => {
    clicked = [];
    blobs = [];
    URL.createObjectURL = ((blob: Blob) => {
      blobs.push(blob);
      return 'blob:payouts-file';
    }) as typeof URL.createObjectURL;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ download: this.download, href: this.getAttribute('href') ?? '' });
    });
  });
  afterEach(() => {
    URL.createObjectURL = originalCreate;
  });

  it('lists the open payout requests with user, account holder, amount, IBAN, date and status', async () => {
    const asked: PayoutRequestsQueryVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [loggedInMock(admin), payoutsMock(() => ({ items: [bob, carla] }), asked)],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = plain(rows[0]!.textContent);
    const cells = within(rows[0]!).getAllByRole('cell');
    expect(cells[0]!.getAttribute('data-label')).toBe('User');
    expect(plain(cells[0]!.textContent)).toBe('@bobbyBobby');
    expect(cells[1]!.getAttribute('data-label')).toBe('Account holder');
    expect(first).toContain('Bob de Vries');
    expect(first).toContain('Damrak 1, 1012 LG Amsterdam, Netherlands');
    expect(first).toContain('€123.45');
    expect(first).toContain('NL91 ABNA 0417 1643 00');
    expect(first).toContain('20 Nov 2026');
    expect(first).toContain('Open');
    expect(plain(rows[1]!.textContent)).toContain('@user_p-2');
    expect(plain(rows[1]!.textContent)).toContain('BE68 5390 0754 7034');
    expect(plain(rows[1]!.textContent)).toContain('In a SEPA file since 21 Nov 2026');
    expect(screen.getByText('2 payout requests')).toBeTruthy();
    expect(asked[0]).toEqual({ page: 1, itemsPerPage: 20, status: 'open' });
  });

  it('filters by status (open, paid, all) and pages through the list', async () => {
    const asked: PayoutRequestsQueryVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(
          ({ status, page }) =>
            status === 'done'
              ? { items: [dirk] }
              : status === null
                ? { items: page === 1 ? [bob, dirk] : [carla], pages: 2 }
                : { items: [bob] },
          asked,
        ),
      ],
    });
    await screen.findByRole('table', { name: 'Payout requests' });
    const filter = screen.getByLabelText('Status');
    fireEvent.change(filter, { target: { value: 'done' } });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    await waitFor(() => expect(within(table).getByText('Dirk Bakker')).toBeTruthy());
    expect(within(table).queryByRole('button', { name: /Mark as paid/ })).toBeNull();
    expect(within(table).queryByRole('button', { name: /Cancel payout/ })).toBeNull();
    expect(plain(table.textContent)).toContain('Paid 19 Nov 2026');

    fireEvent.change(filter, { target: { value: 'all' } });
    await waitFor(() => expect(within(table).getByText('Bob de Vries')).toBeTruthy());
    const pages = screen.getByRole('navigation', { name: 'Payout request pages' });
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(table).getByText('Carla Smit')).toBeTruthy());
    expect(asked.map(({ page, status }) => [page, status])).toEqual(
      expect.arrayContaining([
        [1, 'open'],
        [1, 'done'],
        [1, null],
        [2, null],
      ]),
    );
  });

  it('marks a payout as paid after confirming, then refreshes the list', async () => {
    const sent: SetPayoutRequestAsCompletedMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        // Once the server has completed it, Bob's request is no longer open.
        payoutsMock(() => ({ items: sent.length > 0 ? [carla] : [bobInFile, carla] })),
        completeMock(sent, true),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    fireEvent.click(
      within(table).getByRole('button', { name: 'Mark as paid: Bob de Vries, €123.45' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Mark this payout as paid?' });
    expect(plain(dialog.textContent)).toContain('User@bobby');
    expect(plain(dialog.textContent)).toContain('Account holderBob de Vries');
    expect(plain(dialog.textContent)).toContain('NL91 ABNA 0417 1643 00');
    expect(plain(dialog.textContent)).toContain('€123.45');
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: "Yes, it's paid" }));

    // Said once, in the panel's notice, not again in a toast (issue 22, point 13).
    expect(
      await screen.findAllByText('The payout of €123.45 to Bob de Vries is marked as paid'),
    ).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Notifications' }).textContent).toBe('');
    expect(sent).toEqual([{ id: 'p-1' }]);
    await waitFor(() => expect(within(table).queryByText('Bob de Vries')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cancelling the confirmation changes nothing', async () => {
    const sent: SetPayoutRequestAsCompletedMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [bobInFile] })),
        completeMock(sent, true),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    fireEvent.click(within(table).getByRole('button', { name: /Mark as paid/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([]);
  });

  it('explains a payout that someone else already processed (payout_request_no_longer_open)', async () => {
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [bobInFile] })),
        completeMock([], false, 'payout_request_no_longer_open'),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    fireEvent.click(within(table).getByRole('button', { name: /Mark as paid/ }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: "Yes, it's paid" }),
    );
    expect(await screen.findByText('This payout request is no longer open.')).toBeTruthy();
    expect(
      screen.getByText('Someone has already processed it. The list has been refreshed.'),
    ).toBeTruthy();
  });

  it('offers mark as paid only for a payout in a SEPA file, and cancel for open and exported ones', async () => {
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [loggedInMock(admin), payoutsMock(() => ({ items: [bob, carla] }))],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    const [open, exported] = within(table).getAllByRole('row').slice(1);
    expect(within(open!).queryByRole('button', { name: /Mark as paid/ })).toBeNull();
    expect(
      within(open!).getByRole('button', { name: 'Cancel payout: Bob de Vries, €123.45' }),
    ).toBeTruthy();
    expect(within(exported!).getByRole('button', { name: /Mark as paid/ })).toBeTruthy();
    expect(within(exported!).getByRole('button', { name: /Cancel payout/ })).toBeTruthy();
    expect(plain(exported!.textContent)).toContain('In a SEPA file');
  });

  it('cancels a payout only with a reason, after confirming, then refreshes the list', async () => {
    const sent: CancelPayoutRequestMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: sent.length > 0 ? [carla] : [bob, carla] })),
        cancelMock(sent, true),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    fireEvent.click(
      within(table).getByRole('button', { name: 'Cancel payout: Bob de Vries, €123.45' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this payout?' });
    expect(plain(dialog.textContent)).toContain('Account holderBob de Vries');
    expect(plain(dialog.textContent)).toContain('€123.45');
    const confirm = within(dialog).getByRole('button', { name: 'Yes, cancel the payout' });
    fireEvent.click(confirm);
    expect(await within(dialog).findByText('Give a reason for the cancellation.')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Reason (kept for staff)'), {
      target: { value: '  Returned by the bank  ' },
    });
    fireEvent.click(confirm);
    // Said once, in the panel's notice, not again in a toast (issue 22, point 13).
    expect(
      await screen.findAllByText(
        'The payout of €123.45 to Bob de Vries is cancelled; the money is back in the wallet',
      ),
    ).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Notifications' }).textContent).toBe('');
    expect(sent).toEqual([{ id: 'p-1', reason: 'Returned by the bank' }]);
    await waitFor(() => expect(within(table).queryByText('Bob de Vries')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeping the payout sends nothing; one someone else processed is explained', async () => {
    const sent: CancelPayoutRequestMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [bob] })),
        cancelMock(sent, false, 'payout_request_no_longer_open'),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    fireEvent.click(within(table).getByRole('button', { name: /Cancel payout/ }));
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep the payout' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([]);

    fireEvent.click(within(table).getByRole('button', { name: /Cancel payout/ }));
    dialog = await screen.findByRole('dialog');
    // A fresh dialog: the reason typed for another payout is not kept.
    const reason = within(dialog).getByLabelText('Reason (kept for staff)') as HTMLTextAreaElement;
    expect(reason.value).toBe('');
    fireEvent.change(reason, { target: { value: 'Account closed' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel the payout' }));
    expect(await screen.findByText('This payout request is no longer open.')).toBeTruthy();
    expect(sent).toEqual([{ id: 'p-1', reason: 'Account closed' }]);
  });

  it('downloads the SEPA XML (pain.001.001.09 by default) as a file named by the server', async () => {
    const sent: ExportPayoutRequestsMutationVariables[] = [];
    const xml = '<?xml version="1.0" encoding="UTF-8"?><Document>payouts</Document>';
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [bob, carla] })),
        exportMock(sent, {
          status: statusOf(true, 'ok', 'OK'),
          fileName: 'PAYOUTS-2026-11-22-AB12CD34.pain.001.001.09.xml',
          xml,
          payoutCount: 2,
          totalAmount: 17345,
        }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'SEPA file for the bank' });
    expect(within(form).getByLabelText<HTMLSelectElement>('File format').value).toBe(
      'pain.001.001.09',
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Download XML' }));
    expect(
      await within(form).findByText(
        'Downloaded PAYOUTS-2026-11-22-AB12CD34.pain.001.001.09.xml: 2 payouts, €173.45 in total.',
      ),
    ).toBeTruthy();
    expect(sent).toEqual([{ input: { format: 'pain.001.001.09', includeExported: false } }]);
    expect(clicked).toEqual([
      {
        download: 'PAYOUTS-2026-11-22-AB12CD34.pain.001.001.09.xml',
        href: 'blob:payouts-file',
      },
    ]);
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.type).toBe('application/xml;charset=utf-8');
    expect(await readBlob(blobs[0]!)).toBe(xml);
  });

  it('sends the chosen format and the include-already-exported choice', async () => {
    const sent: ExportPayoutRequestsMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [bob] })),
        exportMock(sent, {
          status: statusOf(true, 'ok', 'OK'),
          fileName: 'PAYOUTS.pain.001.001.03.xml',
          xml: '<Document/>',
          payoutCount: 1,
          totalAmount: 12345,
        }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'SEPA file for the bank' });
    fireEvent.change(within(form).getByLabelText('File format'), {
      target: { value: 'pain.001.001.03' },
    });
    fireEvent.click(
      within(form).getByRole('checkbox', {
        name: 'Also include payouts that are already in a file',
      }),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Download XML' }));
    await waitFor(() =>
      expect(sent).toEqual([{ input: { format: 'pain.001.001.03', includeExported: true } }]),
    );
    await waitFor(() => expect(clicked[0]?.download).toBe('PAYOUTS.pain.001.001.03.xml'));
  });

  /**
   * Issue 22, point 1: a payout held after an IBAN change showed as plain "Open", and "Download
   * XML" then said there was nothing to export. The hold shows why and until when, with a
   * Release action; the export says what it left out and why.
   */
  it('shows a held payout with why and until when, and releases it after confirming', async () => {
    const held = payout({
      id: 'p-9',
      name: 'Dana Kok',
      amount: 4000,
      heldForReview: true,
      ibanChangedAt: '2026-11-20T08:00:00.000Z',
    });
    const sent: ReleasePayoutRequestMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({
          items: [sent.length > 0 ? { ...held, heldForReview: false, ibanChangedAt: null } : held],
        })),
        exportMock([], {
          status: statusOf(false, 'not_found', 'There is nothing to export.'),
          fileName: null,
          xml: null,
          payoutCount: null,
          totalAmount: null,
          heldForReviewCount: 1,
          heldForReviewAmount: 4000,
        }),
        answerMock<ReleasePayoutRequestMutationVariables>(
          ReleasePayoutRequestDocument,
          () => true,
          {
            releasePayoutRequest: {
              __typename: 'PayoutRequestResult',
              status: statusOf(true, 'ok', 'OK'),
              payoutRequest: { ...payoutResult(held), heldForReview: false, ibanChangedAt: null },
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Payout requests' });
    expect(within(table).getByText('Held for review')).toBeTruthy();
    expect(within(table).queryByText('Open')).toBeNull();
    expect(plain(within(table).getByText(/The bank account was changed/).textContent)).toContain(
      'Held until staff release it',
    );

    const form = screen.getByRole('form', { name: 'SEPA file for the bank' });
    fireEvent.click(within(form).getByRole('button', { name: 'Download XML' }));
    expect(plain((await within(form).findByText(/Nothing to export/)).textContent)).toBe(
      'Nothing to export: the only open payout (€40.00) is held for review after a change of bank account. Release it below once checked.',
    );

    fireEvent.click(within(table).getByRole('button', { name: 'Release: Dana Kok, €40.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release this payout?' });
    expect(plain(dialog.textContent)).toContain('€40.00');
    expect(plain(dialog.textContent)).toContain('User@user_p-9');
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, release it' }));
    // Said once, in the panel's notice, not again in a toast (issue 22, point 13).
    expect(
      await screen.findAllByText(
        'The payout of €40.00 to Dana Kok is released; it goes into the next SEPA file',
      ),
    ).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Notifications' }).textContent).toBe('');
    expect(sent).toEqual([{ id: 'p-9' }]);
    await waitFor(() => expect(within(table).queryByText('Held for review')).toBeNull());
  });

  it('says so nicely when there is nothing to export', async () => {
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [] })),
        exportMock([], {
          status: statusOf(false, 'not_found', 'There are no open payout requests to export.'),
          fileName: null,
          xml: null,
          payoutCount: null,
          totalAmount: null,
        }),
      ],
    });
    expect(await screen.findByText('No open payout requests. All caught up!')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'SEPA file for the bank' });
    fireEvent.click(within(form).getByRole('button', { name: 'Download XML' }));
    expect(await within(form).findByText('There are no open payouts to export.')).toBeTruthy();
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(clicked).toEqual([]);
  });

  it('shows any other export failure with the server’s explanation', async () => {
    renderApp({
      path: '/moderator?tab=payouts',
      mocks: [
        loggedInMock(admin),
        payoutsMock(() => ({ items: [bob] })),
        exportMock([], {
          status: statusOf(false, 'invalid_input', 'Payout p-1: The IBAN is not valid.'),
          fileName: null,
          xml: null,
          payoutCount: null,
          totalAmount: null,
        }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'SEPA file for the bank' });
    fireEvent.click(within(form).getByRole('button', { name: 'Download XML' }));
    const alert = await within(form).findByRole('alert');
    expect(within(alert).getByText("The SEPA file couldn't be created")).toBeTruthy();
    expect(within(alert).getByText('Payout p-1: The IBAN is not valid.')).toBeTruthy();
    expect(clicked).toEqual([]);
  });
});

describe('moderator page: money statistics', () => {
  it('shows the ledger totals in euros and that all holds match', async () => {
    renderApp({
      path: '/moderator?tab=money',
      language: 'nl',
      mocks: [
        loggedInMock(admin),
        totalsMock({
          walletSum: 1234567,
          totalBalance: 0,
          totalMoneyTopUps: 2500000,
          totalMoneyPayouts: 1265433,
        }),
        escrowMock([], []),
      ],
    });
    const held = await screen.findByRole('region', { name: 'In bezit van gebruikers' });
    expect(plain(held.textContent)).toContain('€ 12.345,67');
    expect(
      plain(screen.getByRole('region', { name: 'Totaal opgewaardeerd' }).textContent),
    ).toContain('€ 25.000,00');
    expect(plain(screen.getByRole('region', { name: 'Totaal uitbetaald' }).textContent)).toContain(
      '€ 12.654,33',
    );
    const balance = screen.getByRole('region', { name: 'Grootboeksaldo' });
    expect(plain(balance.textContent)).toContain('€ 0,00');
    expect(balance.textContent).toContain('Het grootboek klopt');
    expect(
      await screen.findByText('Alle reserveringen horen bij lopende challenges.'),
    ).toBeTruthy();
  });

  it('lists holds without a live challenge and live challenges without a hold, by challenge and owner', async () => {
    renderApp({
      path: '/moderator?tab=money',
      mocks: [
        loggedInMock(admin),
        totalsMock({
          walletSum: 1000,
          totalBalance: 0,
          totalMoneyTopUps: 1000,
          totalMoneyPayouts: 0,
        }),
        escrowMock(
          [
            strayHold({
              challengeId: 'c-old',
              slug: 'cold-shower',
              challengeName: 'Cold shower for a week',
              challengeStatus: 'completed',
              reason: 'challenge_over',
            }),
            strayHold({
              challengeId: 'c-lost',
              ownerId: 'u-7',
              owner: { id: 'u-7', username: 'dirk' },
              amount: 300,
              createdAt: '2026-10-02T12:00:00.000Z',
            }),
          ],
          [
            strayHold({
              challengeId: 'c-new',
              challengeName: 'Sing in public',
              ownerId: 'u-8',
              owner: { id: 'u-8', username: 'eva' },
              amount: 500,
              createdAt: '2026-11-01T12:00:00.000Z',
              challengeStatus: 'open',
              reason: 'hold_missing',
            }),
          ],
        ),
      ],
    });
    const stale = await screen.findByRole('table', { name: /Money held that nothing will settle/ });
    const [named, unknown] = within(stale).getAllByRole('row').slice(1);
    const link = within(named!).getByRole('link', { name: 'Cold shower for a week' });
    expect(link.getAttribute('href')).toBe('/challenge/cold-shower/detail');
    const text = plain(named!.textContent);
    expect(text).toContain('c-old');
    expect(text).toContain('@carla_c');
    expect(text).not.toContain('u-9');
    expect(text).toContain('€7.50');
    expect(text).toContain('completed');
    expect(text).toContain('The challenge has ended');
    // Nothing known about the challenge but its id; the status is unknown.
    expect(within(unknown!).queryByRole('link')).toBeNull();
    expect(plain(unknown!.textContent)).toContain('c-lost');
    expect(plain(unknown!.textContent)).toContain('@dirk');
    expect(plain(unknown!.textContent)).toContain('unknown');
    expect(plain(unknown!.textContent)).toContain('The challenge is unknown');

    const missing = screen.getByRole('table', { name: /Live challenges without a hold/ });
    // A name without a slug is shown, but there is no page to link to.
    expect(within(missing).getByText('Sing in public')).toBeTruthy();
    expect(within(missing).queryByRole('link')).toBeNull();
    expect(plain(missing.textContent)).toContain('@eva');
    expect(screen.queryByText('All holds match live challenges.')).toBeNull();
    // Only held money can be resolved by hand.
    expect(within(stale).getAllByRole('button', { name: /Resolve the/ })).toHaveLength(2);
    expect(within(missing).queryByRole('button')).toBeNull();
  });

  it('resolves held money after saying who gets how much, only with a reason, then refreshes', async () => {
    const sent: ResolveEscrowHoldMutationVariables[] = [];
    const over = strayHold({
      challengeId: 'c-over',
      challengeName: 'Cold shower for a week',
      challengeStatus: 'completed',
      reason: 'challenge_over',
      captureTo: { id: 'u-2', username: 'bob_b' },
    });
    renderApp({
      path: '/moderator?tab=money',
      mocks: [
        loggedInMock(admin),
        totalsMock({
          walletSum: 750,
          totalBalance: 0,
          totalMoneyTopUps: 750,
          totalMoneyPayouts: 0,
        }),
        escrowMock(() => (sent.length > 0 ? [] : [over])),
        resolveMock(sent),
      ],
    });
    const table = await screen.findByRole('table', { name: /Money held that nothing will settle/ });
    fireEvent.click(
      within(table).getByRole('button', { name: 'Resolve the €7.50 held from @carla_c' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Resolve held money' });
    // Back to the staker by default; the other party when chosen. Each says who gets how much.
    expect(plain(within(dialog).getByRole('status').textContent)).toBe(
      "€7.50 goes back to @carla_c's available balance. This happens once and cannot be undone.",
    );
    fireEvent.change(within(dialog).getByLabelText('Where the money goes'), {
      target: { value: 'capture' },
    });
    expect(plain(within(dialog).getByRole('status').textContent)).toContain(
      "€7.50 goes to @bob_b's available balance.",
    );
    const confirm = within(dialog).getByRole('button', { name: 'Pay €7.50' });
    fireEvent.click(confirm);
    expect(await within(dialog).findByText('Please say why the money goes there.')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Reason (kept in the audit log)'), {
      target: { value: '  The referee approved the video  ' },
    });
    fireEvent.click(confirm);
    expect((await screen.findAllByText('€7.50 was paid to @bob_b.')).length).toBeGreaterThan(0);
    expect(sent).toEqual([
      {
        input: {
          challengeId: 'c-over',
          party: 'owner',
          outcome: 'capture',
          reason: 'The referee approved the video',
        },
      },
    ]);
    expect(await screen.findByText('All holds match live challenges.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers only a release when nobody else is known, and explains a stake settled meanwhile', async () => {
    const sent: ResolveEscrowHoldMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=money',
      mocks: [
        loggedInMock(admin),
        totalsMock({
          walletSum: 750,
          totalBalance: 0,
          totalMoneyTopUps: 750,
          totalMoneyPayouts: 0,
        }),
        escrowMock([strayHold({ challengeId: 'c-lost' })]),
        resolveMock(sent, 'invalid_action'),
      ],
    });
    const table = await screen.findByRole('table', { name: /Money held that nothing will settle/ });
    fireEvent.click(within(table).getByRole('button', { name: /Resolve the/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve held money' });
    const outcome = within(dialog).getByLabelText('Where the money goes');
    expect(
      within(outcome)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Back to @carla_c']);
    expect(within(dialog).getByText(/Nobody else is known/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason (kept in the audit log)'), {
      target: { value: 'No challenge behind it' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Give back €7.50' }));
    expect(await screen.findByText(/This money is no longer reported/)).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('warns when the ledger does not balance', async () => {
    renderApp({
      path: '/moderator?tab=money',
      mocks: [
        loggedInMock(admin),
        totalsMock({
          walletSum: 1000,
          totalBalance: 5,
          totalMoneyTopUps: 1000,
          totalMoneyPayouts: 0,
        }),
        escrowMock([], []),
      ],
    });
    const balance = await screen.findByRole('region', { name: 'Ledger balance' });
    expect(balance.textContent).toContain("The ledger doesn't balance.");
  });
});
