import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import type { ResponseStatus } from '../../../lib/graphql';
import type { WalletBalances } from '../graphql/Wallet';
import { TopUpDocument, type TopUp } from '../graphql/TopUp';

/** How often the payment success page asks, and for how long, before it says the bank is slow. */
export const TOP_UP_POLL_INTERVAL_MS = 1500;
export const TOP_UP_POLL_TIMEOUT_MS = 30_000;

/** The provider's final answers; anything else (open, pending, authorized) may still change. */
const SETTLED_STATUSES = ['paid', 'failed', 'canceled', 'expired'] as const;
export type SettledPaymentStatus = (typeof SETTLED_STATUSES)[number];

export function isSettledPaymentStatus(status: string): status is SettledPaymentStatus {
  return (SETTLED_STATUSES as readonly string[]).includes(status);
}

export type TopUpPollState =
  /** Asking; `topUp` is the last answer, if any. */
  | { phase: 'checking'; topUp: TopUp | null }
  /** The provider gave its final answer. */
  | { phase: 'settled'; topUp: TopUp; status: SettledPaymentStatus; wallet: WalletBalances | null }
  /** Still not final after the time limit: the bank has not confirmed yet. */
  | { phase: 'waiting'; topUp: TopUp | null }
  /** The server refused (e.g. not_found, wallet_not_for_user) or could not be reached. */
  | { phase: 'failed'; failure: ResponseStatus | null };

/**
 * Follows a top-up after the provider's redirect: asks every `intervalMs` until the payment is
 * paid, failed, canceled or expired, for at most `timeoutMs`. `checkAgain` starts a new round.
 * A network error during the round is retried; a refusal by the server ends it.
 */
export function usePollTopUp(
  id: string | null,
  { intervalMs = TOP_UP_POLL_INTERVAL_MS, timeoutMs = TOP_UP_POLL_TIMEOUT_MS } = {},
): { state: TopUpPollState; checkAgain: () => void } {
  const client = useApolloClient();
  const [round, setRound] = useState(0);
  const [state, setState] = useState<TopUpPollState>({ phase: 'checking', topUp: null });

  useEffect(() => {
    if (!id) return undefined;
    let stopped = false;
    let timer: number | undefined;
    let last: TopUp | null = null;
    const startedAt = Date.now();

    const ask = async () => {
      let answer: Awaited<ReturnType<typeof fetchTopUp>>;
      try {
        answer = await fetchTopUp(client, id);
      } catch {
        answer = { kind: 'unreachable' };
      }
      if (stopped) return;
      if (answer.kind === 'refused') {
        setState({ phase: 'failed', failure: answer.status });
        return;
      }
      if (answer.kind === 'answered') {
        last = answer.topUp;
        const status = answer.topUp.paymentStatus;
        if (isSettledPaymentStatus(status)) {
          setState({ phase: 'settled', topUp: answer.topUp, status, wallet: answer.wallet });
          return;
        }
      }
      if (Date.now() - startedAt + intervalMs > timeoutMs) {
        setState(last ? { phase: 'waiting', topUp: last } : { phase: 'failed', failure: null });
        return;
      }
      setState({ phase: 'checking', topUp: last });
      timer = window.setTimeout(() => void ask(), intervalMs);
    };

    setState((previous) => ({
      phase: 'checking',
      topUp: previous.phase === 'failed' ? null : previous.topUp,
    }));
    void ask();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [client, id, round, intervalMs, timeoutMs]);

  const checkAgain = useCallback(() => setRound((value) => value + 1), []);
  return { state, checkAgain };
}

type TopUpAnswer =
  | { kind: 'answered'; topUp: TopUp; wallet: WalletBalances | null }
  | { kind: 'refused'; status: ResponseStatus }
  | { kind: 'unreachable' };

async function fetchTopUp(
  client: ReturnType<typeof useApolloClient>,
  id: string,
): Promise<TopUpAnswer> {
  const { data } = await client.query({
    query: TopUpDocument,
    variables: { id },
    fetchPolicy: 'network-only',
  });
  const result = data?.getTopUp;
  if (!result) return { kind: 'unreachable' };
  if (!result.status.success) return { kind: 'refused', status: result.status };
  if (!result.topUp) return { kind: 'unreachable' };
  return { kind: 'answered', topUp: result.topUp, wallet: result.wallet ?? null };
}
