import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWeb } from '../src/web.ts';
import { GB_IP, US_IP } from './support.ts';

/** A web build as `npm run build -w web` lays it out (web/scripts/build.mjs). */
function webBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  const write = (file: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), content);
  };
  const template = (lang: string, root: string) =>
    `<!doctype html><html lang="${lang}"><head><title>Challenge</title></head><body><div id="root">${root}</div></body></html>`;
  write('index.html', template('en', ''));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  write('assets/index-abc123.js', script);
  write('assets/index-abc123.js.br', brotliCompressSync(script));
  write('assets/index-abc123.js.gz', gzipSync(script));
  write('assets/tiny-abc123.js', 'export{}');
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('builds/latest.json', '{"id":"b-1"}');
  write(
    'spa-routes.json',
    JSON.stringify([
      '/',
      '/terms',
      '/wallet',
      '/profile/:username/ongoing-challenges',
      '/challenge/:slug/detail',
    ]),
  );
  write('pages/en/index.html', template('en', '<main>Dare your friends</main>'));
  write('pages/nl/index.html', template('nl', '<main>Daag je vrienden uit</main>'));
  write('pages/en/terms.html', template('en', '<main>Terms of use</main>'));
  write(
    'pages/en/profile.html',
    template('en', '<main><title>@__param_username__</title>Profile</main>'),
  );
  const loader = '<div class="loader" role="status">Loading…</div>';
  write(
    'pages/en/challenge.html',
    template('en', `<main><a href="/challenge/__param_slug__/detail">x</a>${loader}</main>`),
  );
  write(
    'prerendered.json',
    JSON.stringify({
      placeholder: '__param_{name}__',
      queries: { ChallengeBySlug: 'query ChallengeBySlug { x }' },
      pages: [
        {
          pattern: '/challenge/:slug/detail',
          language: 'en',
          file: 'pages/en/challenge.html',
          preview: {
            loader,
            template: '<article><h1>__preview_name__</h1><p>__preview_description__</p></article>',
            fields: ['name', 'description'],
            placeholder: '__preview_{name}__',
          },
        },
        { pattern: '/', language: 'en', file: 'pages/en/index.html' },
        { pattern: '/', language: 'nl', file: 'pages/nl/index.html' },
        { pattern: '/terms', language: 'en', file: 'pages/en/terms.html' },
        {
          pattern: '/profile/:username/ongoing-challenges',
          language: 'en',
          file: 'pages/en/profile.html',
        },
      ],
    }),
  );
  return dist;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent, still compressed. */
  raw: Buffer;
  /** The body decoded by its content-encoding. */
  text: string;
}

/** A GET that sends exactly the given headers (fetch would add its own Accept-Encoding). */
function get(base: string, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${base}${pathname}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const body =
          encoding === 'br'
            ? brotliDecompressSync(raw)
            : encoding === 'gzip'
              ? gunzipSync(raw)
              : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text: body.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const vary = (answer: Answer) =>
  String(answer.headers.vary ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase());

describe('serving the web build', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    serveWeb(app, webBuild(), {
      geofence: { enabled: true, allowPrivate: true },
      mediaOrigin: 'https://media.example.com',
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends the brotli or gzip copy the build made, by what the browser accepts', async () => {
    const br = await get(base, '/assets/index-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.raw.length).toBeLessThan(200);
    expect(br.text).toContain('console.log');

    const gz = await get(base, '/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(br.text);

    const plain = await get(base, '/assets/index-abc123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.toString()).toBe(br.text);
    // No header at all (curl): as it is.
    const bare = await get(base, '/assets/index-abc123.js');
    expect(bare.headers['content-encoding']).toBeUndefined();

    // Every answer says that it depends on Accept-Encoding, so no cache mixes them up.
    for (const answer of [br, gz, plain, bare]) expect(vary(answer)).toContain('accept-encoding');
    // A file too small to compress goes as it is.
    const tiny = await get(base, '/assets/tiny-abc123.js', { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.text).toBe('export{}');
  });

  it('caches hashed assets for a year, other files an hour, the build manifest and pages never', async () => {
    const asset = await get(base, '/assets/index-abc123.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await get(base, '/favicon.svg');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    const manifest = await get(base, '/builds/latest.json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const page = await get(base, '/wallet', { 'accept-encoding': 'br' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('compresses pages too', async () => {
    const page = await get(base, '/terms', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.text).toContain('Terms of use');
    expect(vary(page)).toContain('accept-encoding');
    const gz = await get(base, '/terms', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(page.text);
  });

  it('sends a prerendered page in the language of the language cookie, English by default', async () => {
    const english = await get(base, '/');
    expect(english.status).toBe(200);
    expect(english.text).toContain('<div id="root"><main>Dare your friends</main></div>');
    const dutch = await get(base, '/', { cookie: 'language=nl' });
    expect(dutch.text).toContain('Daag je vrienden uit');
    expect(dutch.text).toContain('<html lang="nl"');
    // No Dutch terms page in this build: the English one.
    expect((await get(base, '/terms', { cookie: 'language=nl' })).text).toContain('Terms of use');
    expect((await get(base, '/', { cookie: 'language=xx' })).text).toContain('Dare your friends');
    expect(vary(dutch)).toContain('cookie');
  });

  it('sends the empty app for a page with a query, a page not prerendered and an unknown path', async () => {
    for (const pathname of ['/?modal=login-magic-link', '/terms?x=1', '/wallet']) {
      const answer = await get(base, pathname);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('<div id="root"></div>');
    }
    const unknown = await get(base, '/no-such-page');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('<div id="root"></div>');
  });

  it('puts the route parameter into a prerendered page only when it reads the same everywhere', async () => {
    const alice = await get(base, '/profile/alice.b_1/ongoing-challenges');
    expect(alice.text).toContain('<title>@alice.b_1</title>');
    expect(alice.text).not.toContain('__param_');
    for (const name of ['Bob%20B', '%3Cscript%3E', 'a%2Fb']) {
      const answer = await get(base, `/profile/${name}/ongoing-challenges`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('<div id="root"></div>');
      expect(answer.text).not.toContain('script>');
    }
  });

  it("gives the geofence's verdict with the page, and prerendered pages only to visitors it allows", async () => {
    const allowed = await get(base, '/terms', { 'x-forwarded-for': GB_IP });
    expect(allowed.text).toContain('data-location="allowed"');
    expect(allowed.text).toContain('Terms of use');
    const refused = await get(base, '/terms', { 'x-forwarded-for': US_IP });
    expect(refused.status).toBe(200);
    expect(refused.text).not.toContain('data-location');
    expect(refused.text).toContain('<div id="root"></div>');
  });

  it('marks a page asked for with a session cookie, so the home page starts without its hero', async () => {
    const member = await get(base, '/', { cookie: 'session=x.y.z; language=en' });
    expect(member.text).toMatch(/<html [^>]*data-session(?=[ >=])/);
    const visitor = await get(base, '/');
    expect(visitor.text).not.toContain('data-session');
  });

  it('tells the browser to connect to the media origin early', async () => {
    const page = await get(base, '/');
    expect(page.headers.link).toBe('<https://media.example.com>; rel=preconnect');
    const asset = await get(base, '/assets/index-abc123.js');
    expect(asset.headers.link).toBeUndefined();
  });
});

const MEDIA = 'https://media.example.com';

describe('a route whose subject does not exist (issue 22, point 14)', () => {
  let server: Server;
  let base: string;
  const asked: string[] = [];

  beforeAll(async () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    serveWeb(app, webBuild(), {
      geofence: { enabled: true, allowPrivate: true },
      mediaOrigin: MEDIA,
      // What page-subjects.ts answers from the supergraph; here "nobody" does not exist, and a
      // challenge's poster is the slug's image on the media origin (or elsewhere for "foreign").
      lookUp: async (pathname, _req, _res, queries) => {
        asked.push(pathname);
        expect(queries.get('ChallengeBySlug')).toBe('query ChallengeBySlug { x }');
        const slug = /^\/challenge\/([^/]+)\/detail$/.exec(pathname)?.[1];
        const image =
          slug === 'foreign'
            ? 'https://elsewhere.example/poster.webp'
            : slug === 'odd'
              ? `${MEDIA}/a poster.webp?x=<y>`
              : slug
                ? `${MEDIA}/videos/${slug}/thumbnail.webp?X-Amz-Signature=ab%2C12`
                : null;
        // The page's data: a challenge's answer with markup in it; none for a missing page.
        const data = [
          {
            operation: 'ChallengeBySlug',
            variables: { slug: slug ?? '' },
            data: { name: '</script><script>alert(1)</script><!-- & \u2028' },
          },
        ];
        // The preview's values (from the same answer), except for a page said to have none.
        const preview =
          slug === 'nopreview'
            ? null
            : { name: '</h1><script>alert(1)</script> $& $1', description: 'Eén minuut & "meer"' };
        return { missing: pathname.startsWith('/profile/nobody/'), image, data, preview };
      },
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers 404 with the page, which renders its own not-found text', async () => {
    const missing = await get(base, '/profile/nobody/ongoing-challenges');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<title>@nobody</title>');
    const there = await get(base, '/profile/alice/ongoing-challenges');
    expect(there.status).toBe(200);
    // Asked for the SPA's routes only: an unknown path is 404 without a lookup, files need none.
    expect((await get(base, '/no-such-page')).status).toBe(404);
    expect((await get(base, '/favicon.svg')).status).toBe(200);
    expect(asked).toEqual([
      '/profile/nobody/ongoing-challenges',
      '/profile/alice/ongoing-challenges',
    ]);
  });

  it("names the challenge's poster for download with the page (docs/adr/0099)", async () => {
    const page = await get(base, '/challenge/juggle-ab12/detail');
    expect(page.status).toBe(200);
    expect(page.headers.link).toBe(
      `<${MEDIA}>; rel=preconnect, <${MEDIA}/videos/juggle-ab12/thumbnail.webp?X-Amz-Signature=ab%2C12>; rel=preload; as=image; fetchpriority=high`,
    );
    // Only an image on the media origin, and only as the URL parser writes it.
    expect((await get(base, '/challenge/foreign/detail')).headers.link).toBe(
      `<${MEDIA}>; rel=preconnect`,
    );
    expect((await get(base, '/challenge/odd/detail')).headers.link).toBe(
      `<${MEDIA}>; rel=preconnect, <${MEDIA}/a%20poster.webp?x=%3Cy%3E>; rel=preload; as=image; fetchpriority=high`,
    );
  });

  it("puts the page's data into it as a JSON element nothing in the data can close (docs/adr/0100)", async () => {
    for (const path of [
      '/challenge/juggle-ab12/detail',
      '/challenge/juggle-ab12/detail?via=mail',
    ]) {
      const page = await get(base, path);
      const element = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(
        page.text,
      );
      expect(element, path).not.toBeNull();
      const json = element![1]!;
      expect(json).not.toMatch(/[<>&\u2028]/);
      expect(JSON.parse(json)).toEqual([
        {
          operation: 'ChallengeBySlug',
          variables: { slug: 'juggle-ab12' },
          data: { name: '</script><script>alert(1)</script><!-- & \u2028' },
        },
      ]);
      // One visitor's view: kept by no shared cache.
      expect(page.headers['cache-control'], path).toBe('private, no-cache');
      expect(page.headers.vary, path).toContain('Cookie');
      // The data's markup did not end the element: one script element, at the page's end.
      expect(page.text.match(/<script/g), path).toHaveLength(1);
      expect(page.text).toMatch(/<\/script><\/body><\/html>$/);
    }
    // A page whose subject does not exist carries none.
    expect((await get(base, '/profile/nobody/ongoing-challenges')).text).not.toContain('page-data');
  });

  it("writes the preview into the prerendered page in the loader's place, as text (docs/adr/0100)", async () => {
    const page = await get(base, '/challenge/juggle-ab12/detail');
    expect(page.text).toContain(
      '<main><a href="/challenge/juggle-ab12/detail">x</a><article><h1>&#60;/h1&#62;&#60;script&#62;alert(1)&#60;/script&#62; $&#38; $1</h1><p>Eén minuut &#38; &#34;meer&#34;</p></article></main>',
    );
    expect(page.text).not.toContain('Loading…');
    // No values for the preview: the page goes out as the build made it, and without its data
    // (the browser would hydrate a preview the page does not have).
    const plain = await get(base, '/challenge/nopreview/detail');
    expect(plain.text).toContain('<div class="loader" role="status">Loading…</div>');
    expect(plain.text).not.toContain('page-data');
    expect(plain.headers['cache-control']).toBe('no-cache');
  });
});
