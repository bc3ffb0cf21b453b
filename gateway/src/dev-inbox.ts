import { Router } from 'express';
import { isPrivateAddress } from './geofence.ts';
import { sendError } from './respond.ts';

/** The local SMTP catcher's HTTP API (scripts/smtp-catcher.mjs, started by `npm run stack`). */
export const SMTP_CATCHER_URL = 'http://127.0.0.1:38025';
export const DEV_INBOX_PATH = '/api/dev/inbox';

/** What the web's development inbox shows of one message: no HTML, no attachments. */
interface CaughtMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  date: string;
}

const MAX_MESSAGES = 100;

/**
 * Development only (mounted when NODE_ENV is not production): `GET /api/dev/inbox/messages?to=`
 * lists the newest mail the SMTP catcher received, so that someone running `npm start` can log in
 * with a magic link from the web app's /dev/inbox page without a real mail server. Mail holds
 * log-in links, so it answers loopback and private addresses only, never the internet.
 */
export function devInbox(catcherUrl = SMTP_CATCHER_URL): Router {
  const router = Router();
  router.use((req, res, next) => {
    if (isPrivateAddress(req.ip)) return next();
    sendError(res, 403, 'access_denied', 'FORBIDDEN');
  });
  router.get('/messages', async (req, res) => {
    const to = typeof req.query.to === 'string' ? req.query.to.trim() : '';
    const url = new URL('/api/messages', catcherUrl);
    if (to) url.searchParams.set('to', to);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`SMTP catcher answered ${response.status}`);
      const messages = (await response.json()) as CaughtMessage[];
      res.setHeader('Cache-Control', 'no-store');
      res.json(
        messages.slice(0, MAX_MESSAGES).map(({ id, from, to, subject, text, date }) => ({
          id,
          from,
          to,
          subject,
          text,
          date,
        })),
      );
    } catch {
      res.status(502).json({ error: 'smtp_catcher_unavailable' });
    }
  });
  return router;
}
