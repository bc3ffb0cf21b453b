import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { parseCookie } from 'cookie';
import type { Express, Request, Response } from 'express';
import { sessionTokenFrom } from './cookies.ts';
import { locate, type GeofenceOptions } from './geofence.ts';

/** Written by the web build next to index.html: the SPA's route patterns (`:name` is a segment). */
export const SPA_ROUTES_FILE = 'spa-routes.json';
/** Written by the web build (web/scripts/build.mjs): its prerendered pages (docs/adr/0081). */
export const PRERENDERED_FILE = 'prerendered.json';
/** The web app's copy of the visitor's language choice (web/src/app/i18n.ts). */
export const LANGUAGE_COOKIE = 'language';
const DEFAULT_LANGUAGE = 'en';

export interface WebOptions {
  /** The verdict the page carries, and whether a visitor gets prerendered pages (geofence.ts). */
  geofence: GeofenceOptions;
  /** Where browsers load signed videos and thumbnails from: pages ask them to connect early. */
  mediaOrigin?: string | undefined;
  /**
   * What a route's page is about, for this visitor (a challenge, a person: page-subjects.ts):
   * whether it does not exist (the page then goes out with 404) and the image its page will show
   * largest (a challenge's poster), which the browser is asked to fetch with the page. None:
   * every route is 200, with no image.
   */
  lookUp?:
    | ((pathname: string, req: Request, res: Response, queries: PageQueries) => Promise<PageLookup>)
    | undefined;
}

/** The web app's own queries that a page's lookup may run for it, by operation name. */
export type PageQueries = ReadonlyMap<string, string>;

/** One of the page's queries with the visitor's answer, for the page's first render. */
export interface PageDataEntry {
  operation: string;
  variables: Record<string, string>;
  data: unknown;
}

export interface PageLookup {
  missing: boolean;
  /** A URL on the media origin, or null. */
  image: string | null;
  /** Answers to the page's own queries, put into the page (docs/adr/0100); may be empty. */
  data?: readonly PageDataEntry[];
  /** The values of the page's preview (its fields by name, from the data), or null. */
  preview?: Readonly<Record<string, unknown>> | null;
}

/** The element the web app reads a page's data from (web/src/app/pageData.ts). */
export const PAGE_DATA_ELEMENT_ID = 'page-data';

/**
 * The page's data as a JSON script element (a data block: never run, so the page's
 * Content-Security-Policy needs no exception). `<`, `>`, `&` and the two JSON line separators
 * JavaScript once disallowed are written as \u escapes: nothing in the data can close the element,
 * open a comment or start markup, and JSON.parse reads the same values back.
 */
export function pageDataElement(data: readonly PageDataEntry[]): string {
  const json = JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${json}</script>`;
}

/**
 * The `Link` preload of a page's main image: only an http(s) URL on the media origin, written as
 * the URL parser normalises it (percent-encoded, so no `<`, `>`, space or comma of its own), so
 * that nothing a lookup returns can add another link or break the header.
 */
function imagePreload(image: string | null, mediaOrigin: string | undefined): string | null {
  if (!image || !mediaOrigin) return null;
  let url: URL;
  try {
    url = new URL(image);
  } catch {
    return null;
  }
  if (url.origin !== new URL(mediaOrigin).origin || !/^https?:$/.test(url.protocol)) return null;
  if (!/^[\x21-\x7e]+$/.test(url.href) || /[<>,]/.test(url.href)) return null;
  return `<${url.href}>; rel=preload; as=image; fetchpriority=high`;
}

interface RoutePattern {
  expression: RegExp;
  params: string[];
}

function compilePattern(pattern: string): RoutePattern {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const params: string[] = [];
  const segments = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      if (!segment.startsWith(':')) return escape(segment);
      params.push(segment.slice(1));
      return '([^/]+)';
    });
  return { expression: new RegExp(`^/${segments.join('/')}/?$`, 'i'), params };
}

/**
 * A matcher for the SPA's own paths, from the patterns the web build lists; null when the build
 * has no (readable) list, and then every path counts as the SPA's, as before.
 */
export function spaRouteMatcher(patterns: unknown): ((pathname: string) => boolean) | null {
  if (!Array.isArray(patterns) || !patterns.every((item) => typeof item === 'string')) return null;
  const expressions = (patterns as string[]).map((pattern) => compilePattern(pattern).expression);
  return (pathname) => expressions.some((expression) => expression.test(pathname));
}

function readJson(file: string): unknown {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * A route parameter goes into a prerendered page only when it reads the same in a path, an
 * attribute and text (usernames and slugs do): anything else gets the empty app, which renders
 * the page in the browser. So no request can write markup into a page.
 */
const PLAIN_PARAM = /^[A-Za-z0-9._~-]{1,100}$/;

interface PrerenderedPage extends RoutePattern {
  language: string;
  html: string;
  placeholders: Map<string, string>;
  preview: PreviewTemplate | null;
}

/**
 * A page's preview (web/src/prerender.tsx, docs/adr/0100): the gateway writes it, with the
 * visitor's data, in the place of the page's loader, so that the page's main text paints with
 * the HTML. The browser hydrates it from the same data.
 */
interface PreviewTemplate {
  loader: string;
  template: string;
  fields: string[];
  placeholder: string;
}

function previewTemplateOf(value: unknown): PreviewTemplate | null {
  const preview = value as Partial<PreviewTemplate> | null | undefined;
  if (!preview || typeof preview !== 'object') return null;
  const { loader, template, fields, placeholder } = preview;
  if (typeof loader !== 'string' || !loader || typeof template !== 'string') return null;
  if (typeof placeholder !== 'string' || !placeholder.includes('{name}')) return null;
  if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string')) return null;
  return { loader, template, fields, placeholder };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The page with its preview filled in (every field a string, written as HTML text), or null when
 * it has none or the values do not fit: the page then goes out as it is, without its data.
 */
function withPreview(
  html: string,
  preview: PreviewTemplate | null,
  values: Readonly<Record<string, unknown>> | null | undefined,
): string | null {
  if (!preview || !values || !html.includes(preview.loader)) return null;
  let filled = preview.template;
  for (const field of preview.fields) {
    const value = values[field];
    if (typeof value !== 'string') return null;
    // A function: `$&` and the like in the value stay text.
    filled = filled.replaceAll(preview.placeholder.replace('{name}', field), () =>
      escapeHtml(value),
    );
  }
  return html.replace(preview.loader, () => filled);
}

/** The prerendered pages of the build (empty when it has none), read once at start. */
function readPrerendered(webDistDir: string): PrerenderedPage[] {
  const manifest = readJson(path.join(webDistDir, PRERENDERED_FILE)) as {
    placeholder?: unknown;
    pages?: unknown;
  } | null;
  if (!manifest || typeof manifest.placeholder !== 'string' || !Array.isArray(manifest.pages)) {
    return [];
  }
  const placeholder = manifest.placeholder;
  return (
    manifest.pages as { pattern?: unknown; language?: unknown; file?: unknown; preview?: unknown }[]
  ).flatMap(({ pattern, language, file, preview }) => {
    if (typeof pattern !== 'string' || typeof language !== 'string') return [];
    if (typeof file !== 'string' || !/^pages\/[a-z]{2}\/[\w.-]+\.html$/.test(file)) return [];
    const compiled = compilePattern(pattern);
    return [
      {
        ...compiled,
        language,
        html: readFileSync(path.join(webDistDir, file), 'utf8'),
        placeholders: new Map(
          compiled.params.map((name) => [name, placeholder.replace('{name}', name)]),
        ),
        preview: previewTemplateOf(preview),
      },
    ];
  });
}

/**
 * The web app's queries a page lookup may run for it (`queries` in the build's prerendered.json:
 * operation name to query text, as the app's cache writes them); empty without.
 */
function readPageQueries(webDistDir: string): PageQueries {
  const manifest = readJson(path.join(webDistDir, PRERENDERED_FILE)) as {
    queries?: unknown;
  } | null;
  const listed = manifest?.queries;
  if (!listed || typeof listed !== 'object') return new Map();
  return new Map(
    Object.entries(listed as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** The prerendered page for a path and language, with its parameters in place; else null. */
function prerenderedHtml(
  pages: PrerenderedPage[],
  pathname: string,
  language: string,
): { html: string; preview: PreviewTemplate | null } | null {
  for (const page of pages) {
    if (page.language !== language) continue;
    const match = page.expression.exec(pathname);
    if (!match) continue;
    let html = page.html;
    for (const [index, name] of page.params.entries()) {
      const value = match[index + 1] ?? '';
      if (!PLAIN_PARAM.test(value)) return null;
      html = html.replaceAll(page.placeholders.get(name) ?? '', value);
    }
    return { html, preview: page.preview };
  }
  return null;
}

/** A cookie's value from the request, or null. */
function cookieOf(req: Request, name: string): string | null {
  const header = req.get('cookie');
  return (header && parseCookie(header)[name]) || null;
}

/**
 * The encoding to send a compressible body in: brotli whenever the browser takes it (the
 * smallest, whatever order the header lists them in), else gzip, else none.
 */
function chosenEncoding(req: Request): 'br' | 'gzip' | null {
  // No header: a client such as curl that decodes nothing (the RFC would allow any).
  if (!req.get('accept-encoding')) return null;
  if (req.acceptsEncodings('br') === 'br') return 'br';
  return req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;
}

/** Cache lifetimes: content-hashed names forever, the build manifest never, anything else an hour. */
function cacheControlOf(relative: string): string {
  if (relative.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (relative.startsWith('builds/') || relative.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * The build's files by their URL path (`/assets/x.js`), with the compressed copies the build made
 * of them (`x.js.br`, `x.js.gz`, web/vite.config.ts). Listed once at start: a request can only
 * ever name one of these files, whatever dot segments or encodings its path holds.
 */
function listFiles(webDistDir: string): Map<string, { br: boolean; gzip: boolean }> {
  const names = new Set(
    readdirSync(webDistDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) =>
        path
          .relative(webDistDir, path.join(entry.parentPath, entry.name))
          .split(path.sep)
          .join('/'),
      ),
  );
  const files = new Map<string, { br: boolean; gzip: boolean }>();
  for (const name of names) {
    if (/\.(br|gz|map)$/.test(name) || name.startsWith('.')) continue;
    files.set(`/${name}`, { br: names.has(`${name}.br`), gzip: names.has(`${name}.gz`) });
  }
  return files;
}

/**
 * A page: the prerendered HTML or the empty app, with the gateway's verdicts on `<html>`, sent
 * compressed as the browser accepts (a page is small: compressed per request), never cached
 * without asking again (ETag), with a preconnect to the media origin and a preload of the page's
 * main image on it (a challenge's poster, docs/adr/0099).
 */
function sendPage(
  req: Request,
  res: Response,
  html: string,
  marks: Record<string, string | true>,
  mediaOrigin: string | undefined,
  image: string | null,
  data: readonly PageDataEntry[],
) {
  const attributes = Object.entries(marks)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${value}"`))
    .join('');
  let marked = html.replace(/<html\b([^>]*)>/, `<html$1${attributes}>`);
  if (data.length > 0) {
    const element = pageDataElement(data);
    marked = marked.replace(/<\/body>/, () => `${element}</body>`);
  }
  const body = Buffer.from(marked);
  const encoding = chosenEncoding(req);
  // A page with data holds one visitor's view (a party's proof phrase, signed links): no shared
  // cache keeps it, whatever it makes of `Vary: Cookie`.
  res.setHeader('Cache-Control', data.length > 0 ? 'private, no-cache' : 'no-cache');
  // The language and session cookies choose the page; the encoding its bytes.
  res.vary('Accept-Encoding');
  res.vary('Cookie');
  const preload = imagePreload(image, mediaOrigin);
  if (mediaOrigin) {
    res.setHeader(
      'Link',
      [`<${mediaOrigin}>; rel=preconnect`, ...(preload ? [preload] : [])].join(', '),
    );
  }
  res.type('html');
  res.setHeader('ETag', `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`);
  if (req.fresh) return void res.status(304).end();
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.send(
    encoding === 'br'
      ? brotliCompressSync(body, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : encoding === 'gzip'
        ? gzipSync(body, { level: 6 })
        : body,
  );
}

/**
 * Serves the web build (docs/adr/0081). Its files as they are or in the brotli or gzip copy the
 * build made (`Vary: Accept-Encoding`), hashed assets cached for a year, the build manifest never.
 * Every other GET gets a page: 200 for the SPA's own routes, 404 for any other path and for a
 * route whose subject does not exist (`lookUp`; the SPA still renders its not-found page). A route the build prerendered, asked for without a query,
 * by a visitor the geofence allows, gets the prerendered page in the language of the `language`
 * cookie; any other request the empty app. The geofence does not refuse pages: the web app
 * shows its access-denied page from the verdict on `<html data-location>` or `/api/location`.
 */
export function serveWeb(app: Express, webDistDir: string, options: WebOptions): void {
  const files = listFiles(webDistDir);
  const index = readFileSync(path.join(webDistDir, 'index.html'), 'utf8');
  const isSpaRoute = spaRouteMatcher(readJson(path.join(webDistDir, SPA_ROUTES_FILE)));
  const prerendered = readPrerendered(webDistDir);
  const queries = readPageQueries(webDistDir);

  app.get(/^\/(?!graphql|api\/|healthz|readyz|metrics).*/, async (req, res, next) => {
    const file = files.get(req.path);
    if (file && !req.path.endsWith('.html')) {
      const relative = req.path.slice(1);
      const encoding = chosenEncoding(req);
      const variant = encoding === 'br' && file.br ? 'br' : encoding && file.gzip ? 'gzip' : null;
      res.vary('Accept-Encoding');
      res.type(path.extname(relative));
      if (variant) res.setHeader('Content-Encoding', variant);
      res.sendFile(
        path.join(webDistDir, variant ? `${relative}.${variant === 'br' ? 'br' : 'gz'}` : relative),
        { cacheControl: false, headers: { 'Cache-Control': cacheControlOf(relative) } },
        (error) => {
          if (error && !res.headersSent) next(error);
        },
      );
      return;
    }
    const known = !isSpaRoute || isSpaRoute(req.path);
    const verdict = locate(req.ip, options.geofence);
    const requested = cookieOf(req, LANGUAGE_COOKIE) ?? DEFAULT_LANGUAGE;
    const language = /^[a-z]{2}$/.test(requested) ? requested : DEFAULT_LANGUAGE;
    const page =
      known && verdict.allowed && !req.originalUrl.includes('?')
        ? (prerenderedHtml(prerendered, req.path, language) ??
          prerenderedHtml(prerendered, req.path, DEFAULT_LANGUAGE))
        : null;
    const marks: Record<string, string | true> = {};
    if (verdict.allowed) marks['data-location'] = 'allowed';
    // Most likely logged in: the home page starts without the hero for visitors (web HomePage),
    // the sidebar with its skeleton rather than the log-in box (web SidebarContent, ADR 101).
    if (sessionTokenFrom(req)) marks['data-session'] = true;
    const subject = known ? await options.lookUp?.(req.path, req, res, queries) : undefined;
    if (!known || subject?.missing) res.status(404);
    let html = page?.html ?? index;
    let data = subject && !subject.missing ? (subject.data ?? []) : [];
    if (page && data.length > 0) {
      // A prerendered page hydrates from its data the preview that data fills (ChallengeDetail
      // in the web app): it carries data only with its preview.
      const filled = withPreview(html, page.preview, subject?.preview);
      if (filled) html = filled;
      else data = [];
    }
    sendPage(req, res, html, marks, options.mediaOrigin, subject?.image ?? null, data);
  });
}
