import path from 'node:path';
import express, { type Express } from 'express';

/**
 * Serves the built SPA: hashed assets cached for a year, every other GET gets index.html. The
 * geofence does not apply here: the web app asks /api/location and shows its access-denied page.
 */
export function serveWeb(app: Express, webDistDir: string): void {
  const index = path.join(webDistDir, 'index.html');
  app.use(
    '/assets',
    express.static(path.join(webDistDir, 'assets'), { immutable: true, maxAge: '365d' }),
  );
  app.use(express.static(webDistDir, { index: false, maxAge: '1h' }));
  app.get(/^\/(?!graphql|api\/|healthz|readyz|metrics).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
