import path from 'node:path';
import { BUDGET_KB, firstLoadJs } from '../bench/first-load';
import { opsRoutes } from '../src/i18n/ops-routes';
import { test, expect, languages, localizePath, routes, routeNames } from './fixtures';

/**
 * Issue 17's budgets, on the production build this suite runs against: first-load JavaScript
 * (gzipped) of the home page ≤ 110 KB and of every other page ≤ 160 KB, in every language. A
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
