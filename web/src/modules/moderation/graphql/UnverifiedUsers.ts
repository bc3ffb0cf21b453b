import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { BanType } from './Reports';

export interface UnverifiedUser {
  id: string;
  email: string;
  username: string;
  phoneNumber: string | null;
  birthday: string | null;
  createdAt: string;
  user: {
    id: string;
    paymentProfile: {
      paymentName: string | null;
      paymentAccountNumber: string | null;
      paymentBic: string | null;
      paymentAddress: string | null;
      paymentPostalCode: string | null;
      paymentCity: string | null;
      paymentCountryCode: string | null;
    } | null;
  };
}

export interface UnverifiedUsersQuery {
  paginatedListOfUnverifiedUsers: {
    status: ResponseStatus;
    items: UnverifiedUser[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface UnverifiedUsersQueryVariables {
  /** `search`: part of the username or e-mail address, in any case. */
  input: { page: number; itemsPerPage?: number; search?: string };
}

/** Moderators and admins: accounts not verified yet, newest first, with wallet's payment fields. */
export const UnverifiedUsersDocument: TypedDocumentNode<
  UnverifiedUsersQuery,
  UnverifiedUsersQueryVariables
> = gql`
  query UnverifiedUsers($input: PaginatedListOfUnverifiedUsersInput) {
    paginatedListOfUnverifiedUsers(input: $input) {
      status {
        success
        identifier
        message
      }
      items {
        id
        email
        username
        phoneNumber
        birthday
        createdAt
        user {
          id
          paymentProfile {
            paymentName
            paymentAccountNumber
            paymentBic
            paymentAddress
            paymentPostalCode
            paymentCity
            paymentCountryCode
          }
        }
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;

export type VerifyDecision =
  { decision: 'verify' } | { decision: 'ban'; banType: BanType; reason: string };

export interface ModeratorVerifyUserMutation {
  moderatorVerifyUser: { status: ResponseStatus } | null;
}

export interface ModeratorVerifyUserMutationVariables {
  input: { userId: string; decision: 'verify' | 'ban'; banType?: BanType; reason?: string };
}

/** Verifies the user, or bans them (the verification queue's two outcomes). */
export const ModeratorVerifyUserDocument: TypedDocumentNode<
  ModeratorVerifyUserMutation,
  ModeratorVerifyUserMutationVariables
> = gql`
  mutation ModeratorVerifyUser($input: ModeratorVerifyUserInput!) {
    moderatorVerifyUser(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
