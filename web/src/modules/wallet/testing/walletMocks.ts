import type { MockLink } from '@apollo/client/testing';
import { answerMock, statusOf } from '../../../test/mocks';
import type { PaymentProfile } from '../graphql/ProfilePaymentInformation';
import { ProfilePaymentInformationDocument } from '../graphql/ProfilePaymentInformation';
import type { WalletLimits, WalletOverview } from '../graphql/Wallet';
import { WalletDocument } from '../graphql/Wallet';
import {
  WalletTransactionsDocument,
  type WalletTransaction,
  type WalletTransactionsQueryVariables,
} from '../graphql/WalletTransactions';

/** Test data for the wallet screens: answers shaped like the wallet SDL, amounts in cents. */

export const limits: WalletLimits = {
  minimumPayout: 1000,
  minimumTopUp: 500,
  monthlyDepositLimit: 100000,
  monthlyWithdrawalLimit: 50000,
  depositedThisMonth: 20000,
  withdrawnThisMonth: 0,
};

export const overview: WalletOverview = {
  availableAmount: 123456,
  freezeAmount: 4500,
  totalAmount: 127956,
  openPayoutAmount: 2000,
  currency: 'EUR',
  limits,
};

export function walletOverviewResult(wallet: WalletOverview = overview) {
  return {
    __typename: 'WalletResult',
    status: statusOf(true, 'ok', 'OK'),
    wallet: {
      __typename: 'Wallet',
      ...wallet,
      limits: { __typename: 'WalletLimits', ...wallet.limits },
    },
  };
}

export function walletOverviewMock(wallet: WalletOverview = overview): MockLink.MockedResponse {
  return answerMock(
    WalletDocument,
    {},
    { getWallet: walletOverviewResult(wallet) },
    { times: Number.POSITIVE_INFINITY },
  );
}

export function walletOverviewFailureMock(identifier: string): MockLink.MockedResponse {
  return answerMock(
    WalletDocument,
    {},
    {
      getWallet: {
        __typename: 'WalletResult',
        status: statusOf(false, identifier, 'Wallet not found'),
        wallet: null,
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

export function transaction(
  values: Partial<WalletTransaction> & Pick<WalletTransaction, 'id' | 'kind'>,
): WalletTransaction {
  return {
    availableChange: 0,
    frozenChange: 0,
    challengeId: null,
    challenge: null,
    description: null,
    createdAt: '2026-11-20T10:15:00.000Z',
    ...values,
  };
}

/** getWalletTransactions answering `pages[n - 1]` for page n. */
export function transactionsMock(
  pages: WalletTransaction[][],
  { totalCount, onPage }: { totalCount?: number; onPage?: (page: number) => void } = {},
): MockLink.MockedResponse {
  return answerMock<WalletTransactionsQueryVariables>(
    WalletTransactionsDocument,
    () => true,
    ({ page }) => {
      onPage?.(page);
      return {
        getWalletTransactions: {
          __typename: 'WalletTransactionPage',
          status: statusOf(true, 'ok', 'OK'),
          items: (pages[page - 1] ?? []).map((item) => ({
            __typename: 'WalletTransaction',
            ...item,
            challenge: item.challenge
              ? { __typename: 'WalletChallengeRef', ...item.challenge }
              : null,
          })),
          pagination: {
            __typename: 'Pagination',
            currentPage: page,
            totalPages: Math.max(1, pages.length),
            totalCount: totalCount ?? pages.flat().length,
          },
        },
      };
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

export const completeProfile: PaymentProfile = {
  paymentName: 'Alice Jansen',
  paymentAccountNumber: 'NL91ABNA0417164300',
  paymentBic: 'ABNANL2A',
  paymentAddress: 'Damrak 1',
  paymentPostalCode: '1012 LG',
  paymentCity: 'Amsterdam',
  paymentCountryCode: 'NL',
  phoneNumber: '+31612345678',
};

export const emptyProfile: PaymentProfile = {
  paymentName: null,
  paymentAccountNumber: null,
  paymentBic: null,
  paymentAddress: null,
  paymentPostalCode: null,
  paymentCity: null,
  paymentCountryCode: null,
  phoneNumber: null,
};

export function paymentProfileMock(
  profile: PaymentProfile | null = completeProfile,
): MockLink.MockedResponse {
  return answerMock(
    ProfilePaymentInformationDocument,
    {},
    {
      getProfilePaymentInformation: {
        __typename: 'PaymentProfileResult',
        status: statusOf(true, 'ok', 'OK'),
        paymentProfile: profile ? { __typename: 'PaymentProfile', ...profile } : null,
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );
}
