import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';

/** Written by the web build next to index.html: the SPA's route patterns (`:name` is a segment). */
export const SPA_ROUTES_FILE = 'spa-routes.json';

/**
 * A matcher for the SPA's own paths, from the patterns the web build lists; null when the build
 * has no (readable) list, and then every path counts as the SPA's, as before.
 */
export function spaRouteMatcher(patterns: unknown): ((pathname: string) => boolean) | null {
  if (!Array.isArray(patterns) || !patterns.every((item) => typeof item === 'string')) return null;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const expressions = (patterns as string[]).map((pattern) => {
    const segments = pattern
      .split('/')
      .filter(Boolean)
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : escape(segment)));
    return new RegExp(`^/${segments.join('/')}/?$`, 'i');
  });
  return (pathname) => expressions.some((expression) => expression.test(pathname));
}

function readSpaRoutes(webDistDir: string): ((pathname: string) => boolean) | null {
  const file = path.join(webDistDir, SPA_ROUTES_FILE);
  if (!existsSync(file)) return null;
  try {
    return spaRouteMatcher(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

/**
 * Serves the built SPA: hashed assets cached for a year, the build manifest never cached, and
 * index.html for every other GET: with 200 for the SPA's own routes, with 404 for any other path
 * (the SPA still renders its not-found page from it). The geofence does not apply here: the web
 * app asks /api/location and shows its access-denied page.
 */
export function serveWeb(app: Express, webDistDir: string): void {
  const index = path.join(webDistDir, 'index.html');
  const isSpaRoute = readSpaRoutes(webDistDir);
  app.use(
    '/assets',
    express.static(path.join(webDistDir, 'assets'), { immutable: true, maxAge: '365d' }),
  );
  // builds/latest.json tells open tabs that a new version is out: always fresh.
  app.use(
    '/builds',
    express.static(path.join(webDistDir, 'builds'), {
      setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
    }),
  );
  app.use(express.static(webDistDir, { index: false, maxAge: '1h' }));
  app.get(/^\/(?!graphql|api\/|healthz|readyz|metrics).*/, (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    if (isSpaRoute && !isSpaRoute(req.path)) res.status(404);
    res.sendFile(index);
  });
}
