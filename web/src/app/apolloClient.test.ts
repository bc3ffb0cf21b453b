import { ApolloLink, ServerError } from '@apollo/client';
import { of } from 'rxjs';
import { MockLink } from '@apollo/client/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CurrentUserDocument } from '../modules/auth/graphql/CurrentUser';
import { LoginDocument } from '../modules/auth/graphql/Login';
import { createToastStore } from '../ui/toast/toastStore';
import { createApolloClient, createUnauthorizedHandler } from './apolloClient';
import { createI18n } from './i18n';

const loginVariables = { input: { username: 'sam', password: 'pw' } };

function setup(mocks: ReadonlyArray<MockLink.MockedResponse>, language: 'en' | 'nl' = 'en') {
  const toasts = createToastStore();
  const onUnauthorized = vi.fn();
  const client = createApolloClient({
    toasts,
    i18n: createI18n(language),
    onUnauthorized,
    terminatingLink: new MockLink(mocks),
  });
  const messages = () => toasts.getSnapshot().map((toast) => `${toast.kind}: ${toast.message}`);
  return { client, toasts, onUnauthorized, messages };
}

function graphQLErrorMock(
  errors: Array<{ message: string; extensions?: Record<string, unknown> }>,
): MockLink.MockedResponse {
  return {
    request: { query: LoginDocument, variables: loginVariables },
    result: { data: { login: null }, errors },
  };
}

describe('Apollo client error handling', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows a GraphQL error as a toast with the translated errors.{identifier} text', async () => {
    const { client, messages } = setup([
      graphQLErrorMock([{ message: 'raw', extensions: { identifier: 'insufficient_funds' } }]),
    ]);
    await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    expect(messages()).toEqual(['error: Your balance is too low. Top up your wallet to continue.']);
  });

  it('translates into the current language', async () => {
    const { client, messages } = setup(
      [graphQLErrorMock([{ message: 'raw', extensions: { code: 'challenge_not_found' } }])],
      'nl',
    );
    await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    expect(messages()).toEqual(['error: Deze challenge bestaat niet of is niet meer beschikbaar.']);
  });

  it('falls back to the raw server message for an unknown identifier, joining several with a bar', async () => {
    const { client, messages } = setup([
      graphQLErrorMock([
        {
          message: 'Cannot query field "login"',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
        { message: 'Something else' },
      ]),
    ]);
    await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    expect(messages()).toEqual(['error: Cannot query field "login" | Something else']);
  });

  it('stays quiet when the caller reports the error itself', async () => {
    const { client, messages } = setup([
      graphQLErrorMock([{ message: 'nope', extensions: { identifier: 'invalid_credentials' } }]),
    ]);
    await client.mutate({
      mutation: LoginDocument,
      variables: loginVariables,
      context: { suppressErrorToast: true },
    });
    expect(messages()).toEqual([]);
  });

  it('suppresses the same error repeated within 3000 ms', async () => {
    const error = graphQLErrorMock([
      { message: 'x', extensions: { identifier: 'too_many_requests' } },
    ]);
    const { client, messages } = setup([error, error]);
    await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    expect(messages()).toEqual(['error: Too many attempts. Please wait a moment and try again.']);
  });

  it('hands a 401 to the unauthorized handler instead of showing a toast', async () => {
    const response = new Response('Unauthorized', { status: 401 });
    const { client, messages, onUnauthorized } = setup([
      {
        request: { query: CurrentUserDocument },
        error: new ServerError('Response not successful', { response, bodyText: 'Unauthorized' }),
      },
    ]);
    await client.query({ query: CurrentUserDocument }).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(messages()).toEqual([]);
  });

  it('does not treat other network errors as a lost session', async () => {
    const response = new Response('Bad gateway', { status: 502 });
    const { client, onUnauthorized } = setup([
      {
        request: { query: CurrentUserDocument },
        error: new ServerError('Response not successful', { response, bodyText: 'Bad gateway' }),
      },
    ]);
    await client.query({ query: CurrentUserDocument }).catch(() => undefined);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

/**
 * Issue 22, point 3: the spec's generic client retries on 408, 409, 425, 429, 500, 502, 503
 * and 504, once for a read (a GraphQL query), never for a write (a mutation).
 */
describe('Apollo client retries', () => {
  const failing = (status: number) => ({
    request: { query: CurrentUserDocument },
    error: new ServerError('Response not successful', {
      response: new Response('busy', { status }),
      bodyText: 'busy',
    }),
  });
  const profile = {
    request: { query: CurrentUserDocument },
    result: {
      data: {
        getCurrentUserProfile: {
          __typename: 'CurrentUserProfileResult',
          status: { __typename: 'Status', success: false, identifier: 'unauthorized', message: '' },
          profile: null,
        },
      },
    },
  };
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([408, 409, 425, 429, 500, 502, 503, 504])(
    'asks a query again once after %i',
    async (status) => {
      const { client } = setup([failing(status), profile]);
      const answer = await client.query({ query: CurrentUserDocument });
      expect(answer.error).toBeUndefined();
      expect(answer.data?.getCurrentUserProfile?.status.identifier).toBe('unauthorized');
    },
  );

  it('gives up after one retry, and does not retry other failures', async () => {
    const twice = setup([failing(503), failing(503), profile]);
    expect((await twice.client.query({ query: CurrentUserDocument })).error).toBeDefined();
    const badRequest = setup([failing(400), profile]);
    expect((await badRequest.client.query({ query: CurrentUserDocument })).error).toBeDefined();
  });

  it('never asks a mutation again', async () => {
    const busy = {
      request: { query: LoginDocument, variables: loginVariables },
      error: new ServerError('Response not successful', {
        response: new Response('busy', { status: 503 }),
        bodyText: 'busy',
      }),
    };
    const { client } = setup([busy, graphQLErrorMock([{ message: 'second' }])]);
    const answer = await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    expect(ServerError.is(answer.error)).toBe(true);
  });
});

describe('createUnauthorizedHandler', () => {
  it('navigates away and resets the store once per burst of 401s', () => {
    const reset = vi.fn(() => Promise.resolve());
    const navigate = vi.fn();
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const handle = createUnauthorizedHandler(reset, navigate, 5000);
    handle();
    handle();
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(reset).toHaveBeenCalledTimes(1);
    now += 5000;
    handle();
    expect(navigate).toHaveBeenCalledTimes(2);
  });
});

describe('trace context from the browser', () => {
  it('sends a new W3C traceparent with every GraphQL request', async () => {
    const seen: string[] = [];
    const capture = new ApolloLink((operation) => {
      const headers = (operation.getContext() as { headers?: Record<string, string> }).headers;
      seen.push(headers?.['traceparent'] ?? '(none)');
      return of({ data: { login: null } });
    });
    const client = createApolloClient({
      toasts: createToastStore(),
      i18n: createI18n('en'),
      onUnauthorized: vi.fn(),
      terminatingLink: capture,
    });
    await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    await client.mutate({ mutation: LoginDocument, variables: loginVariables });
    expect(seen).toHaveLength(2);
    for (const value of seen) expect(value).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // A trace per request: the ids differ.
    expect(seen[0]?.slice(3, 35)).not.toBe(seen[1]?.slice(3, 35));
  });
});
