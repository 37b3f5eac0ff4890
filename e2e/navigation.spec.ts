import { consentStorageKey } from '../src/config';
import { test, expect, common } from './fixtures';

type DataLayerEntry = unknown[];
const dataLayer = (page: import('@playwright/test').Page) =>
  page.evaluate(() => (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>))) as Promise<
    DataLayerEntry[]
  >;

test.describe('navigation', () => {
  test('a hovered link prefetches the page data of its target', async ({ page }) => {
    // A short viewport keeps the footer out of sight, so nothing prefetches it on visibility.
    await page.setViewportSize({ width: 1000, height: 500 });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const prefetched = page.waitForRequest((request) =>
      request.url().endsWith('/page-data/crypto-locker/page-data.json'),
    );
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: common('en').pages.crypto_locker.nav })
      .hover();
    await prefetched;
  });

  test('client-side navigation reports a page_view with the new path', async ({ page }) => {
    await page.goto('/de/');
    await expect
      .poll(async () => (await dataLayer(page)).some((e) => e[0] === 'event' && e[1] === 'page_view'))
      .toBe(true);
    await page
      .getByRole('navigation', { name: common('de').a11y.mainNavigation })
      .getByRole('link', { name: common('de').pages.fees.nav })
      .click();
    await expect(page).toHaveURL('/de/fees/');
    await expect
      .poll(async () =>
        (await dataLayer(page))
          .filter((e) => e[0] === 'event' && e[1] === 'page_view')
          .map((e) => (e[2] as { page_path: string }).page_path),
      )
      .toEqual(['/de/', '/de/fees/']);
  });

  test('analytics storage stays denied until the visitor accepts the cookie banner', async ({ page }) => {
    await page.goto('/');
    const layer = await dataLayer(page);
    const consentIndex = layer.findIndex((e) => e[0] === 'consent' && e[1] === 'default');
    const configIndex = layer.findIndex((e) => e[0] === 'config');
    expect(consentIndex).toBeGreaterThanOrEqual(0);
    expect(consentIndex).toBeLessThan(configIndex); // defaults apply before gtag is configured
    expect(layer[consentIndex]?.[2]).toMatchObject({ analytics_storage: 'denied' });

    const banner = page.getByRole('region', { name: common('en').cookieBanner.label });
    await banner.getByRole('button', { name: common('en').cookieBanner.accept }).click();
    await expect(banner).toBeHidden();
    expect(await dataLayer(page)).toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);

    // The choice holds on the next visit: the banner stays away and the default is granted.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner).toBeHidden();
    const again = await dataLayer(page);
    expect(again.find((e) => e[0] === 'consent' && e[1] === 'default')?.[2]).toMatchObject({
      analytics_storage: 'granted',
    });
  });

  test("the cookie banner is in the page's HTML: a first-time visitor sees and answers it before the app's scripts run, a visitor who has chosen never sees it, nor one without JavaScript", async ({
    browser,
  }) => {
    // No service worker, so that every script request goes through page.route; the app's scripts never arrive.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.route(/\.js(\?.*)?$/, (route) => route.abort());
    const banner = page.getByRole('region', { name: common('de').cookieBanner.label });
    await page.goto('/de/fees/');
    await expect(banner).toBeVisible();
    // Its buttons work before the app has started (the head script answers them).
    await banner.getByRole('button', { name: common('de').cookieBanner.decline }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate((key) => localStorage.getItem(key), consentStorageKey)).toBe('denied');
    expect(await dataLayer(page)).toContainEqual(['consent', 'update', { analytics_storage: 'denied' }]);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner).toBeHidden();
    await context.close();

    // Without JavaScript there is nothing to consent to, and the buttons could not close it.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto('/de/fees/');
    await expect(plain.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(plain.getByRole('region', { name: common('de').cookieBanner.label })).toBeHidden();
    await noScript.close();
  });

  test('a slow route change shows the localized slow-load notice', async ({ browser }) => {
    // The service worker would fetch page data itself, out of reach of page.route.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    // Short viewport: the footer link is not prefetched on sight, so its data is fetched on click.
    await page.setViewportSize({ width: 1000, height: 500 });
    await page.route('**/page-data/fr/crypto-locker/page-data.json', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.continue();
    });
    await page.goto('/fr/');
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: common('fr').cookieBanner.decline }).click(); // it covers the footer
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: common('fr').pages.crypto_locker.nav })
      .click();
    await expect(page.getByText(common('fr').slowLoad)).toBeVisible();
    await expect(page).toHaveURL('/fr/crypto-locker/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('fr').pages.crypto_locker.title);
    await expect(page.getByText(common('fr').slowLoad)).toBeHidden();
    await context.close();
  });
});
