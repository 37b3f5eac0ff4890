import fs from 'node:fs';
import path from 'node:path';
import { languages, localizePath, splitLanguage } from '#domain/languages';
import { opsRoutes, opsRouteNames } from '../src/i18n/ops-routes';
import { routes, routeNames, routeNameOf } from '../src/i18n/routes';

const pagesDir = path.join(__dirname, '../src/pages');

/** The URL path Gatsby gives a file in src/pages. */
function pathOfPageFile(file: string): string {
  const withoutExt = file.replace(/\.tsx$/, '').replace(/(^|\/)index$/, '');
  return withoutExt ? `/${withoutExt}/` : '/';
}

function pageFiles(dir = pagesDir, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? pageFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    );
}

describe('the route table', () => {
  const filePaths = pageFiles()
    .filter((file) => file !== '404.tsx')
    .map(pathOfPageFile);

  it('has a page in src/pages for every named route', () => {
    for (const name of routeNames) expect(filePaths).toContain(routes[name]);
  });

  it('names every page in src/pages (besides the not-found page): the site’s, or the operator console’s', () => {
    const consolePaths: string[] = Object.values(opsRoutes);
    for (const filePath of filePaths)
      expect(routeNameOf(filePath) ?? (consolePaths.includes(filePath) ? filePath : undefined)).toBeDefined();
    for (const name of opsRouteNames) expect(filePaths).toContain(opsRoutes[name]);
  });

  it('contains every page docs/decisions/0016 names', () => {
    expect(routeNames).toEqual(
      expect.arrayContaining([
        'home',
        'exchange',
        'exchange_buy',
        'exchange_sell',
        'exchange_swap',
        'exchange_deposit',
        'exchange_order_history',
        'wallet',
        'wallet_balances',
        'wallet_receive',
        'wallet_send',
        'wallet_transactions',
        'identity',
        'my_identity',
        'login',
        'register',
        'logout',
        'faucet',
        'rates',
        'charts',
        'news',
        'forum',
        'chatbots',
        'crypto_locker',
        'fees',
        'status',
        'support',
        'contact',
        'aml_policy',
        'cookie_policy',
        'privacy_policy',
        'terms_and_conditions',
      ]),
    );
    expect(routes.exchange_order_history).toBe('/exchange/order-history/');
    expect(routes.my_identity).toBe('/identity/me/');
  });

  it('gives English pages no prefix and every other language its code', () => {
    expect(localizePath(routes.exchange_buy, 'en')).toBe('/exchange/buy/');
    for (const language of languages.filter((l) => l !== 'en')) {
      expect(localizePath(routes.exchange_buy, language)).toBe(`/${language}/exchange/buy/`);
      expect(localizePath(routes.home, language)).toBe(`/${language}/`);
    }
  });

  it('finds the language of a path and the page behind it', () => {
    expect(splitLanguage('/uk/wallet/send/')).toEqual({ language: 'uk', path: '/wallet/send/' });
    expect(splitLanguage('/de')).toEqual({ language: 'de', path: '/' });
    expect(splitLanguage('/fees/')).toEqual({ language: 'en', path: '/fees/' });
    // Not a language prefix: an English path that happens to start with two letters.
    expect(splitLanguage('/en/fees/')).toEqual({ language: 'en', path: '/en/fees/' });
    expect(splitLanguage('/xx/anything')).toEqual({ language: 'en', path: '/xx/anything' });
  });
});
