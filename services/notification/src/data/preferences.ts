import type { Database, Transaction } from './db.ts';

export interface EmailPreferencesRecord {
  newChallenge: boolean | null;
  updateChallenge: boolean | null;
  completedChallenge: boolean | null;
  marketing: boolean | null;
}

export type EmailPreferencesPatch = Partial<Record<keyof EmailPreferencesRecord, boolean>>;

const preferenceFields = {
  newChallenge: true,
  updateChallenge: true,
  completedChallenge: true,
  marketing: true,
} as const;

export function findEmailPreferences(
  db: Database | Transaction,
  userId: string,
): Promise<EmailPreferencesRecord | null> {
  return db.emailPreferences.findUnique({ where: { userId }, select: preferenceFields });
}

/** Sets the given choices, creating the user's row on first use; other choices keep their value. */
export function upsertEmailPreferences(
  db: Database | Transaction,
  userId: string,
  patch: EmailPreferencesPatch,
): Promise<EmailPreferencesRecord> {
  return db.emailPreferences.upsert({
    where: { userId },
    create: { userId, ...patch },
    update: patch,
    select: preferenceFields,
  });
}
