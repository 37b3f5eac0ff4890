import fs from 'node:fs';
import path from 'node:path';
import { test, expect, common, locale, logInAfterSignUp } from './fixtures';

const auth = (language: string) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '../locales', language, 'auth.json'), 'utf8'));

/** The files of the login SDK's chunk (src/app/auth-island.tsx names it), from the build's chunk list. */
function sdkFiles(): string[] {
  const stats = JSON.parse(fs.readFileSync(path.join(__dirname, '../public/webpack.stats.json'), 'utf8'));
  return (stats.namedChunkGroups['auth-sdk'].assets as { name: string }[]).map((asset) => asset.name);
}

test.describe('login', () => {
  test('an anonymous visitor of a protected page logs in and comes back to it; a reload keeps the session; logout ends it', async ({
    page,
  }) => {
    await page.goto('/de/wallet/balances/');
    // Sent to the local identity provider's login form, in German.
    await expect(page.getByRole('heading', { name: auth('de').idp.loginTitle })).toBeVisible();
    await page.getByLabel(auth('de').idp.email).fill('demo@muntly.test');
    await page.getByLabel(auth('de').idp.password).fill('muntly-demo');
    await page.getByRole('button', { name: auth('de').idp.loginButton }).click();

    await expect(page).toHaveURL(/\/de\/wallet\/balances\/$/);
    await expect(page.getByText('Angemeldet als Demo User.')).toBeVisible();
    await expect(page.getByRole('heading', { name: auth('de').account.heading })).toBeVisible();
    await expect(page.locator('code').filter({ hasText: /^DEPOSIT[A-Z2-9]{8}$/ })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Demo User')).toBeVisible();

    await page.reload();
    await expect(page.getByText('Angemeldet als Demo User.')).toBeVisible();
    await expect(page).toHaveURL(/\/de\/wallet\/balances\/$/);

    await page
      .getByRole('banner')
      .getByRole('link', { name: common('de').nav.logout })
      .click();
    await expect(page).toHaveURL(/\/de\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: common('de').nav.login })).toBeVisible();

    // The session is gone: the protected page asks for a login again.
    await page.goto('/de/wallet/balances/');
    await expect(page.getByRole('heading', { name: auth('de').idp.loginTitle })).toBeVisible();
  });

  test('the header login returns to the page it was clicked on', async ({ page }) => {
    await page.goto('/fr/fees/');
    await page
      .getByRole('banner')
      .getByRole('link', { name: common('fr').nav.login })
      .click();
    await expect(page.getByRole('heading', { name: auth('fr').idp.loginTitle })).toBeVisible();
    await page.getByLabel(auth('fr').idp.email).fill('demo2@muntly.test');
    await page.getByLabel(auth('fr').idp.password).fill('wrong-password');
    await page.getByRole('button', { name: auth('fr').idp.loginButton }).click();
    await expect(page.getByRole('alert')).toHaveText(auth('fr').idp.wrongCredentials);
    await page.getByLabel(auth('fr').idp.password).fill('muntly-demo');
    await page.getByRole('button', { name: auth('fr').idp.loginButton }).click();
    await expect(page).toHaveURL(/\/fr\/fees\/$/);
    await expect(page.getByRole('banner').getByText('Second Demo')).toBeVisible();
  });

  test('after login, returnTo leads only to a page of this site: control characters, backslashes and encoded slashes stay home', async ({
    page,
    baseURL,
  }) => {
    const site = new URL(baseURL!).origin;
    // Each raw as it would stand in a link; the browser drops tabs and reads backslashes as slashes.
    const attempts = [
      '/%09/evil.example/',
      '/%5Cevil.example/',
      '/\\evil.example/',
      '%2F%2Fevil.example/',
      '/.//evil.example/',
      '//evil.example/',
      'https://evil.example/',
      'javascript:alert(1)',
    ];
    for (const [i, returnTo] of attempts.entries()) {
      await page.goto(`/login/?returnTo=${returnTo}`);
      if (i === 0) {
        await page.getByLabel(auth('en').idp.email).fill('demo@muntly.test');
        await page.getByLabel(auth('en').idp.password).fill('muntly-demo');
        await page.getByRole('button', { name: auth('en').idp.loginButton }).click();
      }
      // Wherever the login ends, it is not on the login page any more: then it must be this site.
      await page.waitForURL(
        (url) => url.hostname.includes('evil') || (url.origin === site && !url.pathname.startsWith('/login')),
      );
      expect(new URL(page.url()).origin, returnTo).toBe(site);
    }
  });

  test('the login SDK is downloaded only where someone may be logged in: not for a visitor of the faucet or the buy form, and once logged in it is', async ({
    page,
  }) => {
    const files = sdkFiles();
    expect(files.length).toBeGreaterThan(0);
    const fetched: string[] = [];
    page.on('request', (request) => {
      const file = new URL(request.url()).pathname.slice(1);
      if (files.includes(file)) fetched.push(file);
    });

    await page.goto('/faucet/');
    await expect(page.getByRole('link', { name: locale('en', 'faucet').play.login })).toBeVisible();
    await page.goto('/uk/exchange/buy/');
    await expect(page.getByRole('button', { name: locale('uk', 'exchange').form.submit.buy })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(fetched).toEqual([]);

    // The faucet's own login link, then back on the faucet, logged in: now the SDK is there.
    await page.goto('/faucet/');
    await page.getByRole('link', { name: locale('en', 'faucet').play.login }).click();
    await page.getByLabel(auth('en').idp.email).fill('demo2@muntly.test');
    await page.getByLabel(auth('en').idp.password).fill('muntly-demo');
    await page.getByRole('button', { name: auth('en').idp.loginButton }).click();
    await expect(page).toHaveURL(/\/faucet\/$/);
    await expect(page.getByRole('link', { name: locale('en', 'faucet').play.login })).toHaveCount(0);
    await expect(page.getByRole('banner').getByText('Second Demo')).toBeVisible();
    expect(fetched.length).toBeGreaterThan(0);
  });

  test('sign-up creates an account at the provider; the new user logs in on the page that follows', async ({
    page,
  }) => {
    const email = `new-${Date.now()}@muntly.test`;
    await page.goto('/register/');
    await expect(page.getByRole('heading', { name: auth('en').idp.signupTitle })).toBeVisible();
    await page.getByLabel(auth('en').idp.name).fill('New Person');
    await page.getByLabel(auth('en').idp.email).fill(email);
    await page.getByLabel(auth('en').idp.password).fill('a-long-password');
    await page.getByRole('button', { name: auth('en').idp.signupButton }).click();
    await logInAfterSignUp(page, email);
    // A new account's first page is its own home (issue 35).
    await expect(page).toHaveURL(/\/wallet\/$/);
    await expect(page.getByRole('banner').getByText('New Person')).toBeVisible();
    await page.goto('/identity/me/');
    await expect(page.getByText('Logged in as New Person.')).toBeVisible();
  });
});
