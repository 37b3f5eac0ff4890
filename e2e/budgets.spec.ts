import fs from 'node:fs';
import path from 'node:path';
import { BUDGET_KB, firstLoadJs } from '../bench/first-load';
import { opsRoutes } from '../src/i18n/ops-routes';
import { test, expect, languages, localizePath, routes, routeNames } from './fixtures';

/**
 * The budgets (bench/first-load.ts, BUDGET_KB), on the production build this suite runs against:
 * first-load JavaScript (gzipped) of the home page ≤ 100 KB and of every other page ≤ 120 KB, in every language. A
 * size, not a timing: it is the same on any machine, so it is a test (Lighthouse's timings are in
 * `npm run bench:site`).
 */
const publicDir = path.resolve(__dirname, '..', 'public');

test('every page keeps its first-load JavaScript within budget', () => {
  const over: string[] = [];
  for (const language of languages) {
    // The site's pages and the operator console's.
    for (const path of [...routeNames.map((name) => routes[name]), ...Object.values(opsRoutes)]) {
      const page = localizePath(path, language);
      const kb = firstLoadJs(publicDir, page).gzipBytes / 1024;
      const budget = path === '/' ? BUDGET_KB.home : BUDGET_KB.page;
      if (kb > budget) over.push(`${page}: ${kb.toFixed(1)} KB > ${budget} KB`);
    }
  }
  expect(over).toEqual([]);
});

/**
 * The scripts a page's HTML loads (webpack's runtime, React, Gatsby's runtime) start with V8's
 * explicit compile hint, so that Chromium compiles them on a background thread while they
 * download instead of on the main thread as the page starts (gatsby-node.ts, COMPILE_HINT).
 * The hint only works on a script's first line; a minifier that ran after it would drop it.
 */
test("the scripts every page starts with carry V8's compile hint on their first line", () => {
  const checked: string[] = [];
  for (const page of [routes.home, localizePath(routes.exchange_buy, 'uk'), localizePath(routes.faucet, 'de')]) {
    const html = fs.readFileSync(path.join(publicDir, page, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script[^>]*src="\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const script of scripts) {
      const firstLine = fs.readFileSync(path.join(publicDir, script), 'utf8').split('\n', 1)[0];
      expect(firstLine, script).toBe('//# allFunctionsCalledOnLoad');
      checked.push(script);
    }
  }
  expect(new Set(checked).size).toBe(3);
});

/**
 * Pages start without throwing, not even an exception that is caught at once: while the app's
 * script first runs, a thrown exception makes V8 parse the whole script again for the stack
 * trace's line numbers, about 10 ms on a fast machine and several times that on a phone, in the
 * longest task of the start (gatsby-node.ts, OUTDENT_COMMONJS). The debugger stops at every one.
 */
test('pages start without throwing any exception', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  const thrown: string[] = [];
  cdp.on('Debugger.paused', (event) => {
    const frame = event.callFrames[0];
    // Scripts without a URL are Playwright's own (what it injects and evaluates, which it may
    // abandon when the next page loads); the page's scripts, inline ones too, have its URL.
    if (frame && !frame.url) {
      void cdp.send('Debugger.resume').catch(() => undefined);
      return;
    }
    const where = frame
      ? `${frame.url.replace(/^https?:\/\/[^/]+/, '')}:${frame.location.lineNumber}:${frame.location.columnNumber}`
      : '?';
    thrown.push(`${page.url()}: ${String(event.data?.description ?? event.reason).split('\n')[0]} at ${where}`);
    void cdp.send('Debugger.resume').catch(() => undefined);
  });
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.setPauseOnExceptions', { state: 'all' });
  for (const path of [
    '/',
    '/uk/exchange/buy/',
    '/de/exchange/sell/',
    '/faucet/',
    '/ru/exchange/order-history/',
    '/fr/rates/',
    '/nl/support/',
  ]) {
    await page.goto(path);
    await page.waitForLoadState('load');
    // Until the browser is idle: the page's own start (hydration, its first requests) is done.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
  }
  expect(thrown).toEqual([]);
});
