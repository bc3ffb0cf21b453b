import { AppError } from '@challenge/kit';

/** Lowercase letters and digits in groups joined by single dashes: `run-5-km-in-20-minutes`. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 120;

export function isValidSlug(value: string): boolean {
  return value.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(value);
}

/** The slug as given, or AppError('invalid_slug'); no normalisation, so one challenge has one URL. */
export function parseSlug(value: string): string {
  if (!isValidSlug(value)) throw new AppError('invalid_slug');
  return value;
}
