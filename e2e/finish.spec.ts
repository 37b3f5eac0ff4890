import { test, expect, locale } from './fixtures';
import type { Page } from '@playwright/test';

/**
 * Issue 35, the finish a stranger notices: the currency picker never keeps text that chose
 * nothing, every control has the same focus ring, and the keyboard meets the main navigation
 * before "Log in".
 */
const en = locale('en', 'exchange');
const common = locale('en', 'common');

async function hydratedPicker(page: Page, label: string) {
  const box = page.getByRole('combobox', { name: label, exact: true });
  await expect(box).toHaveJSProperty('tagName', 'INPUT');
  return box;
}

test('the currency picker brings back the chosen currency on blur and on Escape', async ({ page }) => {
  await page.goto('/exchange/buy/');
  const box = await hydratedPicker(page, en.form.to.buy);
  await box.fill('BTC');
  await box.press('Enter');
  await expect(box).toHaveValue('Bitcoin (BTC)');

  // Text that matches nothing, then Escape: the chosen currency's name again, the choice kept.
  await box.fill('zzzz');
  await expect(page.getByText(/zzzz/).last()).toBeVisible();
  await box.press('Escape');
  await expect(box).toHaveValue('Bitcoin (BTC)');
  await box.press('Escape');
  await expect(box).toHaveValue('Bitcoin (BTC)');

  // Text that matches nothing, then leaving the field: the same.
  await box.fill('qqqq');
  await page.getByLabel(en.form.email, { exact: true }).focus();
  await expect(box).toHaveValue('Bitcoin (BTC)');
});

test('every control shows the same focus ring: field, select, checkbox, currency picker, button, link', async ({
  page,
}) => {
  await page.goto('/exchange/buy/');
  const picker = await hydratedPicker(page, en.form.to.buy);
  const controls = {
    picker,
    field: page.getByLabel(en.form.email, { exact: true }),
    select: page.getByLabel(en.form.paymentMethod),
    checkbox: page.locator('#order-sendToMyWallet'),
    button: page.getByRole('button', { name: en.form.submit.buy }),
    link: page.locator('#main-nav a').first(),
  };
  const rings: Record<string, string> = {};
  for (const [name, control] of Object.entries(controls)) {
    await control.focus();
    // The keyboard's focus, as Tab gives it (a checkbox or a button shows its ring for it only).
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(control).toBeFocused();
    rings[name] = await control.evaluate((el) => {
      const style = getComputedStyle(el);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} offset ${style.outlineOffset} shadow ${style.boxShadow}`;
    });
  }
  const [first] = Object.values(rings);
  expect(first).toMatch(/^solid 3px rgb/);
  for (const [name, ring] of Object.entries(rings)) expect(`${name}: ${ring}`).toBe(`${name}: ${first}`);
});

for (const width of [1280, 360]) {
  test(`the keyboard meets the skip link, then the main navigation, then "Log in" (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    await expect(page.locator('#main-nav')).toHaveCount(1);
    // A phone: the menu opened first (its button is then where the keyboard starts again).
    if (width < 1024) {
      // A click before the page has hydrated does nothing yet: click until the menu says it is open.
      const menu = page.getByRole('button', { name: common.nav.menu });
      await expect(async () => {
        if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
        await expect(menu).toHaveAttribute('aria-expanded', 'true', { timeout: 1000 });
      }).toPass();
      await page.locator('.skip-link').focus();
    }
    const order: string[] = width < 1024 ? ['skip'] : [];
    while (order.length < 20) {
      await page.keyboard.press('Tab');
      order.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          if (el.classList.contains('skip-link')) return 'skip';
          if (el.closest('#main-nav')) return 'nav';
          if (el.classList.contains('menu-button')) return 'menu';
          if (el.getAttribute('href')?.includes('/login')) return 'login';
          return el.closest('header') ? 'header' : 'other';
        }),
      );
    }
    expect(order[0]).toBe('skip');
    const firstNav = order.indexOf('nav');
    expect(firstNav).toBeGreaterThan(-1);
    expect(order.indexOf('login')).toBeGreaterThan(firstNav);
    if (width < 1024) expect(order.indexOf('menu')).toBeLessThan(firstNav);
  });
}
