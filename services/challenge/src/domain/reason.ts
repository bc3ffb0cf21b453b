import { AppError } from '@challenge/kit';

export const REASON_MAX = 800;

/**
 * A decline or reject reason: required ("Please provide a reason") and at most 800 characters,
 * counted as Unicode code points (what a person calls characters), not UTF-16 units.
 */
export function parseReason(value: string | null | undefined): string {
  const reason = value?.trim() ?? '';
  if (!reason) throw new AppError('invalid_input', 'Please provide a reason');
  if ([...reason].length > REASON_MAX) {
    throw new AppError('invalid_input', `Exceeds character limit of ${REASON_MAX}`);
  }
  return reason;
}
