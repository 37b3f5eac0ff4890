import { test, expect, common, openLanguages } from './fixtures';

test.describe('language switch', () => {
  test('keeps the current page when switching language', async ({ page }) => {
    await page.goto('/exchange/buy/');
    const languagesNav = await openLanguages(page, 'en');
    await languagesNav.getByRole('link', { name: 'Deutsch' }).click();
    await expect(page).toHaveURL('/de/exchange/buy/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('de').pages.exchange_buy.title);

    const deNav = await openLanguages(page, 'de');
    await deNav.getByRole('link', { name: 'Українська' }).click();
    await expect(page).toHaveURL('/uk/exchange/buy/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('uk').pages.exchange_buy.title);

    const ukNav = await openLanguages(page, 'uk');
    await ukNav.getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL('/exchange/buy/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('works on the not-found page and keeps the missing path', async ({ page }) => {
    const response = await page.goto('/uk/some/missing/page/');
    expect(response?.status()).toBe(404);
    const ukNav = await openLanguages(page, 'uk');
    await expect(ukNav.getByRole('link', { name: 'Deutsch' })).toHaveAttribute('href', '/de/some/missing/page/');
    await ukNav.getByRole('link', { name: 'Deutsch' }).click();
    await expect(page).toHaveURL('/de/some/missing/page/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('de').notFound.heading);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');

    const deNav = await openLanguages(page, 'de');
    await deNav.getByRole('link', { name: 'Русский' }).click();
    await expect(page).toHaveURL('/ru/some/missing/page/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('ru').notFound.heading);
  });
});
