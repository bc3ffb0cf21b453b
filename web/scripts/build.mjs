// `npm run build`: the browser's build into dist/, then the prerender of the public pages
// (src/prerender.tsx, docs/adr/0081) into dist/pages/<language>/, listed in dist/prerendered.json
// for the gateway, which sends them (gateway/src/web.ts) and lets the browser hydrate them.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

/** The file a page's HTML goes to, below dist/pages/<language>/. */
const fileNameOf = (pattern) =>
  pattern === '/'
    ? 'index.html'
    : `${pattern.slice(1).replaceAll(':', '').replaceAll('/', '_')}.html`;

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The chunk files of manifest entries and of everything they import statically. */
function chunksOf(manifest, keys, into = new Set()) {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build has no module ${key} (moved? see src/prerender.tsx)`);
    if (into.has(chunk.file)) continue;
    into.add(chunk.file);
    chunksOf(manifest, chunk.imports ?? [], into);
  }
  return into;
}

/**
 * `<link rel="modulepreload">` for the given chunks that the page does not load already: fetched
 * beside the shell's code rather than after it has run.
 */
function withPreloads(html, files) {
  const links = [...files]
    .filter((file) => !html.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('\n    ');
  return links ? html.replace('</head>', `    ${links}\n  </head>`) : html;
}

/**
 * A prerendered page paints from its HTML and the stylesheet alone: its scripts (the entry, the
 * shell's chunks, the data chunks the page names) load at low priority, so that they never
 * compete with the stylesheet or the page's images, and a browser (or Lighthouse's model of a
 * slow phone) does not hold the first paint for them (docs/adr/0099). The empty app (index.html)
 * keeps the default priority: it shows nothing before its scripts ran.
 */
function withLowPriorityScripts(html) {
  const marked = html.replace(
    /<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g,
    '<$1 fetchpriority="low"',
  );
  if (marked === html) throw new Error('a prerendered page names no script');
  return marked;
}

/**
 * A page with a preview (the challenge page) paints from its HTML and the stylesheet alone, and
 * its scripts start after that first paint (docs/adr/0100): the entry and the modules the page names for download
 * go into a JSON list (`#page-scripts`) that `public/page-boot.js`, the page's one script (at
 * low priority), turns into the same `<script>` and `<link rel="modulepreload">` once the page
 * has painted. So they never share a slow line with the stylesheet and the page's largest paint.
 * Only there: on the home page it moved all of hydration's work after the first paint, where
 * Lighthouse counts it as blocking (desktop home 97 to 77; ADR 100), for a largest paint that
 * is in its HTML already. The empty app keeps its scripts as they are.
 */
function withScriptsAfterFirstPaint(html) {
  const entry = /\s*<script type="module" crossorigin src="(\/assets\/[^"]+)"><\/script>/.exec(
    html,
  );
  if (!entry) throw new Error('a prerendered page names no entry script');
  const preload = [];
  const stripped = html
    .replace(entry[0], '')
    .replace(
      /\s*<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+)">/g,
      (_tag, href) => {
        preload.push(href);
        return '';
      },
    );
  if (/<script type="module"|rel="modulepreload"/.test(stripped)) {
    throw new Error('a prerendered page names a script the boot list does not hold');
  }
  const list = JSON.stringify({ entry: entry[1], preload }).replace(/</g, '\\u003c');
  return stripped.replace(
    '</head>',
    () =>
      `  <script type="application/json" id="page-scripts">${list}</script>\n` +
      `    <script src="/page-boot.js" defer fetchpriority="low"></script>\n  </head>`,
  );
}

/** The browser build's index.html with the page's language, title, description and HTML. */
function pageHtml(template, language, { html, meta }) {
  const replace = (text, pattern, replacement) => {
    if (!pattern.test(text)) throw new Error(`index.html lacks ${pattern}`);
    return text.replace(pattern, () => replacement);
  };
  let page = replace(template, /<html lang="[a-z]+"/, `<html lang="${language}"`);
  if (meta) {
    page = replace(page, /<title>[^<]*<\/title>/, `<title>${escapeHtml(meta.title)}</title>`);
    if (meta.description !== undefined) {
      page = replace(
        page,
        /<meta\s+name="description"\s+content="[^"]*"\s*\/>/,
        `<meta name="description" content="${escapeHtml(meta.description)}" />`,
      );
    }
  }
  return replace(page, /<div id="root"><\/div>/, `<div id="root">${html}</div>`);
}

await build({ root, logLevel: 'warn' });

/**
 * The page's preview template (src/prerender.tsx, docs/adr/0100), checked against the page: the
 * gateway replaces the loader's markup, which must be there exactly once.
 */
let prerender;
function previewOf(html, language) {
  const preview = prerender.renderPreview(language);
  if (html.split(preview.loader).length !== 2) {
    throw new Error(`the ${language} challenge page has not exactly one loader for its preview`);
  }
  return { ...preview, placeholder: prerender.previewPlaceholder('{name}') };
}

// Inside the workspace, so that the server bundle finds react and the rest in node_modules.
const serverDir = path.join(root, 'node_modules', '.cache', 'prerender');
try {
  await build({
    root,
    logLevel: 'warn',
    build: { ssr: 'src/prerender.tsx', outDir: serverDir, emptyOutDir: true, sourcemap: false },
  });
  prerender = await import(pathToFileURL(path.join(serverDir, 'prerender.js')).href);
  const chunks = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8'));
  // The empty app: the default language's shell texts, which the entry awaits, come along.
  const template = withPreloads(
    await readFile(path.join(dist, 'index.html'), 'utf8'),
    chunksOf(chunks, ['texts-en-shell']),
  );
  await writeFile(path.join(dist, 'index.html'), template);
  const pages = [];
  for (const language of prerender.PRERENDERED_LANGUAGES) {
    await mkdir(path.join(dist, 'pages', language), { recursive: true });
    // The page's language: its texts, not the default's.
    const base = template.replace(
      /\n\s*<link rel="modulepreload" crossorigin href="\/assets\/_texts-en-shell-[^"]+">/,
      '',
    );
    for (const { pattern, dataModule, preview } of prerender.PRERENDERED_PAGES) {
      const rendered = await prerender.renderPage(pattern, language);
      const file = path.posix.join('pages', language, fileNameOf(pattern));
      const preloads = chunksOf(chunks, [
        `texts-${language}-shell`,
        ...(dataModule ? [`texts-${language}-rest`, ...prerender.DATA_MODULES, dataModule] : []),
      ]);
      const named = withPreloads(pageHtml(base, language, rendered), preloads);
      const html = preview ? withScriptsAfterFirstPaint(named) : withLowPriorityScripts(named);
      await writeFile(path.join(dist, file), html);
      pages.push({
        pattern,
        language,
        file,
        ...(preview ? { preview: previewOf(html, language) } : {}),
      });
    }
  }
  const listing = {
    placeholder: prerender.paramPlaceholder('{name}'),
    pages,
    // The pages' queries the gateway answers into a page (docs/adr/0100).
    queries: prerender.pageQueries(),
  };
  await writeFile(path.join(dist, 'prerendered.json'), `${JSON.stringify(listing, null, 2)}\n`);
  console.log(`prerendered ${pages.length} pages into ${path.relative(root, dist)}/pages`);
} finally {
  await rm(serverDir, { recursive: true, force: true });
}
