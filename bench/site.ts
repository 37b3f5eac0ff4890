/**
 * `npm run bench:site`: production build time, first-load JavaScript (gzipped) of home and
 * exchange_buy, and Lighthouse (mobile) scores for home in en and uk, median of 3 runs, using
 * Debian's Chromium, each next to its reference measured in the same run: a bare Gatsby page
 * (bench/bare-site/: no plugins, a heading and a paragraph), built by the same installed Gatsby
 * into its own public dir and measured the same way (clean build time, first-load JS, Lighthouse
 * median of the same number of runs). Then issue 8's checklist: Lighthouse accessibility, SEO
 * and best practices of the legal and info pages in en and uk. Prints a table; under `npm run bench` its rows go into
 * bench/RESULTS.md. It writes only build output (public/, .cache/, both ignored by git).
 *
 * The bare page is a project of its own rather than a page of the site so that none of the
 * site's plugins, wrappers or styles reach it and it stays out of the site's build and sitemap;
 * its package.json only lets gatsby-cli accept the directory (nothing is installed there: Gatsby,
 * React and webpack's imports resolve from the repository's node_modules). Both sites are served
 * by the same server, `npm start`'s, with PUBLIC_DIR pointing at the build being measured, so the
 * compression, caching and headers are the same and the ratio compares the pages alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { localizePath } from '../domain/languages';
import { footerNav, legalNav, routes, type RouteName } from '../src/i18n/routes';
import { record, type ResultRow } from './support';

const root = path.resolve(__dirname, '..');
const bareSite = path.join(root, 'bench', 'bare-site');
/** The repository's Gatsby, run directly: `npx gatsby` in bench/bare-site would look for its own install. */
const gatsbyCli = path.join(root, 'node_modules', 'gatsby', 'cli.js');
const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const runs = Number(process.env.LIGHTHOUSE_RUNS || 3);
/** Headless Debian Chromium that never reaches out on its own (updates, sync, QUIC). */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A clean `gatsby build` of the Gatsby project in `siteDir`, in seconds. */
function timeBuild(siteDir: string): number {
  spawnSync(process.execPath, [gatsbyCli, 'clean'], { cwd: siteDir, stdio: 'ignore' });
  const started = process.hrtime.bigint();
  const build = spawnSync(process.execPath, [gatsbyCli, 'build'], {
    cwd: siteDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) throw new Error(`gatsby build failed in ${siteDir}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

type Stats = { namedChunkGroups: Record<string, { assets: { name: string }[] }> };

/** Every JS file a first visit to `pagePath` of the build in `publicDir` downloads: the app bundle and the page's chunks. */
function firstLoadJs(publicDir: string, pagePath: string): { files: string[]; gzipBytes: number } {
  const stats = JSON.parse(fs.readFileSync(path.join(publicDir, 'webpack.stats.json'), 'utf8')) as Stats;
  const dataFile = path.join(publicDir, 'page-data', pagePath === '/' ? 'index' : pagePath.replace(/^\/|\/$/g, ''), 'page-data.json');
  const { componentChunkName } = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as { componentChunkName: string };
  const html = fs.readFileSync(path.join(publicDir, pagePath, 'index.html'), 'utf8');
  const htmlScripts = [...html.matchAll(/<script[^>]*src="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const groups = ['app', componentChunkName].flatMap((group) => stats.namedChunkGroups[group]?.assets ?? []);
  const files = [...new Set([...htmlScripts, ...groups.map((a) => a.name)])].filter((f) => f.endsWith('.js'));
  const gzipBytes = files.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(publicDir, file))).length, 0);
  return { files, gzipBytes };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, 'localhost', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not start: ${url}`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function lighthouseScores(url: string): Promise<Record<string, number>> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const results: Record<string, number>[] = [];
  for (let i = 0; i < runs; i++) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
      const categories = result!.lhr.categories;
      results.push(Object.fromEntries(Object.entries(categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)])));
      if (process.env.LIGHTHOUSE_DEBUG) {
        for (const audit of Object.values(result!.lhr.audits)) {
          if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative') console.log(`  ${url}: ${audit.id} ${audit.score}`);
        }
      }
    } finally {
      await chrome.kill();
    }
  }
  const ids = Object.keys(results[0] ?? {});
  return Object.fromEntries(ids.map((id) => [id, median(results.map((r) => r[id] ?? 0))]));
}

/**
 * Issue 8's checklist pages: the legal pages and the information pages, in en and uk, one
 * Lighthouse run each (these categories are audits that pass or fail, not timings), without the
 * performance category, in one browser.
 */
const CHECKLIST_PAGES: RouteName[] = [...legalNav, ...footerNav, 'rates', 'fees', 'support'];

async function checklistScores(origin: string): Promise<{ page: string; scores: Record<string, number> }[]> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    const results = [];
    for (const language of ['en', 'uk'] as const) {
      for (const name of CHECKLIST_PAGES) {
        const page = localizePath(routes[name], language);
        const result = await lighthouse(`${origin}${page}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['accessibility', 'seo', 'best-practices'] });
        const categories = result!.lhr.categories;
        results.push({ page, scores: Object.fromEntries(Object.entries(categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)])) });
      }
    }
    return results;
  } finally {
    await chrome.kill();
  }
}

/**
 * Starts the server as `npm start` does, in its own process (as in production, so Lighthouse's
 * work in this process does not slow it down), serving the build in `publicDir`; stops it and
 * waits for it to exit afterwards, so the next one can take the same ports and data directory.
 */
async function withServer<T>(publicDir: string, use: (origin: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: 'localhost', LOG_LEVEL: 'warn', PUBLIC_DIR: publicDir },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  // An error this process cannot catch (Chromium missing: chrome-launcher's spawn throws) must not leave it running.
  const orphaned = () => server.kill('SIGTERM');
  process.once('exit', orphaned);
  try {
    await waitForServer(`http://localhost:${port}/`);
    return await use(`http://localhost:${port}`);
  } finally {
    server.kill('SIGTERM');
    const stuck = setTimeout(() => server.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(stuck);
    process.off('exit', orphaned);
  }
}

async function main() {
  const sitePublic = path.join(root, 'public');
  const barePublic = path.join(bareSite, 'public');
  const buildSeconds = process.env.SKIP_BUILD ? NaN : timeBuild(root);
  // SKIP_BUILD reuses an earlier build of the bare page too, if there is one.
  const bareBuildSeconds = process.env.SKIP_BUILD && fs.existsSync(path.join(barePublic, 'index.html')) ? NaN : timeBuild(bareSite);
  const home = firstLoadJs(sitePublic, '/');
  const buy = firstLoadJs(sitePublic, '/exchange/buy/');
  const bare = firstLoadJs(barePublic, '/');

  const { en, uk, checklist } = await withServer(sitePublic, async (origin) => ({
    en: await lighthouseScores(`${origin}/`),
    uk: await lighthouseScores(`${origin}/uk/`),
    checklist: await checklistScores(origin),
  }));
  const bareScores = await withServer(barePublic, (origin) => lighthouseScores(`${origin}/`));

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const seconds = (s: number) => (Number.isNaN(s) ? 'skipped' : `${s.toFixed(1)} s`);
  const score = (s: Record<string, number>) => `performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s['best-practices']}, SEO ${s.seo}`;
  const lighthouseTarget = 'performance ≥ 95, others 100';
  const rows: ResultRow[] = [
    {
      benchmark: 'bench:site',
      figure: 'production build time',
      value: seconds(buildSeconds),
      reference: `bare Gatsby page: ${seconds(bareBuildSeconds)}`,
      ratio: Number.isNaN(buildSeconds) || Number.isNaN(bareBuildSeconds) ? undefined : buildSeconds / bareBuildSeconds,
    },
    {
      benchmark: 'bench:site',
      figure: 'first-load JS of home, gzip',
      value: kb(home.gzipBytes),
      reference: `bare Gatsby page: ${kb(bare.gzipBytes)}`,
      ratio: home.gzipBytes / bare.gzipBytes,
      target: '≤ 110 KB',
    },
    {
      benchmark: 'bench:site',
      figure: 'first-load JS of exchange_buy, gzip',
      value: kb(buy.gzipBytes),
      reference: `home: ${kb(home.gzipBytes)}`,
      ratio: buy.gzipBytes / home.gzipBytes,
    },
    ...(
      [
        ['en', en],
        ['uk', uk],
      ] as const
    ).map(([language, scores]) => ({
      benchmark: 'bench:site',
      figure: `Lighthouse mobile, home ${language} (median of ${runs})`,
      value: score(scores),
      reference: `bare Gatsby page: performance ${bareScores.performance}`,
      // Performance only: the other categories are checklists the site must pass whatever Gatsby costs.
      ratio: (scores.performance ?? NaN) / (bareScores.performance ?? NaN),
      target: lighthouseTarget,
    })),
  ];
  const lowest = (id: string) => Math.min(...checklist.map((c) => c.scores[id] ?? 0));
  const short = checklist
    .filter((c) => Object.values(c.scores).some((v) => v < 100))
    .map(
      (c) =>
        `${c.page} (${Object.entries(c.scores)
          .filter(([, v]) => v < 100)
          .map(([id, v]) => `${id} ${v}`)
          .join(', ')})`,
    );
  rows.push({
    benchmark: 'bench:site',
    figure: `Lighthouse mobile, ${CHECKLIST_PAGES.length} legal and info pages in en and uk (${checklist.length} pages, one run each)`,
    value: `lowest: accessibility ${lowest('accessibility')}, SEO ${lowest('seo')}, best practices ${lowest('best-practices')}${short.length ? `; below 100: ${short.join('; ')}` : ''}`,
    target: 'accessibility and SEO 100',
  });

  console.log(`\nbench:site — ${new Date().toISOString()} (ratio = figure / reference; Lighthouse: performance / performance)`);
  console.log(`| figure | value | reference (same run) | ratio | target |`);
  console.log(`|---|---|---|---|---|`);
  for (const r of rows) {
    console.log(`| ${r.figure} | ${r.value} | ${r.reference ?? '—'} | ${r.ratio === undefined ? '—' : r.ratio.toFixed(2)} | ${r.target ?? '—'} |`);
  }
  console.log(`bare Gatsby page, Lighthouse mobile (median of ${runs}): ${score(bareScores)}; first-load JS ${bare.files.length} files, home ${home.files.length}, exchange_buy ${buy.files.length}`);
  record(rows);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
