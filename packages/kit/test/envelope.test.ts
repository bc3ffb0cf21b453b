import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope, failStatus, okStatus } from '../src/envelope.ts';
import { AppError, ERROR_CATALOGUE, ERROR_IDENTIFIERS, isAppError } from '../src/errors.ts';
import { captureLogger } from './support.ts';

/** Every identifier of the product spec, section 8 (server identifiers, error page keys, location). */
const SPEC_IDENTIFIERS = [
  'generic_error',
  'not_found',
  'invalid_input',
  'invalid_user_input',
  'too_many_requests',
  'unauthorized',
  'authorized_user_not_found',
  'redundant_mutation',
  'redundant_report',
  'challenge_reward_too_low',
  'challenge_reward_too_high',
  'insufficient_funds',
  'invalid_expiration_date',
  'invalid_expiration_time',
  'error_creating_challenge_object',
  'owner_equals_challenged_user',
  'user_not_challengeable',
  'minimal_challenge_value_invalid',
  'invalid_challenged_email',
  'duplicate_challenged_email',
  'same_email',
  'challenge_not_found',
  'invalid_slug',
  'invalid_status',
  'status_unchanged',
  'status_failed_to_update',
  'status_updated_failed_with_wallet_issue',
  'invalid_challenge_owner',
  'invalid_visibility_input',
  'invalid_action',
  'invalid_status_change',
  'challenge_expired',
  'user_not_found',
  'private_profile',
  'banned_user',
  'invalid_phone_number',
  'no_unique_username',
  'invalid_credentials',
  'invalid_password',
  'user_login_failed',
  'unavailable_too_young',
  'account_deletion_requested',
  'wallet_contains_money',
  'user_contains_open_payouts',
  'expired_credentials',
  'invalid_file',
  'challenge_video_upload_failed',
  'upload_error',
  'payout_request_no_longer_open',
  'payout_request_amount_too_low',
  'payout_request_details_missing',
  'payout_request_failed',
  'limit_exceeded_this_month',
  'get_open_payout_amount_went_wrong',
  'get_open_payout_amount_user_not_logged_in',
  'wallet_not_found',
  'wallet_not_for_user',
  'invalid_origin_url',
  // Error page keys and the location guard.
  'access_denied',
  'access_denied_location',
  'ip_lookup_failed',
  'error_verifying_location',
  'page_not_found',
];

describe('error catalogue', () => {
  it.each(SPEC_IDENTIFIERS)('has %s with a non-empty message', (identifier) => {
    const catalogue: Record<string, string> = ERROR_CATALOGUE;
    expect(Object.hasOwn(catalogue, identifier)).toBe(true);
    expect(catalogue[identifier]?.trim()).not.toBe('');
  });

  it('lists every catalogue key in ERROR_IDENTIFIERS', () => {
    expect([...ERROR_IDENTIFIERS].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it('gives an AppError the catalogue message unless one is passed', () => {
    const error = new AppError('insufficient_funds');
    expect(error.message).toBe(ERROR_CATALOGUE.insufficient_funds);
    expect(isAppError(error)).toBe(true);
    expect(isAppError(new Error('x'))).toBe(false);
    expect(new AppError('invalid_input', 'reward: too low').message).toBe('reward: too low');
  });
});

describe('envelope', () => {
  it('wraps data in an ok status', async () => {
    const { logger } = captureLogger();
    const result = await envelope(logger, async () => ({ challenge: { id: 'c1' }, total: 3 }));
    expect(result).toEqual({
      status: { success: true, identifier: 'ok', message: 'OK' },
      challenge: { id: 'c1' },
      total: 3,
    });
    expect(okStatus('Saved.')).toEqual({ success: true, identifier: 'ok', message: 'Saved.' });
  });

  it('maps an AppError to its identifier and catalogue message, without data', async () => {
    const log = captureLogger();
    const result = await envelope<{ wallet: object }>(log.logger, async () => {
      throw new AppError('insufficient_funds');
    });
    expect(result).toEqual({
      status: {
        success: false,
        identifier: 'insufficient_funds',
        message: ERROR_CATALOGUE.insufficient_funds,
      },
    });
    expect(log.entries()).toEqual([]); // an expected failure is not an error in the logs
  });

  it("keeps an AppError's own message", async () => {
    const { logger } = captureLogger();
    const result = await envelope<{ challenge: object }>(logger, async () => {
      throw new AppError('not_found', 'No such challenge.');
    });
    expect(result.status).toEqual(failStatus('not_found', 'No such challenge.'));
  });

  it('maps a ZodError to invalid_input naming the field path', async () => {
    const { logger } = captureLogger();
    const input = z.object({ challenge: z.object({ reward: z.number().int().positive() }) });
    const result = await envelope(logger, async () => input.parse({ challenge: { reward: -5 } }));
    expect(result.status.success).toBe(false);
    expect(result.status.identifier).toBe('invalid_input');
    expect(result.status.message).toMatch(/^challenge\.reward: \S/);
  });

  it('maps a top-level ZodError without a path to invalid_input with the issue message', async () => {
    const { logger } = captureLogger();
    const result = await envelope(logger, async () => ({ n: z.number().parse('x') }));
    expect(result.status.identifier).toBe('invalid_input');
    expect(result.status.message).not.toMatch(/^: /);
    expect(result.status.message.length).toBeGreaterThan(0);
  });

  it('maps an unknown error to generic_error without leaking it, and logs it', async () => {
    const log = captureLogger();
    const result = await envelope(log.logger, async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
    });
    expect(result).toEqual({
      status: { success: false, identifier: 'generic_error', message: 'Something went wrong.' },
    });
    expect(JSON.stringify(result)).not.toMatch(/hunter2|ECONNREFUSED|\bat /);
    const errors = log.entries().filter((entry) => entry.level === 50);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('password=hunter2');
  });

  it('maps a thrown non-Error to generic_error too, and logs it', async () => {
    const log = captureLogger();
    const result = await envelope<{ n: number }>(log.logger, async () => {
      throw 'plain string from a library';
    });
    expect(result.status).toEqual({
      success: false,
      identifier: 'generic_error',
      message: 'Something went wrong.',
    });
    expect(log.text()).toContain('plain string from a library');
  });
});
