import type { TFunction } from 'i18next';
import { formatAmount, formatEuroInput, MAX_INPUT_CENTS, parseEuroInput } from '../../lib/money';

/** What a typed euro amount comes to: integer cents, or why it cannot be sent. */
export interface AmountCheck {
  cents: number | null;
  error: string | null;
}

export interface AmountBounds {
  /** Cents. */
  min: number;
  /** Cents; the lower of the remaining monthly limit and what the wallet allows. */
  max: number;
  tooLow: (min: string) => string;
  tooHigh: (max: string) => string;
}

/**
 * Reads an amount typed in euros ("12,50" or "12.50") as integer cents and checks it against the
 * wallet's bounds, with messages in the UI language.
 */
export function checkAmount(
  text: string,
  t: TFunction,
  language: string | undefined,
  { min, max, tooLow, tooHigh }: AmountBounds,
): AmountCheck {
  if (text.trim() === '') return { cents: null, error: t('wallet.amount.required') };
  const cents = parseEuroInput(text);
  if (cents === null || cents > MAX_INPUT_CENTS) {
    return {
      cents: null,
      error: t('wallet.amount.invalid', { example: formatEuroInput(1250, language) }),
    };
  }
  if (cents <= 0 || cents < min) {
    return { cents, error: tooLow(formatAmount(Math.max(min, 1), language)) };
  }
  if (cents > max) return { cents, error: tooHigh(formatAmount(max, language)) };
  return { cents, error: null };
}
