import { queueWhenIdle } from '../ui/when-idle';
import type { GatsbyBrowser } from 'gatsby';

/**
 * gatsby-plugin-offline's browser part (its gatsby-browser.js, version 6.16), which the build
 * uses in its place (gatsby-node.ts, onCreateWebpackConfig). It sends the service worker the
 * same messages. The difference is how the worker is asked to cache the page's own files and
 * those of the pages prefetched before it took over: the plugin adds a `<link rel="prefetch">`
 * for each of them (Workbox caches what they fetch) all in one task when the worker activates, a
 * few dozen links on a page whose links in view were prefetched, about 20 ms on a fast machine
 * and several times that on a phone, a second or two after the page loaded. Here each link is
 * added in idle time (queueWhenIdle), so the page answers a tap meanwhile.
 */

type GatsbyWindow = Window & { ___swUpdated?: boolean };
type ResourcesOf = (pathname: string) => string[];

/** The head's own files the worker should keep: scripts, stylesheets, preloads, inlined styles. */
const CACHED_LINK_RELS = /^(stylesheet|preload)$/;

/** Pages prefetched before a worker controlled this page: their files are cached once one does. */
const prefetchedPathnames: string[] = [];

export const registerServiceWorker: GatsbyBrowser['registerServiceWorker'] = () =>
  process.env.GATSBY_IS_PREVIEW !== 'true';

export const onServiceWorkerActive: GatsbyBrowser['onServiceWorkerActive'] = ({
  getResourceURLsForPathname,
  serviceWorker,
}) => {
  if (process.env.GATSBY_IS_PREVIEW === 'true') return;
  const active = serviceWorker.active;
  if (!active) return;
  // A new worker replaced the one this page started with: the page is from the old build, whose
  // files must not be cached as the new build's.
  if ((window as GatsbyWindow).___swUpdated) {
    active.postMessage({ gatsbyApi: 'clearPathResources' });
    return;
  }
  const resourcesOf = getResourceURLsForPathname as ResourcesOf;
  const nodes = document.querySelectorAll<HTMLScriptElement | HTMLLinkElement | HTMLStyleElement>(
    'head > script[src], head > link[href], head > style[data-href]',
  );
  const headResources = [...nodes]
    .filter((node) => node.tagName !== 'LINK' || CACHED_LINK_RELS.test(node.getAttribute('rel') ?? ''))
    .map((node) => ('src' in node && node.src) || ('href' in node && node.href) || node.getAttribute('data-href'))
    .filter((url): url is string => Boolean(url));
  const prefetchedResources = prefetchedPathnames.flatMap((path) => {
    const resources = resourcesOf(path);
    active.postMessage({ gatsbyApi: 'setPathResources', path, resources });
    return resources;
  });
  for (const resource of [...headResources, ...prefetchedResources]) queueWhenIdle(() => prefetchForCache(resource));
};

/** A prefetch link the worker's runtime caching stores the answer of; it goes once it is done. */
function prefetchForCache(url: string) {
  const link = document.createElement('link');
  link.rel = 'prefetch';
  link.href = url;
  link.onload = link.onerror = () => link.remove();
  document.head.appendChild(link);
}

/** Tells the worker which files a page needs (it serves the page offline only when all are cached). */
function setPathResources(path: string, resourcesOf: ResourcesOf) {
  // Just after a worker update the page still runs the old build: nothing of it is recorded.
  if ((window as GatsbyWindow).___swUpdated || !('serviceWorker' in navigator)) return;
  const controller = navigator.serviceWorker.controller;
  if (controller === null) prefetchedPathnames.push(path);
  else controller.postMessage({ gatsbyApi: 'setPathResources', path, resources: resourcesOf(path) });
}

export const onRouteUpdate: GatsbyBrowser['onRouteUpdate'] = ({ location, getResourceURLsForPathname }) => {
  // The site has no path prefix, so the pathname is the page's path.
  setPathResources(location.pathname, getResourceURLsForPathname as ResourcesOf);
  navigator.serviceWorker?.controller?.postMessage({ gatsbyApi: 'enableOfflineShell' });
};

export const onPostPrefetchPathname: GatsbyBrowser['onPostPrefetchPathname'] = ({
  pathname,
  getResourceURLsForPathname,
}) => {
  setPathResources(pathname, getResourceURLsForPathname as ResourcesOf);
};
