import { test as base, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { languages, localizePath, type Language } from '../src/i18n/languages';
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

/** The English-sourced, localized texts of the `common` namespace. */
export function common(language: Language) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '../locales', language, 'common.json'), 'utf8'));
}

export function pageTitle(name: RouteName | 'notFound', language: Language): string {
  const title = common(language).pages[name].title as string;
  return name === 'home' ? title : `${title} | Muntly`;
}

export { languages, localizePath, routes, routeNames };
