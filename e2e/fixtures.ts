import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { languageMeta, languages, localizePath, type Language } from '#domain/languages';
import { routes, routeNames, type RouteName } from '../src/i18n/routes';

/**
 * Every journey fails on an uncaught page error or a Content-Security-Policy violation: the
 * site must run under the policy the server sends.
 */
export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
          problems.push(`CSP: ${message.text()}`);
        }
      });
      await use(problems);
      expect(problems).toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** The texts of one namespace in one language, as the site shows them. */
export function locale(language: string, ns: string) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '../locales', language, `${ns}.json`), 'utf8'));
}

/** The English-sourced, localized texts of the `common` namespace. */
export function common(language: Language) {
  return locale(language, 'common');
}

/** The server of the operator's journey (playwright.config.ts): its own data, queues and audit trail. */
export const opsServerURL = () => `http://localhost:${process.env.E2E_OPS_PORT}`;

/**
 * `npm run ops -- …` against the server the journeys run on (it plays the bank, the chain, the
 * operator), or against the operator journey's own server when `baseURL` is that one.
 */
export function ops(baseURL: string, ...args: string[]): string {
  const own = new URL(baseURL).port === process.env.E2E_OPS_PORT;
  return execFileSync(
    process.execPath,
    [path.join(__dirname, '../node_modules/tsx/dist/cli.mjs'), 'server/src/ops/cli.ts', ...args],
    {
      cwd: path.join(__dirname, '..'),
      env: {
        ...process.env,
        OPS_URL: baseURL,
        DATA_DIR: own ? process.env.E2E_OPS_DATA_DIR : process.env.E2E_DATA_DIR,
        IDP_PORT: own ? process.env.E2E_OPS_IDP_PORT : process.env.E2E_IDP_PORT,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  ).toString();
}

/**
 * A new user signs up at the local identity provider, logs in with the new password on the page
 * that follows (a sign-up logs nobody in: issue 34) and comes back logged in.
 */
export async function signUp(page: Page, name: string, email: string) {
  const auth = locale('en', 'auth');
  await page.goto('/register/');
  await page.getByLabel(auth.idp.name).fill(name);
  await page.getByLabel(auth.idp.email).fill(email);
  await page.getByLabel(auth.idp.password).fill('a-long-password');
  await page.getByRole('button', { name: auth.idp.signupButton }).click();
  await logInAfterSignUp(page, email);
  await expect(page.getByRole('banner').getByText(name)).toBeVisible();
}

/** The page after a sign-up: the same for a new address and a taken one; the password once more. */
export async function logInAfterSignUp(page: Page, email: string) {
  const auth = locale('en', 'auth');
  await expect(page.getByRole('status')).toHaveText(auth.idp.signupSent.replace('{{email}}', email));
  await page.getByLabel(auth.idp.password).fill('a-long-password');
  await page.getByRole('button', { name: auth.idp.loginButton }).click();
}

/** The header's language list, opened: the button shows the current language. */
export async function openLanguages(page: Page, current: Language) {
  await page
    .getByRole('banner')
    .getByLabel(common(current).a11y.languageChoice.replace('{{language}}', languageMeta[current].nativeName))
    .click();
  return page.getByRole('navigation', { name: common(current).a11y.languageSwitch });
}

export function pageTitle(name: RouteName | 'notFound', language: Language): string {
  const title = common(language).pages[name].title as string;
  return name === 'home' ? title : `${title} | Muntly`;
}

export { languages, localizePath, routes, routeNames };
export type { RouteName };

/**
 * Chooses a currency in the searchable currency picker (ui/currency-picker.tsx): types
 * the code and takes the best match with Enter.
 */
export async function pickCurrency(page: Page, label: string, code: string) {
  const box = page.getByRole('combobox', { name: label, exact: true });
  // Before hydration it is a plain select, which React then replaces: wait for the picker, or a
  // choice made on the select in that instant is lost with it.
  await expect(box).toHaveJSProperty('tagName', 'INPUT');
  await box.fill(code);
  await expect(page.getByRole('option').first()).toContainText(code);
  await box.press('Enter');
  await expect(box).toHaveValue(new RegExp(`\\(${code}\\)$`));
}
