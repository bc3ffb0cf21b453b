import { z } from 'zod';
import type { Database } from '../data/db.ts';
import {
  findEmailPreferences,
  upsertEmailPreferences,
  type EmailPreferencesPatch,
  type EmailPreferencesRecord,
} from '../data/preferences.ts';

/**
 * What a user lets us e-mail them about: being challenged (newChallenge), actions on their
 * challenges (updateChallenge), their challenge completed (completedChallenge) and marketing.
 * Null means the user has not chosen yet.
 */
export type EmailPreferencesView = EmailPreferencesRecord;

export const UNSET_PREFERENCES: EmailPreferencesView = Object.freeze({
  newChallenge: null,
  updateChallenge: null,
  completedChallenge: null,
  marketing: null,
});

const choice = z.boolean().nullish();
export const preferencesUpdateSchema = z.object({
  newChallenge: choice,
  updateChallenge: choice,
  completedChallenge: choice,
  marketing: choice,
});
export type PreferencesUpdate = z.output<typeof preferencesUpdateSchema>;

/** Only the choices given: an omitted or null field leaves the stored choice as it is. */
export function preferencesPatch(update: PreferencesUpdate): EmailPreferencesPatch {
  return Object.fromEntries(
    Object.entries(update).filter(
      (entry): entry is [string, boolean] => typeof entry[1] === 'boolean',
    ),
  );
}

export async function getEmailPreferences(
  db: Database,
  userId: string,
): Promise<EmailPreferencesView> {
  return (await findEmailPreferences(db, userId)) ?? UNSET_PREFERENCES;
}

export function updateEmailPreferences(
  db: Database,
  userId: string,
  update: PreferencesUpdate,
): Promise<EmailPreferencesView> {
  return upsertEmailPreferences(db, userId, preferencesPatch(update));
}
