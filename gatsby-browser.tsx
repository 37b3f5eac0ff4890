import { routeEvents } from './src/components/route-events';
import type { GatsbyBrowser } from 'gatsby';
import './src/styles/tokens.css';
import './src/styles/global.css';

/** A route change that takes over a second shows the localized slow-load notice. */
export const onRouteUpdateDelayed: GatsbyBrowser['onRouteUpdateDelayed'] = () => routeEvents.emit('delayed');
export const onRouteUpdate: GatsbyBrowser['onRouteUpdate'] = () => routeEvents.emit('updated');

/**
 * A new deployment installed a new service worker: reload so the visitor is not stranded on
 * the old build (whose chunks may no longer exist on the server).
 */
export const onServiceWorkerUpdateReady: GatsbyBrowser['onServiceWorkerUpdateReady'] = () => {
  window.location.reload();
};
