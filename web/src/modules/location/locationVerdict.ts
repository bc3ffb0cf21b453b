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

/** The gateway's verdict on the page's own request, written into `<html>` (gateway/src/web.ts). */
export const GATEWAY_VERDICT_ATTRIBUTE = 'data-location';

/**
 * An allowed verdict holds for the browser session (spec: checked once per session). The gateway
 * gives its verdict with the page (it checks the address of the page's request), and serves
 * prerendered pages only to allowed visitors: the build's prerender (no window) counts as allowed.
 */
export function hasAllowedLocation(): boolean {
  if (typeof window === 'undefined') return true;
  if (document.documentElement.getAttribute(GATEWAY_VERDICT_ATTRIBUTE) === 'allowed') return true;
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
