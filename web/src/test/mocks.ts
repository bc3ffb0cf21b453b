import type { MockLink } from '@apollo/client/testing';
import { CurrentUserDocument, type CurrentUserProfile } from '../modules/auth/graphql/CurrentUser';
import { LogoutDocument } from '../modules/auth/graphql/Logout';

const status = (
  success: boolean,
  identifier: string | null = null,
  message: string | null = null,
) => ({
  __typename: 'ResponseStatus',
  success,
  identifier,
  message,
});

export const alice: CurrentUserProfile = {
  id: 'u-1',
  username: 'alice',
  displayName: 'Alice Jansen',
  avatar: null,
  locale: 'en',
  roles: ['user'],
  hideAvailableAmount: false,
  showPrivateChallenges: false,
};

function currentUserResult(profile: CurrentUserProfile | null) {
  return {
    data: {
      getCurrentUserProfile: {
        __typename: 'CurrentUserProfileResult',
        // The normal logged-out answer: identifier `unauthorized`, no profile.
        status: profile ? status(true) : status(false, 'unauthorized', 'Unauthorized'),
        profile: profile ? { __typename: 'CurrentUserProfile', ...profile } : null,
      },
    },
  };
}

/** getCurrentUserProfile answering "logged in as <profile>" (reusable: refetches hit it too). */
export function loggedInMock(profile: CurrentUserProfile = alice): MockLink.MockedResponse {
  return {
    request: { query: CurrentUserDocument },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: currentUserResult(profile),
  };
}

export function loggedOutMock(): MockLink.MockedResponse {
  return {
    request: { query: CurrentUserDocument },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: currentUserResult(null),
  };
}

/**
 * A small fake session: getCurrentUserProfile answers with `session.user`, and the logout
 * mutation ends the session, so that refetches after logging out see a logged-out visitor.
 */
export function sessionMocks(initial: CurrentUserProfile | null = alice) {
  /** `logouts` counts the logout mutations the server received. */
  const session = { user: initial, logouts: 0 };
  const mocks: MockLink.MockedResponse[] = [
    {
      request: { query: CurrentUserDocument },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: () => currentUserResult(session.user),
    },
    {
      request: { query: LogoutDocument },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: () => {
        session.user = null;
        session.logouts += 1;
        return { data: { logout: { __typename: 'LogoutResult', status: status(true) } } };
      },
    },
  ];
  return { session, mocks };
}

export { status as statusOf };

/**
 * A mutation or query answered with `data`; `onVariables` sees the variables actually sent (for
 * asserting on them). Usable once unless `times` says otherwise.
 */
export function answerMock<TVariables extends object = Record<string, unknown>>(
  query: MockLink.MockedResponse['request']['query'],
  variables: TVariables | ((variables: TVariables) => boolean),
  data: Record<string, unknown> | ((variables: TVariables) => Record<string, unknown>),
  {
    times = 1,
    onVariables,
  }: { times?: number; onVariables?: (variables: TVariables) => void } = {},
): MockLink.MockedResponse {
  return {
    request: { query, variables: variables as MockLink.MockedResponse['request']['variables'] },
    maxUsageCount: times,
    result: (sent: Record<string, unknown>) => {
      onVariables?.(sent as TVariables);
      return { data: typeof data === 'function' ? data(sent as TVariables) : data };
    },
  };
}

/** `{ __typename, status }` for a result type that only carries the envelope. */
export function statusResult(
  typename: string,
  success: boolean,
  identifier: string | null = success ? 'ok' : null,
  message: string | null = success ? 'OK' : null,
) {
  return { __typename: typename, status: status(success, identifier, message) };
}

/**
 * A request lost on the way (the server may or may not have acted on it): the link fails with a
 * network error. `onVariables` sees the variables sent. Usable once.
 */
export function networkFailureMock<TVariables extends object = Record<string, unknown>>(
  query: MockLink.MockedResponse['request']['query'],
  { onVariables }: { onVariables?: (variables: TVariables) => void } = {},
): MockLink.MockedResponse {
  return {
    request: {
      query,
      variables: (sent: Record<string, unknown>) => {
        onVariables?.(sent as TVariables);
        return true;
      },
    },
    error: new TypeError('Failed to fetch'),
  };
}
