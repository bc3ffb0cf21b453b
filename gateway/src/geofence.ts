import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { unmapped } from './client-address.ts';
import { sendError } from './respond.ts';

/** The part of geoip-country (CommonJS, no types) used here; its database loads at start. */
const geoip = createRequire(import.meta.url)('geoip-country') as {
  lookup(ip: string): { country: string; continent: string } | null;
};

/**
 * Access is limited to visitors in Europe (continent EU). The country comes from the IP database
 * that ships inside `geoip-country`: no third-party call per request.
 */
export interface GeofenceOptions {
  /** False lets every address pass (staff tooling behind a VPN). */
  enabled: boolean;
  /** Loopback and private addresses pass (development and test, or GEOFENCE_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

export interface LocationVerdict {
  allowed: boolean;
  country: string | null;
  continent: string | null;
  identifier: 'access_denied_location' | 'ip_lookup_failed' | null;
}

const PRIVATE_RANGES = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4');
}
PRIVATE_RANGES.addAddress('::1', 'ipv6');
PRIVATE_RANGES.addSubnet('fc00::', 7, 'ipv6');

export function isPrivateAddress(ip: string | undefined): boolean {
  if (!ip) return false;
  const address = unmapped(ip);
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function refused(
  identifier: NonNullable<LocationVerdict['identifier']>,
  country: string | null = null,
  continent: string | null = null,
): LocationVerdict {
  return { allowed: false, country, continent, identifier };
}

export function locate(ip: string | undefined, options: GeofenceOptions): LocationVerdict {
  const address = ip ? unmapped(ip) : '';
  const found = isIP(address) ? geoip.lookup(address) : null;
  const country = found?.country ?? null;
  const continent = found?.continent ?? null;
  if (!options.enabled) return { allowed: true, country, continent, identifier: null };
  if (isPrivateAddress(address)) {
    return options.allowPrivate
      ? { allowed: true, country: null, continent: null, identifier: null }
      : refused('ip_lookup_failed');
  }
  if (!country || !continent) return refused('ip_lookup_failed');
  if (continent !== 'EU') return refused('access_denied_location', country, continent);
  return { allowed: true, country, continent, identifier: null };
}

/** Refuses the request outside Europe: 403 with the identifier as a GraphQL error. */
export function geofence(options: GeofenceOptions): RequestHandler {
  return (req, res, next) => {
    const verdict = locate(req.ip, options);
    if (verdict.identifier) sendError(res, 403, verdict.identifier, 'FORBIDDEN');
    else next();
  };
}

/** GET /api/location: the verdict the web app's route guard shows (spec section 4, step 2). */
export function locationEndpoint(options: GeofenceOptions): RequestHandler {
  return (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(locate(req.ip, options));
  };
}
