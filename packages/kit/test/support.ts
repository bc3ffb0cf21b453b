/**
 * Local test helpers. This package sits below @challenge/testing in the dependency graph, so it
 * cannot use that package (a cycle); these are the few pieces its tests need.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { pino, type Logger } from 'pino';
import { GATEWAY_SECRET_HEADER } from '../src/gateway-credential.ts';

export interface CapturedLogger {
  logger: Logger;
  /** Every JSON line written so far, parsed. */
  entries(): Record<string, unknown>[];
  /** Everything written so far, as one string. */
  text(): string;
}

/** A pino logger that writes into memory, so a test can read what was logged. */
export function captureLogger(level = 'debug'): CapturedLogger {
  const lines: string[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(line) });
  return {
    logger,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => lines.join(''),
  };
}

export interface KeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

/** A fresh RS256 key pair (never a committed secret). */
export async function rsaKeyPair(): Promise<KeyPair> {
  const pair = await generateKeyPair('RS256', { extractable: true });
  return {
    publicKeyPem: await exportSPKI(pair.publicKey),
    privateKeyPem: await exportPKCS8(pair.privateKey),
  };
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/**
 * One HTTP request on a NEW connection (no keep-alive pool), so that a closed server shows up as
 * a refused connection instead of a reused socket.
 */
export function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: <T>() => JSON.parse(body) as T,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The gateway's credential every test subgraph accepts (docs/adr/0069). */
export const GATEWAY_SECRET = 'kit-test-gateway-secret-0123456789abcdef';
export { GATEWAY_SECRET_HEADER };

/**
 * POSTs a GraphQL operation to `url` as the gateway would (with its credential), optionally with
 * a bearer token; `headers` replace or add headers (an empty secret leaves the credential out).
 */
export function graphql(
  url: string,
  query: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  const all: Record<string, string> = {
    'content-type': 'application/json',
    [GATEWAY_SECRET_HEADER]: GATEWAY_SECRET,
    ...headers,
  };
  if (!all[GATEWAY_SECRET_HEADER]) delete all[GATEWAY_SECRET_HEADER];
  if (token) all.authorization = `Bearer ${token}`;
  return http(url, { method: 'POST', headers: all, body: JSON.stringify({ query }) });
}

/** Polls `check` until it stops throwing (and returns its value), or rethrows after the timeout. */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** A promise plus the function that resolves it. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
