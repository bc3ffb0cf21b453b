/**
 * Local payment sandbox that behaves like Mollie: the part of the v2 API that @mollie/api-client
 * uses for payments, refunds and chargebacks (HTTP and HTTPS), a checkout page, webhooks retried
 * like Mollie's, and a /sandbox control API for tests. Payments live in memory and in
 * .local/payment-sandbox/payments.jsonl (one snapshot per change; the last one wins).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { paymentSandbox as cfg } from './lib/stack-config.mjs';

const MAX_KEPT = 10_000;
const MAX_CALLS_KEPT = 50;
const MAX_BODY = 1024 * 1024;
const EXPIRES_AFTER_MS = 15 * 60_000;
// Mollie retries for hours; here a few quick attempts so tests and developers see them.
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
const WEBHOOK_TIMEOUT_MS = 10_000;
const IDEMPOTENCY_TTL_MS = 60 * 60_000;
const store = path.join(cfg.dataDir, 'payments.jsonl');
// Optional overrides for running it in a container (docker-compose.yml); unset, the stack's own
// settings apply: the listen address, the base of checkout and dashboard links (what a browser
// opens), and the base of the HTTPS API's links (what the API client reaches).
const listenHost = process.env.PAYMENT_SANDBOX_HOST || cfg.host;
const publicBase = (
  process.env.PAYMENT_SANDBOX_PUBLIC_URL || `http://${cfg.host}:${cfg.port}`
).replace(/\/+$/, '');
const tlsApiBase = process.env.PAYMENT_SANDBOX_API_URL || `https://${cfg.host}:${cfg.tlsPort}/v2/`;
const DOCS = 'https://docs.mollie.com/reference';

// ---- store ----

/** Payments by id, oldest first (a Map keeps first-insertion order). */
const payments = load();

function load() {
  fs.mkdirSync(cfg.dataDir, { recursive: true });
  if (!fs.existsSync(store)) return new Map();
  const lines = fs
    .readFileSync(store, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line)] : [];
      } catch {
        return [];
      }
    });
  const byId = new Map();
  for (const p of lines) byId.set(p.id, p);
  const kept = new Map([...byId].slice(-MAX_KEPT));
  // Compact: one line per payment.
  if (lines.length > kept.size)
    fs.writeFileSync(store, [...kept.values()].map((p) => `${JSON.stringify(p)}\n`).join(''));
  return kept;
}

function save(p) {
  if (!payments.has(p.id)) {
    payments.set(p.id, p);
    if (payments.size > MAX_KEPT) payments.delete(payments.keys().next().value);
  }
  fs.appendFileSync(store, `${JSON.stringify(p)}\n`);
}

// ---- money, ids, times ----

const AMOUNT_VALUE = /^\d{1,10}\.\d{2}$/;
const cents = (value) => Number(value.replace('.', ''));
function eur(c) {
  const abs = Math.abs(c);
  return {
    currency: 'EUR',
    value: `${c < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`,
  };
}
const display = (c) => `€${eur(c).value}`;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newId = (prefix) =>
  prefix + Array.from({ length: 10 }, () => BASE62[crypto.randomInt(BASE62.length)]).join('');
/** Mollie's timestamp format: 2018-03-12T10:56:15+00:00. */
const timestamp = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

const sum = (list) => list.reduce((total, item) => total + item.cents, 0);
const refunded = (p) => sum(p.refunds.filter((r) => r.status !== 'failed'));
const chargedBack = (p) => sum(p.chargebacks);
const remaining = (p) => Math.max(0, p.cents - refunded(p) - chargedBack(p));

// ---- statuses ----

const FINAL = new Set(['paid', 'failed', 'canceled', 'expired']);
/** Which status may follow which; final statuses never change (refunds and chargebacks aside). */
const NEXT = {
  open: ['pending', 'authorized', 'paid', 'failed', 'canceled', 'expired'],
  pending: ['paid', 'failed', 'canceled', 'expired'],
  authorized: ['paid', 'canceled', 'expired'],
};
/** What the control API may set. */
const SETTABLE = NEXT.open;
const TIMESTAMP = {
  authorized: 'authorizedAt',
  paid: 'paidAt',
  failed: 'failedAt',
  canceled: 'canceledAt',
  expired: 'expiredAt',
};

// ---- Mollie's JSON ----

const link = (href, type = 'application/hal+json') => ({ href, type });
const docs = (page) => link(`${DOCS}/${page}`, 'text/html');

function paymentJson(p, apiBase) {
  const self = `${apiBase}payments/${p.id}`;
  const paid = p.status === 'paid';
  const final = FINAL.has(p.status);
  return {
    resource: 'payment',
    id: p.id,
    mode: 'test',
    createdAt: p.createdAt,
    amount: eur(p.cents),
    description: p.description,
    method: p.method,
    metadata: p.metadata,
    status: p.status,
    ...(final ? {} : { isCancelable: false, expiresAt: p.expiresAt }),
    ...Object.fromEntries(
      Object.values(TIMESTAMP)
        .filter((field) => p[field])
        .map((field) => [field, p[field]]),
    ),
    ...(paid && { amountRefunded: eur(refunded(p)), amountRemaining: eur(remaining(p)) }),
    ...(chargedBack(p) > 0 && { amountChargedBack: eur(chargedBack(p)) }),
    ...(p.locale && { locale: p.locale }),
    details: paid ? CARD : p.status === 'failed' ? { failureReason: 'card_declined' } : null,
    profileId: 'pfl_sandbox000',
    sequenceType: 'oneoff',
    redirectUrl: p.redirectUrl,
    ...(p.cancelUrl && { cancelUrl: p.cancelUrl }),
    ...(p.webhookUrl && { webhookUrl: p.webhookUrl }),
    _links: {
      self: link(self),
      ...(p.status === 'open' && { checkout: link(`${publicBase}/checkout/${p.id}`, 'text/html') }),
      dashboard: link(`${publicBase}/dashboard/payments/${p.id}`, 'text/html'),
      ...(p.refunds.length > 0 && { refunds: link(`${self}/refunds`) }),
      ...(p.chargebacks.length > 0 && { chargebacks: link(`${self}/chargebacks`) }),
      documentation: docs('get-payment'),
    },
  };
}

/** A test card, as Mollie's test mode reports it. */
const CARD = {
  cardNumber: '6787',
  cardHolder: 'T. TEST',
  cardAudience: 'consumer',
  cardLabel: 'Mastercard',
  cardCountryCode: 'NL',
  cardSecurity: 'normal',
  feeRegion: 'other',
};

function refundJson(p, r, apiBase) {
  const payment = `${apiBase}payments/${p.id}`;
  return {
    resource: 'refund',
    id: r.id,
    mode: 'test',
    amount: eur(r.cents),
    settlementAmount: eur(-r.cents),
    description: r.description,
    metadata: r.metadata,
    status: r.status,
    paymentId: p.id,
    createdAt: r.createdAt,
    _links: {
      self: link(`${payment}/refunds/${r.id}`),
      payment: link(payment),
      documentation: docs('get-refund'),
    },
  };
}

function chargebackJson(p, c, apiBase) {
  const payment = `${apiBase}payments/${p.id}`;
  return {
    resource: 'chargeback',
    id: c.id,
    amount: eur(c.cents),
    settlementAmount: eur(-c.cents),
    createdAt: c.createdAt,
    reason: c.reason,
    reversedAt: null,
    paymentId: p.id,
    _links: {
      self: link(`${payment}/chargebacks/${c.id}`),
      payment: link(payment),
      documentation: docs('get-chargeback'),
    },
  };
}

/**
 * A HAL list as Mollie pages it: `next` (when given) is the link to the page after this one;
 * the payment's own lists always fit on one page.
 */
function listJson(name, items, self, next = null) {
  return {
    count: items.length,
    _embedded: { [name]: items },
    _links: {
      self: link(self),
      previous: null,
      next: next ? link(next) : null,
      documentation: docs(`list-${name}`),
    },
  };
}

/**
 * Every refund or chargeback of every payment, newest first, paged as Mollie's list endpoints
 * (`GET /v2/refunds`, `GET /v2/chargebacks`): from an id on (`from`), at most `limit` (default
 * 50, at most 250), with a `next` link while more are left. What a shop reads to find money taken
 * back whose webhook it never got.
 */
function listAcross(name, query, apiBase) {
  const toJson = name === 'refunds' ? refundJson : chargebackJson;
  const all = [...payments.values()]
    .flatMap((p) => p[name].map((item) => ({ p, item })))
    .sort(
      (a, b) =>
        b.item.createdAt.localeCompare(a.item.createdAt) || b.item.id.localeCompare(a.item.id),
    );
  const from = query.get('from');
  const start = from ? all.findIndex(({ item }) => item.id === from) : 0;
  const limit = Math.min(250, Math.max(1, Number(query.get('limit')) || 50));
  const pageItems = start < 0 ? [] : all.slice(start, start + limit);
  const after = start < 0 ? undefined : all[start + limit];
  const next = after ? `${apiBase}${name}?from=${after.item.id}&limit=${limit}` : null;
  return listJson(
    name,
    pageItems.map(({ p, item }) => toJson(p, item, apiBase)),
    `${apiBase}${name}`,
    next,
  );
}

// ---- errors ----

const TITLES = {
  400: 'Bad Request',
  401: 'Unauthorized Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

class MollieError extends Error {
  constructor(status, detail, field) {
    super(detail);
    this.status = status;
    this.field = field;
  }
}

function errorJson(err) {
  const status = err instanceof MollieError ? err.status : 500;
  return {
    status,
    title: TITLES[status],
    detail: err instanceof MollieError ? err.message : 'An internal error occurred',
    ...(err.field && { field: err.field }),
    _links: { documentation: docs('handling-errors') },
  };
}

// ---- validation ----

function amountCents(amount, field = 'amount') {
  if (typeof amount !== 'object' || amount === null)
    throw new MollieError(422, 'The amount is required: an object with currency and value', field);
  if (amount.currency !== 'EUR')
    throw new MollieError(422, 'The currency is not supported (the sandbox takes EUR)', field);
  if (typeof amount.value !== 'string' || !AMOUNT_VALUE.test(amount.value))
    throw new MollieError(
      422,
      'The amount contains an invalid value: a string with two decimals, such as "10.00"',
      `${field}.value`,
    );
  const c = cents(amount.value);
  if (c < 1) throw new MollieError(422, 'The amount is lower than the minimum of €0.01', field);
  return c;
}

function checkUrl(value, field, required) {
  if (value === undefined || value === null || value === '') {
    if (required) throw new MollieError(422, `The ${field} is required`, field);
    return null;
  }
  let parsed;
  try {
    parsed = new URL(value);
  } catch {
    throw new MollieError(422, `The ${field} is invalid`, field);
  }
  if (!['http:', 'https:'].includes(parsed.protocol))
    throw new MollieError(422, `The ${field} must be an http or https URL`, field);
  return value;
}

function text(value, field, { required = false, max = 255 } = {}) {
  if (value === undefined || value === null) {
    if (required) throw new MollieError(422, `The ${field} is required`, field);
    return '';
  }
  if (typeof value !== 'string' || (required && !value.trim()) || value.length > max)
    throw new MollieError(422, `The ${field} is invalid (a string of at most ${max})`, field);
  return value;
}

function metadata(value) {
  // Mollie keeps about 1 kB of metadata per resource.
  if (value !== undefined && JSON.stringify(value).length > 1024)
    throw new MollieError(422, 'The metadata is too large (at most 1024 bytes)', 'metadata');
  return value ?? null;
}

// ---- state changes and webhooks ----

/** Sets a new status and calls the webhook; resolves after the first delivery attempt. */
function setStatus(p, status) {
  if (!(NEXT[p.status] ?? []).includes(status))
    throw new MollieError(422, `The payment is ${p.status} and cannot become ${status}`, 'status');
  p.status = status;
  if (TIMESTAMP[status]) p[TIMESTAMP[status]] = timestamp();
  if (status === 'paid') p.method ??= 'creditcard';
  save(p);
  console.log(`${timestamp()} ${p.id} ${status}`);
  return notify(p, `status:${status}`);
}

function addRefund(p, body) {
  if (p.status !== 'paid')
    throw new MollieError(422, `The payment is ${p.status}; only paid payments can be refunded`);
  const c = body.amount === undefined ? remaining(p) : amountCents(body.amount);
  if (c < 1 || c > remaining(p))
    throw new MollieError(
      422,
      `The amount is higher than the amount that remains refundable (${display(remaining(p))})`,
      'amount',
    );
  const refund = {
    id: newId('re_'),
    cents: c,
    // Mollie queues refunds and settles them later; the sandbox settles them at once.
    status: 'refunded',
    description: text(body.description, 'description'),
    metadata: metadata(body.metadata),
    createdAt: timestamp(),
  };
  p.refunds.push(refund);
  save(p);
  console.log(`${timestamp()} ${p.id} refund ${refund.id} ${display(c)}`);
  return { refund, delivered: notify(p, `refund:${refund.id}`) };
}

function addChargeback(p, body) {
  if (p.status !== 'paid')
    throw new MollieError(
      422,
      `The payment is ${p.status}; only paid payments can be charged back`,
    );
  const open = p.cents - chargedBack(p);
  const c = body.amount === undefined ? open : amountCents(body.amount);
  if (c < 1 || c > open)
    throw new MollieError(
      422,
      `The amount is higher than the amount not yet charged back (${display(open)})`,
      'amount',
    );
  const chargeback = {
    id: newId('chb_'),
    cents: c,
    reason: body.reason ?? null,
    createdAt: timestamp(),
  };
  p.chargebacks.push(chargeback);
  save(p);
  console.log(`${timestamp()} ${p.id} chargeback ${chargeback.id} ${display(c)}`);
  return { chargeback, delivered: notify(p, `chargeback:${chargeback.id}`) };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One POST to the webhook, as Mollie sends it; recorded on the payment. True on a 2xx answer. */
async function deliver(p, event, attempt) {
  const started = Date.now();
  const call = { event, attempt, at: timestamp(started), url: p.webhookUrl, status: null };
  try {
    const res = await fetch(p.webhookUrl, {
      method: 'POST',
      headers: {
        'user-agent': 'Mollie HTTP client/1.0 (payment-sandbox)',
        'content-type': 'application/x-www-form-urlencoded',
        accept: '*/*',
      },
      body: new URLSearchParams({ id: p.id }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    call.status = res.status;
    await res.arrayBuffer().catch(() => {});
  } catch (err) {
    call.error = err.name === 'TimeoutError' ? 'timeout' : (err.cause?.code ?? err.message);
  }
  call.ok = call.status >= 200 && call.status < 300;
  call.ms = Date.now() - started;
  p.webhookCalls = [...p.webhookCalls, call].slice(-MAX_CALLS_KEPT);
  save(p);
  console.log(
    `${call.at} ${p.id} webhook ${event} attempt ${attempt}: ${call.status ?? call.error}`,
  );
  return call.ok;
}

/** Calls the webhook; resolves after the first attempt while retries go on in the background. */
function notify(p, event) {
  if (!p.webhookUrl) return Promise.resolve();
  const first = deliver(p, event, 1);
  first
    .then(async (ok) => {
      for (let i = 0; !ok && i < RETRY_DELAYS_MS.length; i++) {
        await sleep(RETRY_DELAYS_MS[i]);
        ok = await deliver(p, event, i + 2);
      }
    })
    .catch((err) => console.error(`webhook error: ${err.stack}`));
  return first;
}

// Open payments expire, as Mollie's do, and that calls the webhook too.
setInterval(() => {
  for (const p of payments.values())
    if ((p.status === 'open' || p.status === 'pending') && Date.parse(p.expiresAt) < Date.now())
      void setStatus(p, 'expired');
}, 5_000).unref();

// ---- the Mollie API (/v2) ----

function createPayment(body) {
  const c = amountCents(body.amount);
  const createdAt = Date.now();
  const p = {
    id: newId('tr_'),
    createdAt: timestamp(createdAt),
    expiresAt: timestamp(createdAt + EXPIRES_AFTER_MS),
    cents: c,
    description: text(body.description, 'description', { required: true }),
    redirectUrl: checkUrl(body.redirectUrl, 'redirectUrl', true),
    cancelUrl: checkUrl(body.cancelUrl, 'cancelUrl', false),
    webhookUrl: checkUrl(body.webhookUrl, 'webhookUrl', false),
    metadata: metadata(body.metadata),
    method: typeof body.method === 'string' ? body.method : null,
    locale: typeof body.locale === 'string' ? body.locale : null,
    status: 'open',
    refunds: [],
    chargebacks: [],
    webhookCalls: [],
  };
  save(p);
  console.log(`${p.createdAt} ${p.id} created: ${display(c)} ${p.description}`);
  return p;
}

function find(id) {
  const p = payments.get(id);
  if (!p) throw new MollieError(404, `No payment exists with token ${id}.`);
  return p;
}

function findIn(list, id, kind, p) {
  const item = list.find((x) => x.id === id);
  if (!item) throw new MollieError(404, `No ${kind} exists with token ${id} on payment ${p.id}.`);
  return item;
}

function authorize(req) {
  const [scheme, key] = (req.headers.authorization ?? '').split(' ');
  if (scheme !== 'Bearer' || key !== cfg.apiKey)
    throw new MollieError(401, 'Missing authentication, or failed to authenticate');
}

/** Newest first, from an id on (Mollie's `from`), at most `limit` (default 50, at most 250). */
function newestFirst(query) {
  const all = [...payments.values()].reverse();
  const from = query.get('from');
  const start = from ? all.findIndex((p) => p.id === from) : 0;
  const limit = Math.min(250, Math.max(1, Number(query.get('limit')) || 50));
  return start < 0 ? [] : all.slice(start, start + limit);
}

/** Answers [status, body] for /v2/...; throws MollieError. */
function mollieApi(method, parts, body, query, apiBase) {
  const [collection, id, sub, subId] = parts;
  if ((collection === 'refunds' || collection === 'chargebacks') && parts.length === 1) {
    if (method !== 'GET')
      throw new MollieError(405, `${method} is not supported here by the sandbox`);
    return [200, listAcross(collection, query, apiBase)];
  }
  if (collection !== 'payments' || parts.length > 4)
    throw new MollieError(
      404,
      'The resource does not exist (the sandbox serves payments, refunds and chargebacks)',
    );
  const route = `${method} ${['payments', id && ':id', sub, subId && ':sub'].filter(Boolean).join('/')}`;
  const embedded = (p) => {
    const embed = (query.get('embed') ?? '').split(',');
    const extra = {
      ...(embed.includes('refunds') && {
        refunds: p.refunds.map((r) => refundJson(p, r, apiBase)),
      }),
      ...(embed.includes('chargebacks') && {
        chargebacks: p.chargebacks.map((c) => chargebackJson(p, c, apiBase)),
      }),
    };
    return Object.keys(extra).length ? { _embedded: extra } : {};
  };
  switch (route) {
    case 'POST payments':
      return [201, paymentJson(createPayment(body), apiBase)];
    case 'GET payments':
      return [
        200,
        listJson(
          'payments',
          newestFirst(query).map((p) => paymentJson(p, apiBase)),
          `${apiBase}payments`,
        ),
      ];
    case 'GET payments/:id': {
      const p = find(id);
      return [200, { ...paymentJson(p, apiBase), ...embedded(p) }];
    }
    case 'DELETE payments/:id':
      find(id);
      // Like Mollie for card payments: isCancelable is false, so only expiry ends an open one.
      throw new MollieError(422, 'The payment cannot be canceled', 'id');
    case 'GET payments/:id/refunds': {
      const p = find(id);
      const list = p.refunds.map((r) => refundJson(p, r, apiBase));
      return [200, listJson('refunds', list, `${apiBase}payments/${id}/refunds`)];
    }
    case 'POST payments/:id/refunds': {
      const p = find(id);
      return [201, refundJson(p, addRefund(p, body).refund, apiBase)];
    }
    case 'GET payments/:id/refunds/:sub': {
      const p = find(id);
      return [200, refundJson(p, findIn(p.refunds, subId, 'refund', p), apiBase)];
    }
    case 'GET payments/:id/chargebacks': {
      const p = find(id);
      const list = p.chargebacks.map((c) => chargebackJson(p, c, apiBase));
      return [200, listJson('chargebacks', list, `${apiBase}payments/${id}/chargebacks`)];
    }
    case 'GET payments/:id/chargebacks/:sub': {
      const p = find(id);
      return [200, chargebackJson(p, findIn(p.chargebacks, subId, 'chargeback', p), apiBase)];
    }
  }
  throw new MollieError(405, `${method} is not supported here by the sandbox`);
}

/** Replayed answers by Idempotency-Key, as Mollie does for an hour (the client retries with the same key). */
const idempotent = new Map();

// ---- the control API (/sandbox), not Mollie's ----

async function sandboxApi(method, parts, body, query) {
  const [collection, id, action] = parts;
  if (collection !== 'payments' || parts.length > 3) throw new MollieError(404, 'Unknown route');
  const apiBase = `${publicBase}/v2/`;
  if (method === 'GET' && !id) return [200, newestFirst(query).map((p) => paymentJson(p, apiBase))];
  const p = find(id);
  // Amounts may be plain strings here ("5.00", in euros) as well as Mollie's amount objects.
  if (typeof body.amount === 'string') body.amount = { currency: 'EUR', value: body.amount };
  switch (`${method} ${action ?? ''}`) {
    case 'GET ':
      return [200, paymentJson(p, apiBase)];
    case 'GET webhook-calls':
      return [200, p.webhookCalls];
    case 'POST status':
      if (!SETTABLE.includes(body.status))
        throw new MollieError(422, `status must be one of ${SETTABLE.join(', ')}`, 'status');
      await setStatus(p, body.status);
      return [200, paymentJson(p, apiBase)];
    case 'POST refunds': {
      const { refund, delivered } = addRefund(p, body);
      await delivered;
      return [201, refundJson(p, refund, apiBase)];
    }
    case 'POST chargebacks': {
      const { chargeback, delivered } = addChargeback(p, body);
      await delivered;
      return [201, chargebackJson(p, chargeback, apiBase)];
    }
  }
  throw new MollieError(405, `${method} is not supported on this route`);
}

// ---- pages ----

const escapeHtml = (value) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f3f4f7;color:#1d1d1f}
main{max-width:26rem;margin:3rem auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:1.75rem}
.wide{max-width:56rem}.badge{display:inline-block;background:#fde68a;color:#7c5800;border-radius:4px;padding:0 .4rem;font-size:.75rem;font-weight:600}
.amount{font-size:2.2rem;font-weight:700;margin:.5rem 0 0}.muted{color:#6b7280;font-size:.85rem}
button{display:block;width:100%;margin:.6rem 0 0;padding:.7rem;border:0;border-radius:8px;font:inherit;font-weight:600;cursor:pointer}
.pay{background:#0a7d3b;color:#fff}.fail{background:#b42318;color:#fff}.cancel{background:#e5e7eb;color:#1d1d1f}
.link{background:none;color:#0645ad;text-decoration:underline;font-weight:400;padding:.3rem;width:auto;margin:.8rem auto 0}
.status{font-size:1.3rem;font-weight:700}.paid{color:#0a7d3b}.failed,.canceled,.expired{color:#b42318}
table{border-collapse:collapse;width:100%;font-size:.85rem}td,th{padding:.3rem .5rem;border-bottom:1px solid #e5e7eb;text-align:left}
a{color:#0645ad}`;

function page(title, body, { wide = false, formTargets = [] } = {}) {
  // After a choice the browser is redirected to the shop, so the form may lead there.
  const csp = `default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self' ${formTargets.join(' ')}`;
  return {
    csp,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main class="${wide ? 'wide' : ''}">${body}</main></body></html>`,
  };
}

const origin = (value) => (value ? new URL(value).origin : '');

function checkoutPage(p) {
  const head = `<p><span class="badge">TEST MODE</span> <span class="muted">Payment sandbox</span></p>
<p class="amount">${display(p.cents)}</p><p>${escapeHtml(p.description)}</p>`;
  if (p.status !== 'open')
    return page(
      `Payment ${p.status}`,
      `${head}<p class="status ${p.status}">This payment is ${escapeHtml(p.status)}.</p>
<p><a href="${escapeHtml(p.redirectUrl)}">Return to the shop</a></p><p class="muted">${p.id}</p>`,
    );
  return page(
    `Pay ${display(p.cents)}`,
    `${head}<form method="post" action="/checkout/${p.id}">
<button class="pay" name="action" value="paid">Pay</button>
<button class="fail" name="action" value="failed">Fail</button>
<button class="cancel" name="action" value="canceled">Cancel</button>
<button class="link" name="action" value="expired">let it expire</button>
</form><p class="muted">${p.id} · expires ${escapeHtml(p.expiresAt)}</p>`,
    { formTargets: [origin(p.redirectUrl), origin(p.cancelUrl)].filter(Boolean) },
  );
}

function dashboardPage(p) {
  const rows = (list, cells) =>
    list
      .map(
        (x) =>
          `<tr>${cells(x)
            .map((c) => `<td>${escapeHtml(c)}</td>`)
            .join('')}</tr>`,
      )
      .join('');
  const table = (heads, body) =>
    body
      ? `<table><tr>${heads.map((h) => `<th>${h}</th>`).join('')}</tr>${body}</table>`
      : '<p class="muted">None.</p>';
  return page(
    `Payment ${p.id}`,
    `<p><a href="/">&larr; Payments</a> <span class="badge">TEST MODE</span></p>
<h1>${display(p.cents)} <span class="status ${p.status}">${escapeHtml(p.status)}</span></h1>
<p>${escapeHtml(p.description)} <span class="muted">${p.id} · created ${escapeHtml(p.createdAt)}</span></p>
<p>Refunded ${display(refunded(p))} · charged back ${display(chargedBack(p))} · remaining ${display(remaining(p))}
${p.status === 'open' ? ` · <a href="/checkout/${p.id}">checkout</a>` : ''}</p>
<h2>Refunds</h2>${table(
      ['id', 'amount', 'status', 'created'],
      rows(p.refunds, (r) => [r.id, display(r.cents), r.status, r.createdAt]),
    )}
<h2>Chargebacks</h2>${table(
      ['id', 'amount', 'created'],
      rows(p.chargebacks, (c) => [c.id, display(c.cents), c.createdAt]),
    )}
<h2>Webhook calls</h2><p class="muted">${escapeHtml(p.webhookUrl ?? 'no webhookUrl')}</p>
${table(
  ['at', 'event', 'attempt', 'result', 'ms'],
  rows(p.webhookCalls, (w) => [w.at, w.event, w.attempt, w.status ?? w.error, w.ms]),
)}`,
    { wide: true },
  );
}

function indexPage() {
  const list = newestFirst(new URLSearchParams('limit=250'));
  const rows = list
    .map(
      (p) =>
        `<tr><td class="muted">${escapeHtml(p.createdAt)}</td><td><a href="/dashboard/payments/${p.id}">${p.id}</a></td>
<td>${display(p.cents)}</td><td class="${p.status}">${escapeHtml(p.status)}</td><td>${escapeHtml(p.description)}</td></tr>`,
    )
    .join('\n');
  return page(
    'Payments',
    `<h1>Payments <span class="badge">TEST MODE</span></h1>
<table><tr><th>Created</th><th>Id</th><th>Amount</th><th>Status</th><th>Description</th></tr>${rows || '<tr><td colspan="5" class="muted">No payments yet.</td></tr>'}</table>`,
    { wide: true },
  );
}

// ---- HTTP ----

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(body);
}
const json = (res, status, value, type = 'application/json; charset=utf-8') =>
  send(res, status, type, JSON.stringify(value));
const hal = (res, status, value) => json(res, status, value, 'application/hal+json');
const html = (res, status, { html: body, csp }) =>
  send(res, status, 'text/html; charset=utf-8', body, { 'content-security-policy': csp });
const notFoundPage = () => page('Not found', '<p>No such payment. <a href="/">Payments</a></p>');

function readBody(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks = [];
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new MollieError(413, 'The request body is too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function jsonBody(req) {
  const raw = await readBody(req);
  if (!raw.trim()) return {};
  try {
    const body = JSON.parse(raw);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body;
  } catch {
    /* answered below */
  }
  throw new MollieError(400, 'The request body is not a JSON object');
}

async function handle(req, res) {
  const url = new URL(req.url, publicBase);
  const [root, ...parts] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const method = req.method;

  if (root === 'v2') {
    // Links point back to the listener the request came in on (the client follows them).
    const apiBase = req.socket.encrypted ? tlsApiBase : `${publicBase}/v2/`;
    const key = method === 'POST' && req.headers['idempotency-key'];
    try {
      authorize(req);
      const replay = key && idempotent.get(key);
      if (replay && replay.until > Date.now()) return hal(res, replay.status, replay.body);
      const body = ['POST', 'PATCH'].includes(method) ? await jsonBody(req) : {};
      const [status, answer] = mollieApi(method, parts, body, url.searchParams, apiBase);
      if (key)
        idempotent.set(key, { status, body: answer, until: Date.now() + IDEMPOTENCY_TTL_MS });
      return hal(res, status, answer);
    } catch (err) {
      if (!(err instanceof MollieError)) console.error(`api error: ${err.stack}`);
      return hal(res, errorJson(err).status, errorJson(err));
    }
  }

  if (root === 'sandbox') {
    try {
      const body = method === 'POST' ? await jsonBody(req) : {};
      const [status, answer] = await sandboxApi(method, parts, body, url.searchParams);
      return json(res, status, answer);
    } catch (err) {
      if (!(err instanceof MollieError)) console.error(`control error: ${err.stack}`);
      return json(res, errorJson(err).status, errorJson(err));
    }
  }

  // The public certificate of the HTTPS API, for a clone that reuses this sandbox but keeps its
  // cache elsewhere (another HOME): it must trust what this server serves.
  if (method === 'GET' && root === 'certificate.pem' && !parts.length)
    return send(res, 200, 'application/x-pem-file', tls.cert);
  if (method === 'GET' && root === 'healthz' && !parts.length)
    return json(res, 200, { ok: true, service: 'payment-sandbox', payments: payments.size });
  if (method === 'GET' && !root) return html(res, 200, indexPage());

  if (root === 'dashboard' && parts[0] === 'payments' && parts.length === 2 && method === 'GET') {
    const p = payments.get(parts[1]);
    return p ? html(res, 200, dashboardPage(p)) : html(res, 404, notFoundPage());
  }

  if (root === 'checkout' && parts.length === 1) {
    const p = payments.get(parts[0]);
    if (!p) return html(res, 404, notFoundPage());
    if (method === 'GET') return html(res, 200, checkoutPage(p));
    if (method === 'POST') {
      const action = new URLSearchParams(await readBody(req)).get('action');
      if (!['paid', 'failed', 'canceled', 'expired'].includes(action))
        return html(res, 400, page('Bad request', '<p>Choose Pay, Fail, Cancel or expire.</p>'));
      // A second click (or a stale tab) changes nothing and still returns to the shop.
      if (p.status === 'open') await setStatus(p, action);
      const to = action === 'canceled' && p.cancelUrl ? p.cancelUrl : p.redirectUrl;
      return send(res, 303, 'text/plain; charset=utf-8', `See ${to}`, { location: to });
    }
  }
  return html(res, 404, page('Not found', '<p>Not found. <a href="/">Payments</a></p>'));
}

function onRequest(req, res) {
  handle(req, res).catch((err) => {
    console.error(`http error: ${err.stack}`);
    if (!res.headersSent) json(res, 500, errorJson(err));
  });
}

// ---- TLS: a self-signed certificate made once with openssl, kept in the cache (tlsDir) ----

function tlsOptions() {
  const dir = cfg.tlsDir;
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  if (!fs.existsSync(key) || !fs.existsSync(cert)) {
    fs.mkdirSync(dir, { recursive: true });
    const r = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']
        .concat(['-keyout', `${key}.tmp`, '-out', `${cert}.tmp`, '-days', '3650'])
        .concat([
          '-subj',
          '/CN=payment-sandbox',
          '-addext',
          'subjectAltName=IP:127.0.0.1,DNS:localhost',
        ]),
      { encoding: 'utf8' },
    );
    if (r.status !== 0)
      throw new Error(`openssl could not make the certificate: ${r.stderr || r.error?.message}`);
    fs.renameSync(`${key}.tmp`, key);
    fs.renameSync(`${cert}.tmp`, cert);
  }
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
}

const tls = tlsOptions();
const httpServer = http.createServer(onRequest);
const httpsServer = https.createServer(tls, onRequest);
httpServer.listen(cfg.port, listenHost, () =>
  console.log(
    `payment sandbox: checkout and control API on ${publicBase}/, ${payments.size} stored payment(s)`,
  ),
);
httpsServer.listen(cfg.tlsPort, listenHost, () =>
  console.log(`payment sandbox: Mollie API on ${tlsApiBase}`),
);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    httpsServer.close();
    httpServer.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
