import { test, expect, common } from './fixtures';

/**
 * A page's component chunk that cannot be fetched (a deploy replaced it, the network dropped it)
 * must not strand the visitor: clicking a link to that page loads the page they clicked, by a
 * full load of its address, and a chunk that keeps failing does not reload it again and again.
 */
test.describe('a failed page chunk', () => {
  // The service worker would fetch the chunks itself, out of page.route's reach.
  test.use({ serviceWorkers: 'block' });
  test('a click on a link whose page chunk fails lands on that page, once', async ({ page }) => {
    const blocked: string[] = [];
    // Only the fees page's own component chunk fails, on every try (prefetch, click, full load).
    await page.route(/\/component---src-pages-fees-tsx-[0-9a-f]+\.js$/, (route) => {
      blocked.push(route.request().url());
      return route.abort('failed');
    });
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame())
        documents.push(new URL(request.url()).pathname);
    });

    await page.goto('/');
    await page.waitForLoadState('networkidle');
    await page
      .getByRole('navigation', { name: common('en').a11y.mainNavigation })
      .getByRole('link', { name: common('en').pages.fees.nav })
      .click();

    await expect(page).toHaveURL('/fees/');
    // The fees page itself, as the server rendered it, not the home page reloaded.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('en').pages.fees.title);
    expect(blocked.length).toBeGreaterThan(0);
    // Settled: one full load of the target after the first document, and no loop.
    await page.waitForTimeout(3000);
    expect(documents).toEqual(['/', '/fees/']);
  });
});
