import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The JavaScript a page loads before it can show and hydrate its shell (docs/adr/0081): what
 * index.html loads (the entry and its modulepreloads) and the shell's texts the entry loads
 * before the first render. Measured gzipped (level 9) on the production build, which `npm test`
 * makes first (turbo.json: test depends on build).
 */
const INITIAL_BUDGET_BYTES = 150_000;
/**
 * Everything a first visit of the home page loads before it shows data: the initial JavaScript,
 * then the page, the sidebar, Apollo and the rest of the texts (about 233 kB when written).
 */
const HOME_BUDGET_BYTES = 250_000;

const dist = path.resolve(import.meta.dirname, '../dist');

interface ManifestChunk {
  file: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function readBuild(): { html: string; manifest: Manifest } {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestFile)) {
    throw new Error(`no production build in ${dist}: run \`npm run build -w web\` first`);
  }
  return {
    html: readFileSync(path.join(dist, 'index.html'), 'utf8'),
    manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest,
  };
}

const gzipped = (file: string) =>
  gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;

/** The chunk of a manifest entry and every chunk it imports statically. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build has no chunk for ${key}`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
  return into;
}

/** A table of the files and their gzipped sizes, largest first, and the total. */
function report(title: string, files: Iterable<string>): { total: number; table: string } {
  const rows = [...new Set(files)].map((file) => ({ file, bytes: gzipped(file) }));
  rows.sort((a, b) => b.bytes - a.bytes);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1).padStart(7)} kB`;
  const table = [
    `${title} (gzipped):`,
    ...rows.map((row) => `${kb(row.bytes)}  ${row.file}`),
    `${kb(total)}  total`,
  ].join('\n');
  console.log(table);
  return { total, table };
}

/**
 * The scripts a page names: its script and modulepreload tags, and the files they load. A
 * prerendered page names its entry and modules in a JSON list (`#page-scripts`) that its one
 * script (`/page-boot.js`) loads after the first paint (docs/adr/0100).
 */
function scriptsOf(html: string): { tags: string[]; files: string[] } {
  const matches = [
    ...html.matchAll(
      /<script type="module"[^>]*\ssrc="\/([^"]+)"[^>]*>|<link rel="modulepreload"[^>]*\shref="\/([^"]+)"[^>]*>|<script src="\/(page-boot\.js)"[^>]*>/g,
    ),
  ];
  const list = /<script type="application\/json" id="page-scripts">(.*?)<\/script>/.exec(html);
  const listed = list ? (JSON.parse(list[1]!) as { entry: string; preload: string[] }) : null;
  return {
    tags: matches.map((match) => match[0]),
    files: [
      ...matches.flatMap((match) => (match[3] ? [] : [match[1] ?? match[2] ?? ''])),
      ...(listed ? [listed.entry, ...listed.preload].map((href) => href.replace(/^\//, '')) : []),
    ],
  };
}

describe('JavaScript budget of the production build', () => {
  it(`loads at most ${INITIAL_BUDGET_BYTES / 1000} kB gzipped before a page can hydrate its shell`, () => {
    const { html, manifest } = readBuild();
    const loaded = scriptsOf(html).files;
    expect(loaded.length).toBeGreaterThan(0);
    // The default language's shell texts, which the entry loads before the first render (a build
    // that bundles its texts has them in the entry already).
    const shellTexts = manifest['texts-en-shell'] ? closure(manifest, 'texts-en-shell') : [];
    const { total, table } = report('Initial JavaScript', [...loaded, ...shellTexts]);
    expect(total, table).toBeLessThanOrEqual(INITIAL_BUDGET_BYTES);
  });

  it("names only the shell's code, at low priority, in a prerendered page whose content is in its HTML", () => {
    // docs/adr/0099: a browser (and Lighthouse's model of a slow phone) counts every script a page
    // names in its head as competing with its first paint; the home page and the legal pages
    // show what they are from the HTML and the stylesheet, the data code loads after.
    const { manifest } = readBuild();
    const shell = new Set(scriptsOf(readFileSync(path.join(dist, 'index.html'), 'utf8')).files);
    const shellTexts = (language: string) => closure(manifest, `texts-${language}-shell`);
    for (const language of ['en', 'nl']) {
      for (const page of ['index.html', 'terms.html']) {
        const html = readFileSync(path.join(dist, 'pages', language, page), 'utf8');
        const { files, tags } = scriptsOf(html);
        expect(tags.length, `${language}/${page}`).toBeGreaterThan(0);
        expect(
          tags.filter((tag) => !tag.includes('fetchpriority="low"')),
          `${language}/${page}: scripts not at low priority`,
        ).toEqual([]);
        const extra = files.filter((file) => !shell.has(file) && !shellTexts(language).has(file));
        expect(extra, `${language}/${page} names more than the shell's code`).toEqual([]);
      }
    }
  });

  it(`loads at most ${HOME_BUDGET_BYTES / 1000} kB gzipped for a first visit of the home page`, () => {
    const { manifest } = readBuild();
    const files = [
      // The page's entry: the same chunks index.html loads.
      'index.html',
      'texts-en-shell',
      'texts-en-rest',
      'src/app/apolloBoundary.tsx',
      'src/app/apolloClient.ts',
      'src/modules/shell/components/SidebarContent.tsx',
      'src/modules/home/components/HomePage.tsx',
    ].flatMap((key) => [...closure(manifest, key)]);
    const { total, table } = report('Home page, first visit', files);
    expect(total, table).toBeLessThanOrEqual(HOME_BUDGET_BYTES);
  });

  it("gives the gateway the challenge page's queries and a preview that fits its page (docs/adr/0100)", () => {
    const listing = JSON.parse(readFileSync(path.join(dist, 'prerendered.json'), 'utf8')) as {
      queries: Record<string, string>;
      pages: {
        pattern: string;
        language: string;
        file: string;
        preview?: { loader: string; template: string; fields: string[]; placeholder: string };
      }[];
    };
    const { manifest } = readBuild();
    // As the app's cache sends them: the answer written back into it is a complete one.
    expect(Object.keys(listing.queries).sort()).toEqual(['ChallengeBySlug', 'ChallengeVideos']);
    for (const query of Object.values(listing.queries)) expect(query).toContain('__typename');
    const challengePages = listing.pages.filter(
      (page) => page.pattern === '/challenge/:slug/detail',
    );
    expect(challengePages.map((page) => page.language).sort()).toEqual(['en', 'nl']);
    for (const { language, file, preview } of challengePages) {
      const html = readFileSync(path.join(dist, file), 'utf8');
      // The gateway replaces the page's one loader with the preview, each field once.
      expect(html.split(preview!.loader), language).toHaveLength(2);
      for (const field of preview!.fields) {
        expect(preview!.template.split(preview!.placeholder.replace('{name}', field))).toHaveLength(
          2,
        );
      }
      expect(preview!.template).toContain('<h1');
      // One script, deferred and at low priority, which starts the page's own after its first
      // paint; they are the challenge page's code and Apollo's.
      const { tags, files } = scriptsOf(html);
      expect(tags, language).toEqual(['<script src="/page-boot.js" defer fetchpriority="low">']);
      const page = manifest['src/modules/challenge/components/ChallengeDetailPage/index.ts']!.file;
      expect(files, language).toContain(page);
      expect(preview!.template).not.toMatch(/<script|<template/);
    }
    // Only the challenge page has one.
    expect(listing.pages.filter((page) => page.preview)).toHaveLength(2);
  });
});
