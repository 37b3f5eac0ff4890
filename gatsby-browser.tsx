import { splitLanguage } from './domain/languages';
import { currentConnection, prefetchAllowed } from './src/components/connection';
import { routeEvents } from './src/components/route-events';
import type { GatsbyBrowser } from 'gatsby';
import './src/styles/global.css';

type Loader = { enqueue: (path: string) => unknown; prefetch: (path: string) => unknown; hovering: (path: string) => unknown };

/**
 * On 2g or in data-saver mode nothing is fetched ahead (spec §2), hover included: gatsby-link
 * calls `___loader.hovering` on mouse enter, which loads the page's data whatever the
 * connection, and `enqueue`/`prefetch` when a link scrolls into view. Every link on the site
 * goes through these three, so the rule (components/connection.ts) is applied here, once.
 */
export const onClientEntry: GatsbyBrowser['onClientEntry'] = () => {
  const loader = (window as unknown as { ___loader?: Loader }).___loader;
  if (!loader) return;
  for (const name of ['enqueue', 'prefetch', 'hovering'] as const) {
    const original = loader[name];
    loader[name] = (path: string) => (prefetchAllowed(currentConnection()) ? original(path) : undefined);
  }
};

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
