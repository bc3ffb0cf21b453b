/**
 * The build's prerender (scripts/build.mjs, docs/adr/0081): the public pages' shell rendered to
 * HTML with react-dom/server, in both languages, for the gateway to send before any script has
 * run; the browser then hydrates it (main.tsx). A page renders as a first visit sees it before
 * any data: the session and the lists still loading (their places kept), no dialog open.
 * Built for Node by Vite (the same CSS module names as the browser's build); never shipped.
 */
import { ApolloClient, ApolloLink, InMemoryCache, type DocumentNode } from '@apollo/client';
import { print } from '@apollo/client/utilities';
import { Observable } from 'rxjs';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { createApolloSource } from './app/apolloSource';
import { AppProviders } from './app/AppProviders';
import { createI18n, registerTranslations } from './app/i18n';
import { appRoutes } from './app/routes';
import type { AppLanguage } from './lib/locale';
import { PageMetaCollector, type PageMeta } from './lib/usePageMeta';
import en from './locales/en.json';
import nl from './locales/nl.json';
import { ChallengeBySlugDocument } from './modules/challenge/graphql/ChallengeBySlug';
import { ChallengeVideosDocument } from './modules/challenge/graphql/ChallengeVideos';
import {
  ChallengePreview,
  PREVIEW_FIELDS,
} from './modules/challenge/components/ChallengeDetailPage/ChallengePreview';
import { createVerifyingUserStore } from './modules/auth/components/VerifyingUserProvider';
import { PageLoader } from './ui/PageLoader';
import { createToastStore } from './ui/toast/toastStore';

registerTranslations('en', en);
registerTranslations('nl', nl);

/**
 * A route parameter's stand-in: the gateway puts the requested value in its place, and only a
 * value made of characters that read the same in a URL, an attribute and text (web.ts). Lower
 * case letters and dashes, at most 30 characters: a value every page's own validation of its
 * parameter accepts (a slug, a username), or the page prerenders as "Page Not Found".
 */
export const paramPlaceholder = (name: string) => `prerendered-${name}-param`;

export interface PrerenderedPage {
  /** The route pattern (app/routePaths.ts) the page answers. */
  pattern: string;
  /**
   * Set on a page whose main content waits for its data (a challenge, a profile): its module (the
   * one routes.tsx loads for it), whose code the page names for download, with Apollo's and the
   * texts, beside the shell's (scripts/build.mjs); the build fails when it is gone. A page whose
   * content is in its prerendered HTML (the home page's hero, the legal pages) names only the
   * shell's code: nothing else competes with its first paint (docs/adr/0099).
   */
  dataModule?: string;
  /** The page has a preview the gateway fills from its data (renderPreview). */
  preview?: true;
}

/** The pages a visitor lands on from outside: the home page, challenges, profiles, the legal pages. */
const PROFILE = 'src/modules/profile/components/Profile.tsx';
export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { pattern: '/' },
  { pattern: '/terms' },
  { pattern: '/cookies' },
  { pattern: '/contact' },
  {
    pattern: '/challenge/:slug/detail',
    dataModule: 'src/modules/challenge/components/ChallengeDetailPage/index.ts',
    preview: true,
  },
  { pattern: '/profile/:username/ongoing-challenges', dataModule: PROFILE },
  { pattern: '/profile/:username/completed-challenges', dataModule: PROFILE },
  { pattern: '/profile/:username/uploaded-videos', dataModule: PROFILE },
  { pattern: '/profile/:username/respected-videos', dataModule: PROFILE },
];

/** What every page of the default layout needs beyond the shell: Apollo, the sidebar. */
export const DATA_MODULES: readonly string[] = [
  'src/app/apolloBoundary.tsx',
  'src/app/apolloClient.ts',
  'src/modules/shell/components/SidebarContent.tsx',
];

/**
 * The pages' own queries the gateway may answer into a page (gateway/src/page-subjects.ts,
 * docs/adr/0100), by operation name, as the app's cache sends them (with `__typename`): what the
 * gateway puts into the page is then exactly what the page's own query would have received.
 */
export function pageQueries(): Record<string, string> {
  const cache = new InMemoryCache();
  const documents: DocumentNode[] = [ChallengeBySlugDocument, ChallengeVideosDocument];
  return Object.fromEntries(
    documents.map((document) => {
      const operation = document.definitions.find(
        (definition) => definition.kind === 'OperationDefinition',
      );
      if (operation?.kind !== 'OperationDefinition' || !operation.name) {
        throw new Error('a page query has no name');
      }
      return [operation.name.value, print(cache.transformDocument(document))];
    }),
  );
}

/** A preview field's stand-in in the preview's template (the gateway writes the value there). */
export const previewPlaceholder = (name: string) => `prerendered-preview-${name}`;

export interface PreviewTemplate {
  /** The markup of the loader the prerendered page shows in the preview's place. */
  loader: string;
  /** The preview's markup, a placeholder for each field. */
  template: string;
  fields: readonly string[];
}

/**
 * The challenge page's preview as a template (docs/adr/0100): the gateway puts it, with the
 * visitor's challenge, in the place of the page's loader when it put the page's data into it;
 * the browser's hydration renders the same component from that data (ChallengeDetail.tsx).
 */
export function renderPreview(language: AppLanguage): PreviewTemplate {
  const i18n = createI18n(language, { document: false });
  const render = (node: ReactNode) =>
    renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
  const values = Object.fromEntries(
    PREVIEW_FIELDS.map((field) => [field, previewPlaceholder(field)]),
  ) as Record<(typeof PREVIEW_FIELDS)[number], string>;
  return {
    loader: render(<PageLoader />),
    template: render(<ChallengePreview {...values} />),
    fields: PREVIEW_FIELDS,
  };
}

export const PRERENDERED_LANGUAGES: readonly AppLanguage[] = ['en', 'nl'];

export interface RenderedPage {
  /** The HTML of the app's root element. */
  html: string;
  meta: PageMeta | null;
}

/** No request ever leaves the prerender: every query stays loading, as on a first visit. */
const silentLink = new ApolloLink(() => new Observable(() => undefined));

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

export async function renderPage(pattern: string, language: AppLanguage): Promise<RenderedPage> {
  const path = pattern.replace(/:(\w+)/g, (_match, name: string) => paramPlaceholder(name));
  const handler = createStaticHandler(appRoutes);
  const context = await handler.query(new Request(`http://prerender.invalid${path}`));
  if (context instanceof Response) throw new Error(`${pattern} answers a redirect`);
  if (context.statusCode !== 200) throw new Error(`${pattern} answers ${context.statusCode}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const client = new ApolloClient({
    link: silentLink,
    cache: new InMemoryCache(),
    defaultOptions: {
      watchQuery: { errorPolicy: 'all' },
      query: { errorPolicy: 'all' },
      mutate: { errorPolicy: 'all' },
    },
  });
  let meta: PageMeta | null = null;
  // The same providers as App.tsx, around the static router instead of the browser's.
  const tree: ReactNode = (
    <PageMetaCollector value={(collected) => void (meta = collected)}>
      <AppProviders
        i18n={createI18n(language, { document: false })}
        toasts={createToastStore()}
        apollo={createApolloSource(() => Promise.resolve(client))}
        verifyingUser={createVerifyingUserStore()}
      >
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </PageMetaCollector>
  );
  const errors: unknown[] = [];
  // Waits for every page's and component's code (and Apollo's) to load: the whole page, no fallback.
  const { prelude } = await prerenderToNodeStream(tree, {
    onError: (error) => void errors.push(error),
    // Every boundary inline, however large (the terms): React would otherwise reveal a large one
    // with an inline script, which the pages' Content-Security-Policy forbids.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  const html = await readAll(prelude);
  if (errors.length > 0) throw new AggregateError(errors, `prerendering ${pattern} failed`);
  // A script in the page would be refused by the Content-Security-Policy (no inline scripts).
  if (/<script|<template/.test(html)) throw new Error(`${pattern} prerendered with a script`);
  client.stop();
  return { html, meta };
}
