/** Local SMTP catcher: accepts every message (any or no auth, no TLS, 25 MB), keeps it in memory and .local/smtp/messages.jsonl, serves an inbox page and a JSON API. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { localDir, smtp as cfg } from './lib/stack-config.mjs';

const MAX_SIZE = 25 * 1024 * 1024;
const MAX_KEPT = 10_000;
const store = path.join(localDir, 'smtp', 'messages.jsonl');

/** Oldest first; the API and the page show them newest first. */
let messages = load();

function load() {
  fs.mkdirSync(path.dirname(store), { recursive: true });
  if (!fs.existsSync(store)) return [];
  const all = fs
    .readFileSync(store, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line)] : [];
      } catch {
        return [];
      }
    });
  const kept = all.slice(-MAX_KEPT);
  if (kept.length < all.length)
    fs.writeFileSync(store, kept.map((m) => `${JSON.stringify(m)}\n`).join(''));
  return kept;
}

function keep(message) {
  messages.push(message);
  if (messages.length > MAX_KEPT) messages = messages.slice(-MAX_KEPT);
  fs.appendFileSync(store, `${JSON.stringify(message)}\n`);
}

const addressList = (list) =>
  (list ?? []).flatMap((a) => (a.group ? addressList(a.group) : [a.address ?? ''])).filter(Boolean);

async function toMessage(raw, session) {
  const parsed = await PostalMime.parse(raw);
  return {
    id: crypto.randomUUID(),
    from: parsed.from?.address || session.envelope.mailFrom?.address || '',
    to: [...new Set(session.envelope.rcptTo.map((r) => r.address))],
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: parsed.html ?? '',
    date: new Date().toISOString(),
    headerTo: addressList(parsed.to),
    cc: addressList(parsed.cc),
    messageId: parsed.messageId ?? null,
    attachments: (parsed.attachments ?? []).map((a) => ({
      filename: a.filename,
      mimeType: a.mimeType,
      size: a.content?.byteLength ?? 0,
    })),
  };
}

const smtpServer = new SMTPServer({
  secure: false,
  hideSTARTTLS: true,
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  allowInsecureAuth: true,
  size: MAX_SIZE,
  rejectOversized: true,
  logger: false,
  banner: 'challenge-platform smtp catcher',
  onAuth: (auth, _session, callback) => callback(null, { user: auth.username || 'anonymous' }),
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => stream.sizeExceeded || chunks.push(chunk));
    stream.on('error', callback);
    stream.on('end', async () => {
      if (stream.sizeExceeded)
        return callback(Object.assign(new Error('message exceeds 25 MB'), { responseCode: 552 }));
      try {
        const message = await toMessage(Buffer.concat(chunks), session);
        keep(message);
        console.log(
          `${message.date} received ${message.id} from ${message.from} to ${message.to.join(', ')}: ${message.subject}`,
        );
        callback(null, `queued as ${message.id}`);
      } catch (err) {
        console.error(`could not parse a message: ${err.message}`);
        callback(Object.assign(new Error('could not parse the message'), { responseCode: 554 }));
      }
    });
  },
});
smtpServer.on('error', (err) => console.error(`smtp error: ${err.message}`));

// ---- HTTP: JSON API and a plain inbox page ----

const escapeHtml = (value) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

const newestFirst = (to) => {
  const wanted = to?.toLowerCase();
  return messages.filter((m) => !wanted || m.to.some((a) => a.toLowerCase() === wanted)).reverse();
};

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; form-action 'self'; base-uri 'none'";
const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5rem;color:#222}table{border-collapse:collapse;width:100%}
td,th{padding:.35rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}th{background:#f4f4f4}
a{color:#0645ad}pre{white-space:pre-wrap;background:#f8f8f8;padding:.8rem;border:1px solid #ddd}
iframe{width:100%;height:32rem;border:1px solid #ddd}.muted{color:#777}form{display:inline}`;

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function inboxPage(to) {
  const list = newestFirst(to);
  const rows = list
    .map(
      (
        m,
      ) => `<tr><td class="muted">${escapeHtml(new Date(m.date).toLocaleString('en-GB'))}</td><td>${escapeHtml(m.to.join(', '))}</td>
<td>${escapeHtml(m.from)}</td><td><a href="/messages/${encodeURIComponent(m.id)}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('\n');
  return page(
    'Inbox',
    `<h1>Inbox <span class="muted">(${list.length})</span></h1>
<p><form method="get" action="/"><input name="to" placeholder="filter by recipient" value="${escapeHtml(to ?? '')}"> <button>Filter</button></form>
<a href="/">all</a> · <a href="${to ? `/?to=${encodeURIComponent(to)}` : '/'}">refresh</a>
<form method="post" action="/clear"><button>Delete all</button></form></p>
<table><tr><th>Received</th><th>To</th><th>From</th><th>Subject</th></tr>${rows || '<tr><td colspan="4" class="muted">No messages yet.</td></tr>'}</table>`,
  );
}

function messagePage(m) {
  const attachments = m.attachments?.length
    ? `<p>Attachments: ${m.attachments.map((a) => `${escapeHtml(a.filename ?? '(unnamed)')} (${escapeHtml(a.mimeType)}, ${a.size} bytes)`).join(', ')}</p>`
    : '';
  const html = m.html
    ? `<h2>HTML</h2><iframe sandbox="" referrerpolicy="no-referrer" srcdoc="${escapeHtml(m.html)}"></iframe>`
    : '';
  const text = m.text ? `<h2>Text</h2><pre>${escapeHtml(m.text)}</pre>` : '';
  return page(
    m.subject || 'Message',
    `<p><a href="/">&larr; Inbox</a> · <a href="/api/messages/${encodeURIComponent(m.id)}">JSON</a></p>
<h1>${escapeHtml(m.subject || '(no subject)')}</h1>
<table><tr><th>From</th><td>${escapeHtml(m.from)}</td></tr><tr><th>To</th><td>${escapeHtml(m.to.join(', '))}</td></tr>
<tr><th>Received</th><td>${escapeHtml(m.date)}</td></tr></table>${attachments}${html}${text || (html ? '' : '<p class="muted">(empty message)</p>')}`,
  );
}

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(body);
}
const json = (res, status, value) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
const html = (res, status, body) =>
  send(res, status, 'text/html; charset=utf-8', body, { 'content-security-policy': CSP });

function clearAll() {
  const deleted = messages.length;
  messages = [];
  fs.writeFileSync(store, '');
  return deleted;
}

const httpServer = http.createServer((req, res) => {
  const url = new URL(req.url, `http://${cfg.host}`);
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const byId = (id) => messages.find((m) => m.id === id);
  try {
    switch (`${req.method} ${url.pathname.replace(/\/+$/, '') || '/'}`) {
      case 'GET /healthz':
        return json(res, 200, { ok: true, service: 'smtp-catcher', messages: messages.length });
      case 'GET /api/messages':
        return json(res, 200, newestFirst(url.searchParams.get('to')));
      case 'DELETE /api/messages':
        return json(res, 200, { deleted: clearAll() });
      case 'GET /':
        return html(res, 200, inboxPage(url.searchParams.get('to')));
      case 'POST /clear':
        clearAll();
        return send(res, 303, 'text/plain', 'cleared', { location: '/' });
    }
    if (
      req.method === 'GET' &&
      parts.length === 3 &&
      parts[0] === 'api' &&
      parts[1] === 'messages'
    ) {
      const m = byId(parts[2]);
      return m ? json(res, 200, m) : json(res, 404, { error: 'not_found' });
    }
    if (req.method === 'GET' && parts.length === 2 && parts[0] === 'messages') {
      const m = byId(parts[1]);
      return m
        ? html(res, 200, messagePage(m))
        : html(res, 404, page('Not found', '<p>No such message. <a href="/">Inbox</a></p>'));
    }
    return url.pathname.startsWith('/api/')
      ? json(res, 404, { error: 'not_found' })
      : html(res, 404, page('Not found', '<p>Not found. <a href="/">Inbox</a></p>'));
  } catch (err) {
    console.error(`http error: ${err.stack}`);
    return json(res, 500, { error: 'internal' });
  }
});

smtpServer.listen(cfg.port, cfg.host, () =>
  console.log(
    `smtp catcher: SMTP on ${cfg.host}:${cfg.port}, ${messages.length} stored message(s)`,
  ),
);
httpServer.listen(cfg.httpPort, cfg.host, () =>
  console.log(`smtp catcher: inbox on http://${cfg.host}:${cfg.httpPort}/`),
);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    httpServer.close();
    smtpServer.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
