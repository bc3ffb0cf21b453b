import { appConfig } from '../../app/config';

/** Why a visitor is turned away; each is an error-page key (spec section 8, "Location"). */
export type LocationRefusal =
  'access_denied_location' | 'ip_lookup_failed' | 'error_verifying_location';

export type LocationOutcome = { allowed: true } | { allowed: false; identifier: LocationRefusal };

/** Asks where the visitor is; the default asks the gateway, tests pass their own. */
export type LocationCheck = () => Promise<LocationOutcome>;

export const ALLOWED_STORAGE_KEY = 'location-allowed';

/**
 * Reads the gateway's verdict (`GET /api/location` answers `{ allowed, country, continent,
 * identifier }`). A verdict that cannot be read counts as a failed lookup; an unreachable gateway
 * as a location that could not be verified.
 */
export async function fetchLocationVerdict(): Promise<LocationOutcome> {
  let response: Response;
  try {
    response = await fetch(appConfig.locationPath, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
  } catch {
    return { allowed: false, identifier: 'error_verifying_location' };
  }
  if (!response.ok) return { allowed: false, identifier: 'ip_lookup_failed' };
  try {
    return interpretLocationVerdict(await response.json());
  } catch {
    return { allowed: false, identifier: 'ip_lookup_failed' };
  }
}

export function interpretLocationVerdict(body: unknown): LocationOutcome {
  if (typeof body !== 'object' || body === null || !('allowed' in body)) {
    return { allowed: false, identifier: 'ip_lookup_failed' };
  }
  if (body.allowed === true) return { allowed: true };
  const identifier = 'identifier' in body ? body.identifier : null;
  return {
    allowed: false,
    identifier: identifier === 'ip_lookup_failed' ? 'ip_lookup_failed' : 'access_denied_location',
  };
}

/** An allowed verdict holds for the browser session (spec: checked once per session). */
export function hasAllowedLocation(): boolean {
  try {
    return window.sessionStorage.getItem(ALLOWED_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Remembers an allowed verdict; a refusal is never remembered, so "Try again" asks anew. */
export function rememberAllowedLocation(): void {
  try {
    window.sessionStorage.setItem(ALLOWED_STORAGE_KEY, 'true');
  } catch {
    // Without storage the check simply runs again on the next page load.
  }
}

export const LOCATION_STORAGE_KEY = ALLOWED_STORAGE_KEY;
