import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';

const pages = [
  '/',
  '/exchange/buy/',
  '/this-page-does-not-exist/',
  '/uk/',
  '/uk/exchange/buy/',
  '/uk/this-page-does-not-exist/',
];

test.describe('accessibility (WCAG 2.1 AA)', () => {
  for (const url of pages) {
    test(`${url} has no axe violations`, async ({ page }) => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }
});

/**
 * The dark theme (prefers-color-scheme: dark): the same rules, colour contrast above all. Forms
 * (order lookup, contact) stand in for /login/, which passes straight on to the identity provider.
 */
const darkPages = [
  '/',
  '/exchange/buy/',
  '/fees/',
  '/exchange/order-history/',
  '/contact/',
  '/identity/',
  '/ru/',
  '/uk/fees/',
];

test.describe('accessibility in the dark theme (WCAG 2.1 AA)', () => {
  test.use({ colorScheme: 'dark' });
  for (const url of darkPages) {
    test(`${url} in the dark theme has no axe violations`, async ({ page }) => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 255, 255)');
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }
});
