import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * First-load JavaScript of a built page, counted the same way by `npm run bench:site` and by the
 * budget test (e2e/budgets.spec.ts): every script the page's HTML loads, plus the app's and the
 * page component's chunk groups from webpack's stats, each gzipped. Chunks a page fetches later
 * on its own (the login SDK, the confirmation, the address rules) are not first load.
 */
type Stats = { namedChunkGroups: Record<string, { assets: { name: string }[] }> };

/** The budgets (issue 36, after issue 17's 110 and 160): the home page ≤ 100 KB gzipped, no page above 120 KB. */
export const BUDGET_KB = { home: 100, page: 120 } as const;

export function firstLoadJs(publicDir: string, pagePath: string): { files: string[]; gzipBytes: number } {
  const stats = JSON.parse(fs.readFileSync(path.join(publicDir, 'webpack.stats.json'), 'utf8')) as Stats;
  const dataFile = path.join(
    publicDir,
    'page-data',
    pagePath === '/' ? 'index' : pagePath.replace(/^\/|\/$/g, ''),
    'page-data.json',
  );
  const { componentChunkName } = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as { componentChunkName: string };
  const html = fs.readFileSync(path.join(publicDir, pagePath, 'index.html'), 'utf8');
  const htmlScripts = [...html.matchAll(/<script[^>]*src="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const groups = ['app', componentChunkName].flatMap((group) => stats.namedChunkGroups[group]?.assets ?? []);
  const files = [...new Set([...htmlScripts, ...groups.map((a) => a.name)])].filter((f) => f.endsWith('.js'));
  const gzipBytes = files.reduce(
    (sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(publicDir, file))).length,
    0,
  );
  return { files, gzipBytes };
}
