import * as React from 'react';
import { splitLanguage } from '#domain/languages';
import { handleChunkFailures, trackNavigations } from './src/app/chunk-failure';
import { currentConnection, prefetchAllowed } from './src/app/connection';
import { PAGE_CHUNKS_FILE, chunkMappingOf, completeChunkMapping, type ChunkMapping } from './src/app/page-chunks';
import { HydrationPart } from './src/app/page-part';
import { routeEvents } from './src/app/route-events';
import { queueWhenIdle, whenIdle } from './src/ui/when-idle';
import type { GatsbyBrowser } from 'gatsby';
import './src/styles/tokens.css';
import './src/styles/global.css';

type Loader = {
  enqueue: (path: string) => unknown;
  prefetch: (path: string) => unknown;
  hovering: (path: string) => unknown;
  loadPage: (path: string) => Promise<unknown>;
};
type GatsbyWindow = Window & { ___loader?: Loader; ___chunkMapping?: unknown; ___webpackCompilationHash?: string };

// A page chunk that fails to load sends the visitor to the page they clicked (app/chunk-failure.ts).
// At module scope, so that it listens before Gatsby's navigation module, which imports this file.
if (typeof window !== 'undefined') handleChunkFailures(window);

let sharedChunks: Promise<void> | undefined;
/** Adds each page's shared scripts to what Gatsby prefetches, once a visit (app/page-chunks.ts). */
function completeChunks(win: GatsbyWindow): Promise<void> {
  sharedChunks ??= fetch(`${PAGE_CHUNKS_FILE}?v=${win.___webpackCompilationHash ?? ''}`)
    .then((response) => (response.ok ? (response.json() as Promise<ChunkMapping>) : {}))
    .catch(() => ({}))
    .then((shared) => {
      win.___chunkMapping = completeChunkMapping(chunkMappingOf(win.___chunkMapping), shared);
    });
  return sharedChunks;
}

/**
 * On 2g or in data-saver mode nothing is fetched ahead (docs/decisions/0012), hover included: gatsby-link
 * calls `___loader.hovering` on mouse enter, which loads the page's data whatever the
 * connection, and `enqueue` when a link scrolls into view. Every link on the site goes through
 * these, so the rule (app/connection.ts) is applied here, once. What is prefetched is
 * the whole page, shared scripts included, so that it also opens offline. The links in view all
 * ask at once; each prefetch starts in idle time, a few at a time (queueWhenIdle).
 */
export const onClientEntry: GatsbyBrowser['onClientEntry'] = () => {
  registerServiceWorkerWhenIdle();
  const win = window as GatsbyWindow;
  const loader = win.___loader;
  if (!loader) return;
  trackNavigations(loader);
  win.___chunkMapping = chunkMappingOf(win.___chunkMapping);
  const { hovering } = loader;
  loader.hovering = (path) => (prefetchAllowed(currentConnection()) ? hovering(path) : undefined);
  for (const name of ['enqueue', 'prefetch'] as const) {
    const original = loader[name];
    loader[name] = (path) => {
      if (!prefetchAllowed(currentConnection())) return undefined;
      // gatsby-link keeps the answer to abort the prefetch when the link leaves the screen.
      let aborted = false;
      let started: { abort?: () => void } | undefined;
      void completeChunks(win).then(() =>
        queueWhenIdle(() => {
          if (!aborted) started = original(path) as typeof started;
        }),
      );
      return { abort: () => ((aborted = true), started?.abort?.()) };
    };
  }
};

/**
 * gatsby-plugin-offline registers the service worker right after this hook, while the page is
 * still starting: its install then downloads every precached file alongside the page's own, and
 * its activation prefetches every resource of the page at once, in tasks long enough to delay a
 * tap on a phone. Registering once the page has loaded and is idle (as web.dev advises) changes
 * nothing else: the first visit is cached for offline use a moment later.
 */
function registerServiceWorkerWhenIdle() {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!container) return;
  const register = container.register.bind(container);
  container.register = (url, options) =>
    new Promise((resolve, reject) => whenIdle(() => void register(url, options).then(resolve, reject), 5000));
}

/** A route change that takes over a second shows the localized slow-load notice. */
export const onRouteUpdateDelayed: GatsbyBrowser['onRouteUpdateDelayed'] = () => routeEvents.emit('delayed');

/**
 * The service worker keeps the language of the page last seen, for the offline page of an
 * address without a language prefix (sw-offline script in src/i18n/offline-page.ts).
 */
export const onRouteUpdate: GatsbyBrowser['onRouteUpdate'] = ({ location }) => {
  routeEvents.emit('updated');
  navigator.serviceWorker?.controller?.postMessage({ muntlyLanguage: splitLanguage(location.pathname).language });
};

/**
 * A new deployment installed a new service worker: reload so the visitor is not stranded on
 * the old build (whose chunks may no longer exist on the server).
 */
export const onServiceWorkerUpdateReady: GatsbyBrowser['onServiceWorkerUpdateReady'] = () => {
  window.location.reload();
};

/** Every page hydrates as a part of its own (app/page-part.tsx); the same in gatsby-ssr. */
export const wrapPageElement: GatsbyBrowser['wrapPageElement'] = ({ element }) => (
  <HydrationPart>{element}</HydrationPart>
);
