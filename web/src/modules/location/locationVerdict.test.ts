import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchLocationVerdict, interpretLocationVerdict } from './locationVerdict';

describe('the gateway location verdict', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads allowed and refused verdicts with their identifier', () => {
    expect(
      interpretLocationVerdict({
        allowed: true,
        country: 'NL',
        continent: 'EU',
        identifier: null,
      }),
    ).toEqual({ allowed: true });
    expect(
      interpretLocationVerdict({
        allowed: false,
        country: 'US',
        continent: 'NA',
        identifier: 'access_denied_location',
      }),
    ).toEqual({ allowed: false, identifier: 'access_denied_location' });
    expect(interpretLocationVerdict({ allowed: false, identifier: 'ip_lookup_failed' })).toEqual({
      allowed: false,
      identifier: 'ip_lookup_failed',
    });
  });

  it('treats an unreadable answer as a failed lookup', () => {
    expect(interpretLocationVerdict('<html>')).toEqual({
      allowed: false,
      identifier: 'ip_lookup_failed',
    });
    expect(interpretLocationVerdict({ country: 'NL' })).toEqual({
      allowed: false,
      identifier: 'ip_lookup_failed',
    });
  });

  it('asks GET /api/location on the same origin', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ allowed: true, country: 'NL', continent: 'EU' }), {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchLocationVerdict()).resolves.toEqual({ allowed: true });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/location',
      expect.objectContaining({ credentials: 'same-origin' }),
    );
  });

  it('refuses on a non-OK answer and when the gateway cannot be reached', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('oops', { status: 502 })));
    await expect(fetchLocationVerdict()).resolves.toEqual({
      allowed: false,
      identifier: 'ip_lookup_failed',
    });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetchLocationVerdict()).resolves.toEqual({
      allowed: false,
      identifier: 'error_verifying_location',
    });
  });
});
