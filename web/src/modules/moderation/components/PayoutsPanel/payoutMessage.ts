import type { MutationOutcome } from '../../../../lib/mutationOutcome';
import type { NoticeTone } from '../../../../ui/Notice';

export type Failed = Extract<MutationOutcome<unknown>, { ok: false }>;
export type Message = { tone: NoticeTone; title?: string; text: string; detail?: string | null };

/** The server's own words when the translation alone would not say what went wrong. */
export function serverDetail(outcome: Failed, shown: string | null): string | null {
  const message = outcome.status?.message?.trim();
  return message && message !== shown ? message : null;
}
