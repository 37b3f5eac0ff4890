import { test, expect, languages, common, localizePath, routes } from './fixtures';

test.describe('not-found pages', () => {
  for (const language of languages) {
    test(`an unknown path in ${language} answers 404 with the ${language} not-found page`, async ({ page }) => {
      const response = await page.goto(localizePath('/no/such/page/', language));
      expect(response?.status()).toBe(404);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const texts = common(language);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.notFound.heading);
      const historyLink = page.getByRole('link', { name: texts.notFound.orderHistory });
      await expect(historyLink).toHaveAttribute('href', localizePath(routes.exchange_order_history, language));
      // The page is interactive: its link leads to the order history.
      await historyLink.click();
      await expect(page).toHaveURL(localizePath(routes.exchange_order_history, language));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.pages.exchange_order_history.title);
    });
  }
});
