import { test, expect, common, locale, localizePath, ops, pickCurrency, routeNames, routes, signUp } from './fixtures';

/**
 * The first day of a logged-in user (issue 35): a login lands on their own home; the send page
 * shows the whole path of a first send with the end of the hold; the identity mailbox is on no
 * page a logged-out visitor sees.
 */
const auth = (language: string) => locale(language, 'auth');
const IDENTITY_MAILBOX = 'identity@muntly.example';

test('a login from the home page lands on the user’s own home: balance, next steps and the verifications', async ({
  page,
}) => {
  await page.goto('/uk/');
  await page
    .getByRole('banner')
    .getByRole('link', { name: common('uk').nav.login })
    .click();
  await page.getByLabel(auth('uk').idp.email).fill('demo2@muntly.test');
  await page.getByLabel(auth('uk').idp.password).fill('muntly-demo');
  await page.getByRole('button', { name: auth('uk').idp.loginButton }).click();
  await expect(page).toHaveURL(/\/uk\/wallet\/$/);
  const wallet = locale('uk', 'wallet');
  const identity = locale('uk', 'identity');
  await expect(
    page.getByRole('heading', { name: wallet.home.greeting.replace('{{name}}', 'Second Demo') }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: wallet.home.balanceHeading })).toBeVisible();
  await expect(page.getByRole('heading', { name: wallet.home.nextHeading })).toBeVisible();
  const steps = page.getByRole('region', { name: identity.steps.heading }).getByRole('listitem');
  await expect(steps.first()).toHaveAttribute('data-kind', 'bank');
  await expect(steps).toHaveCount(5);
});

test('a new account: signing up lands on its home; the send page shows the whole path and the end of the hold, and offers the saved address', async ({
  page,
  baseURL,
}) => {
  const email = `first-day-${Date.now()}@muntly.test`;
  await signUp(page, 'Nadia New', email);
  await expect(page).toHaveURL(/\/wallet\/$/);
  const en = locale('en', 'wallet');
  await expect(page.getByRole('link', { name: en.home.next.bank.link })).toHaveAttribute('href', '/identity/me/');

  expect(ops(baseURL!, 'verify', email, 'bank')).toContain('verified');
  await page.goto('/wallet/security/');
  await pickCurrency(page, en.security.bookCurrency, 'BTC');
  await page
    .getByRole('textbox', { name: en.security.bookAddress, exact: true })
    .fill('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
  await page.getByRole('textbox', { name: en.security.bookLabel, exact: true }).fill('Mama');
  await page.getByRole('button', { name: en.security.bookAddButton, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: en.security.bookAdded })).toBeVisible();

  const ru = locale('ru', 'wallet');
  await page.goto('/ru/wallet/send/');
  const path = page.getByTestId('send-path');
  await expect(path.getByRole('heading', { name: ru.send.path.heading })).toBeVisible();
  const items = path.getByRole('listitem');
  await expect(items).toHaveCount(4);
  await expect(items.nth(0)).toContainText(ru.send.path.done);
  await expect(items.nth(1)).toContainText(ru.send.path.book.title);
  // The end of the hold, as Russian writes a date and time ("28 ноября 2026 г. в 14:05").
  await expect(items.nth(2)).toContainText(/До \d{1,2} \p{L}+ \d{4} г\. в \d{1,2}:\d{2}/u);
  await expect(items.nth(3)).toContainText(ru.send.path.code.title);
  // Before the form, which offers the saved address and fills it in.
  const saved = page.getByLabel(ru.send.saved);
  await expect(saved.locator('option', { hasText: 'Mama' })).toHaveCount(1);
  await saved.selectOption({ label: (await saved.locator('option', { hasText: 'Mama' }).textContent())! });
  await expect(page.getByLabel(ru.send.address)).toHaveValue('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
});

test('the identity mailbox is on no page a logged-out visitor sees, in any language', async ({ page, request }) => {
  const open = routeNames.filter((name) => !['login', 'register', 'logout'].includes(name));
  for (const language of ['en', 'de', 'fr', 'nl', 'ru', 'uk'] as const) {
    for (const name of open) {
      const url = localizePath(routes[name], language);
      const html = await (await request.get(url)).text();
      expect([url, html.includes(IDENTITY_MAILBOX)]).toEqual([url, false]);
    }
  }
  // And after the pages ran: the contact page and the identity overview.
  for (const url of ['/de/contact/', '/ru/identity/', '/terms-and-conditions/']) {
    await page.goto(url);
    await expect(page.getByRole('main')).toBeVisible();
    expect(await page.content()).not.toContain(IDENTITY_MAILBOX);
  }
});
