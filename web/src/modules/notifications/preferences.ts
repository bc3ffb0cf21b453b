import type { EmailPreferences, PreferenceTopic } from './graphql/EmailPreferences';

/** The order the choices are shown in. */
export const PREFERENCE_TOPICS: readonly PreferenceTopic[] = [
  'newChallenge',
  'updateChallenge',
  'completedChallenge',
  'marketing',
];

/**
 * What a choice not made yet (null) stands for, as the server applies it when it sends mail:
 * e-mail about your own challenges on, marketing off.
 */
export const PREFERENCE_DEFAULTS: Readonly<Record<PreferenceTopic, boolean>> = {
  newChallenge: true,
  updateChallenge: true,
  completedChallenge: true,
  marketing: false,
};

export type PreferenceChoices = Record<PreferenceTopic, boolean>;

/** The choices as they hold today: each made choice, else its default. */
export function effectivePreferences(preferences: EmailPreferences): PreferenceChoices {
  return Object.fromEntries(
    PREFERENCE_TOPICS.map((topic) => [topic, preferences[topic] ?? PREFERENCE_DEFAULTS[topic]]),
  ) as PreferenceChoices;
}

export const sameChoices = (a: PreferenceChoices, b: PreferenceChoices) =>
  PREFERENCE_TOPICS.every((topic) => a[topic] === b[topic]);
