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
 * challenges (updateChallenge), the outcome of their challenges (completedChallenge) and
 * marketing. Null means the user has not chosen yet: the documented default applies.
 */
export type EmailPreferencesView = EmailPreferencesRecord;
export type PreferenceTopic = keyof EmailPreferencesRecord;

export const UNSET_PREFERENCES: EmailPreferencesView = Object.freeze({
  newChallenge: null,
  updateChallenge: null,
  completedChallenge: null,
  marketing: null,
});

/**
 * The choice a null stands for. Mail about the user's own challenges is on until they turn it
 * off (it is what they signed up for); marketing is off until they opt in (GDPR consent).
 */
export const PREFERENCE_DEFAULTS: Readonly<Record<PreferenceTopic, boolean>> = Object.freeze({
  newChallenge: true,
  updateChallenge: true,
  completedChallenge: true,
  marketing: false,
});

/** Whether the user wants e-mail about a topic, the default standing in for a choice not made. */
export function wantsEmail(
  preferences: EmailPreferencesView | null,
  topic: PreferenceTopic,
): boolean {
  return preferences?.[topic] ?? PREFERENCE_DEFAULTS[topic];
}

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
