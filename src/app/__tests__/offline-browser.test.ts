import { onPostPrefetchPathname, onServiceWorkerActive } from '../offline-browser';

/**
 * The service worker learns which files each page needs and caches them through prefetch links
 * (gatsby-plugin-offline's browser part, replaced by ours): the links are added in idle time,
 * not all at once when the worker activates.
 */
describe('offline browser part', () => {
  let idle: ((deadline: { timeRemaining: () => number }) => void)[];
  const resources: Record<string, string[]> = { '/fees/': ['/page-data/fees/page-data.json', '/component---fees.js'] };
  const getResourceURLsForPathname = (path: string) => resources[path] ?? [];
  const worker = () => {
    const active = { postMessage: jest.fn() };
    return { active, registration: { active } as unknown as ServiceWorkerRegistration };
  };
  const prefetchLinks = () =>
    [...document.head.querySelectorAll('link[rel="prefetch"]')].map((link) => link.getAttribute('href'));

  beforeEach(() => {
    idle = [];
    Object.assign(window, { requestIdleCallback: (run: (typeof idle)[number]) => idle.push(run) });
    Object.defineProperty(navigator, 'serviceWorker', { value: { controller: null }, configurable: true });
    document.head.innerHTML = '<style data-href="/styles.css"></style><link rel="icon" href="/favicon.png">';
  });
  afterEach(() => {
    delete (window as Partial<Window>).requestIdleCallback;
    delete (window as { ___swUpdated?: boolean }).___swUpdated;
  });

  it("caches the page's own files and those of pages prefetched before the worker took over, in idle time", () => {
    onPostPrefetchPathname!({ pathname: '/fees/', getResourceURLsForPathname }, { plugins: [] });
    const { active, registration } = worker();
    onServiceWorkerActive!({ serviceWorker: registration, getResourceURLsForPathname }, { plugins: [] });
    expect(active.postMessage).toHaveBeenCalledWith({
      gatsbyApi: 'setPathResources',
      path: '/fees/',
      resources: resources['/fees/'],
    });
    // Nothing is added while the page is busy; an idle period with room for two adds two.
    expect(prefetchLinks()).toEqual([]);
    let room = 2;
    idle.shift()!({ timeRemaining: () => (--room > 0 ? 10 : 0) });
    expect(prefetchLinks()).toEqual(['/styles.css', '/page-data/fees/page-data.json']);
    idle.shift()!({ timeRemaining: () => 10 });
    expect(prefetchLinks()).toEqual(['/styles.css', '/page-data/fees/page-data.json', '/component---fees.js']);
  });

  it('after a worker update, tells the worker to forget the old build instead', () => {
    (window as { ___swUpdated?: boolean }).___swUpdated = true;
    const { active, registration } = worker();
    onServiceWorkerActive!({ serviceWorker: registration, getResourceURLsForPathname }, { plugins: [] });
    expect(active.postMessage).toHaveBeenCalledWith({ gatsbyApi: 'clearPathResources' });
    expect(idle).toHaveLength(0);
  });
});
