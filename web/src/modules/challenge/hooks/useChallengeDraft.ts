import { useCallback, useEffect, useState } from 'react';
import {
  DRAFT_STORAGE_KEY,
  defaultDraft,
  parseDraft,
  step1Problems,
  type ChallengeDraft,
} from '../draft';

function readDraft(): ChallengeDraft {
  try {
    return parseDraft(window.localStorage.getItem(DRAFT_STORAGE_KEY));
  } catch {
    // Storage refused (private mode, quota): start from the defaults.
    return defaultDraft();
  }
}

/** Stores a draft (e.g. a duplicated challenge) for the create pages to pick up. */
export function saveDraft(draft: ChallengeDraft): void {
  try {
    window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Without storage the draft lives as long as the page.
  }
}

export function clearDraft(): void {
  try {
    window.localStorage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}

/**
 * The create-challenge draft, kept in localStorage across reloads, log-ins and a top-up: every
 * change is written at once with a fresh timestamp.
 */
export function useChallengeDraft() {
  const [draft, setDraft] = useState<ChallengeDraft>(readDraft);

  useEffect(() => {
    // Another tab changed the draft: follow it.
    const onStorage = (event: StorageEvent) => {
      if (event.key === DRAFT_STORAGE_KEY) setDraft(readDraft());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const update = useCallback((change: Partial<ChallengeDraft>) => {
    setDraft((previous) => {
      const next = { ...previous, ...change, timestamp: Date.now() };
      saveDraft(next);
      return next;
    });
  }, []);

  const reset = useCallback(() => {
    clearDraft();
    setDraft(defaultDraft());
  }, []);

  return { draft, update, reset };
}

/** Router state that makes the create pages greet a user who has just created an account. */
export interface CreateChallengeWelcome {
  welcome: { username: string };
}

/**
 * Where a new account starts: step 2 when the stored draft's first step is complete (the visitor
 * filled it before signing up), else step 1, where there is something to do.
 */
export function createChallengeEntryPath(username: string): string {
  return step1Problems(readDraft(), { username }).length === 0
    ? '/challenge/create/step-2'
    : '/challenge/create/step-1';
}
