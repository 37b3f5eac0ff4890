import { test, expect, common } from './fixtures';

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
});
