import { test, expect, common, localizePath, routes, type RouteName } from './fixtures';
import type { Language } from '#domain/languages';
import type { BrowserContext, Page } from '@playwright/test';

/** Opens `path` and waits until the service worker controls the page and has cached what it loaded. */
async function underServiceWorker(page: Page, path: string) {
  await page.goto(path);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await page.waitForLoadState('networkidle');
}

/** The page-data files the page asked for, by page path ("/de/fees/"). */
function pageDataRequests(page: Page | BrowserContext): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const match = /\/page-data(\/.*?)\/?page-data\.json/.exec(new URL(request.url()).pathname);
    if (match) paths.push(match[1] === '/index' ? '/' : `${match[1]}/`);
  });
  return paths;
}

test.describe('offline support', () => {
  test('the service worker registers on localhost and a visited page opens offline', async ({ page, context }) => {
    await page.goto('/nl/fees/');
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(new URL(scope).pathname).toBe('/');
    const sw = await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.active?.scriptURL));
    expect(sw).toMatch(/\/sw\.js$/);

    // Once the worker controls the page, its resources are cached as they load.
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.waitForLoadState('networkidle');

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('nl').pages.fees.title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await context.setOffline(false);
  });

  for (const language of ['en', 'de'] as Language[]) {
    test(`offline, a page never visited says so in ${language}, and opens once the connection is back`, async ({
      page,
      context,
    }) => {
      const texts = common(language).offline;
      const requested = pageDataRequests(page);
      await underServiceWorker(page, localizePath(routes.fees, language));
      const target = localizePath(routes.exchange_swap, language);
      expect(requested).not.toContain(target);

      await context.setOffline(true);
      await page.goto(target);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.heading);
      await expect(page.getByText(texts.text)).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // The address stays the page's, so "try again" (or the connection coming back) opens it.
      expect(new URL(page.url()).pathname).toBe(target);
      const retry = page.getByRole('link', { name: texts.retry });
      expect(await retry.evaluate((link) => (link as HTMLAnchorElement).href)).toBe(page.url());

      // Back online, the page opens by itself (the browser's "online" event) or on "try again".
      // Each try gets ten seconds: on a busy machine loading the page can take longer than two,
      // and a click while it loads starts it over (a CI run spent the test's two minutes in this
      // loop). The bound makes a failure report what the page showed, not just the timeout.
      await context.setOffline(false);
      await expect(async () => {
        if (await retry.isVisible()) await retry.click();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(common(language).pages.exchange_swap.title, {
          timeout: 10_000,
        });
      }).toPass({ timeout: 60_000 });
    });
  }

  test('offline, following a link to a page never loaded shows the offline page, not a blank one', async ({
    page,
    context,
  }) => {
    await underServiceWorker(page, '/de/fees/');
    await context.setOffline(true);
    // A client-side navigation whose page data cannot load reloads the address (docs/decisions/0012), which
    // the worker answers with the offline page.
    await page.evaluate(
      (to) => (window as unknown as { ___navigate: (to: string) => void }).___navigate(to),
      '/de/exchange/swap/',
    );
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('de').offline.heading);
    await context.setOffline(false);
  });

  test('a page that was only prefetched opens offline', async ({ page, context }) => {
    const requested = pageDataRequests(page);
    await underServiceWorker(page, '/de/');
    // A link in view or hovered is prefetched by Gatsby; the fees page is never opened.
    const target: RouteName = 'fees';
    const path = localizePath(routes[target], 'de');
    // In view, Gatsby prefetches it when the browser is idle (a hover would load it instead, which
    // the worker does not count as prefetched); on a busy machine that can take a while.
    await page.locator(`a[href="${path}"]`).first().scrollIntoViewIfNeeded();
    await expect.poll(() => requested, { timeout: 30_000 }).toContain(path);
    // Prefetching is done once the worker holds what it checks before it answers an address offline
    // (gatsby-plugin-offline's sw-append.js): the page's list of resources, kept in IndexedDB
    // (idb-keyval's store), and every resource on it in its caches — the page's data, its
    // component's script and the scripts it shares. On a busy machine the last ones take a while.
    const cached = () =>
      page.evaluate(async (pagePath) => {
        const resources = await new Promise<string[] | undefined>((resolve) => {
          const open = indexedDB.open('keyval-store');
          open.onerror = () => resolve(undefined);
          open.onsuccess = () => {
            try {
              const read = open.result
                .transaction('keyval', 'readonly')
                .objectStore('keyval')
                .get(`resources:${pagePath}`);
              read.onsuccess = () => resolve(read.result as string[] | undefined);
              read.onerror = () => resolve(undefined);
            } catch {
              resolve(undefined); // the worker has not made its store yet
            }
          };
        });
        if (!resources?.some((url) => url.includes('component---src-pages-fees'))) return false;
        for (const url of resources) if (!(await caches.match(url))) return false;
        return true;
      }, path);
    await expect.poll(cached, { timeout: 60_000 }).toBe(true);

    await context.setOffline(true);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('de').pages[target].title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await context.setOffline(false);
  });
});

test.describe('slow connections', () => {
  // The page's own requests, without a worker answering for it.
  test.use({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });

  const connections = {
    '2g': { effectiveType: '2g', saveData: false },
    'data saver': { effectiveType: '4g', saveData: true },
  };
  for (const [name, connection] of Object.entries(connections)) {
    test(`on ${name}, neither seeing nor hovering a link fetches its page data`, async ({ page }) => {
      await page.addInitScript((value) => {
        Object.defineProperty(Navigator.prototype, 'connection', {
          configurable: true,
          get: () => ({ ...value, addEventListener() {}, removeEventListener() {} }),
        });
      }, connection);
      const requested = pageDataRequests(page);
      await page.goto('/de/');
      await page.waitForLoadState('networkidle');
      await page
        .getByRole('banner')
        .getByRole('link', { name: common('de').pages.fees.nav })
        .hover();
      await page
        .getByRole('banner')
        .getByRole('link', { name: common('de').pages.rates.nav })
        .hover();
      await page.waitForTimeout(1000);
      expect(requested.filter((path) => path !== '/de/')).toEqual([]);
    });
  }

  test('on a fast connection, links in view and hovered are fetched ahead', async ({ page }) => {
    const requested = pageDataRequests(page);
    await page.goto('/de/');
    await page
      .getByRole('banner')
      .getByRole('link', { name: common('de').pages.fees.nav })
      .hover();
    await expect.poll(() => requested).toContain('/de/fees/');
  });
});
