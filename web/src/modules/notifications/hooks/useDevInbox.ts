import { useCallback, useEffect, useState } from 'react';

/** The gateway's development inbox over the local SMTP catcher (gateway/src/dev-inbox.ts). */
export const DEV_INBOX_API = '/api/dev/inbox/messages';

export interface CaughtMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  date: string;
}

/** Why there is no list: not served here (production), not for this visitor, or a failure. */
export type DevInboxProblem = 'unavailable' | 'forbidden' | 'failed';

export interface DevInboxState {
  messages: CaughtMail[] | null;
  problem: DevInboxProblem | null;
  loading: boolean;
  refresh: () => void;
}

export function useDevInbox(to: string): DevInboxState {
  const [state, setState] = useState<Omit<DevInboxState, 'refresh'>>({
    messages: null,
    problem: null,
    loading: true,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    const query = to.trim() ? `?to=${encodeURIComponent(to.trim())}` : '';
    fetch(`${DEV_INBOX_API}${query}`, { signal: controller.signal, credentials: 'same-origin' })
      .then(async (response) => {
        if (response.status === 404)
          return setState({ messages: null, problem: 'unavailable', loading: false });
        if (response.status === 403)
          return setState({ messages: null, problem: 'forbidden', loading: false });
        if (!response.ok) throw new Error(`status ${response.status}`);
        const messages = (await response.json()) as CaughtMail[];
        setState({ messages, problem: null, loading: false });
      })
      .catch(() => {
        if (!controller.signal.aborted)
          setState({ messages: null, problem: 'failed', loading: false });
      });
    return () => controller.abort();
  }, [to, round]);
  const refresh = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, refresh };
}
