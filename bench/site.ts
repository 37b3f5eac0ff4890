/**
 * `npm run bench:site`: production build time, first-load JavaScript (gzipped) of home and
 * exchange_buy, and Lighthouse (mobile) scores for home in en and uk, median of 3 runs, using
 * Debian's Chromium. Prints a table; writes nothing into the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { record } from './support';

const root = path.resolve(__dirname, '..');
const publicDir = path.join(root, 'public');
const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const runs = Number(process.env.LIGHTHOUSE_RUNS || 3);

function timeBuild(): number {
  spawnSync('npx', ['gatsby', 'clean'], { cwd: root, stdio: 'ignore' });
  const started = process.hrtime.bigint();
  const build = spawnSync('npx', ['gatsby', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) throw new Error('gatsby build failed');
  return Number(process.hrtime.bigint() - started) / 1e9;
}

type Stats = { namedChunkGroups: Record<string, { assets: { name: string }[] }> };

/** Every JS file a first visit to `pagePath` downloads: the app bundle and the page's chunks. */
function firstLoadJs(pagePath: string): { files: string[]; gzipBytes: number } {
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
    const chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
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

async function main() {
  const buildSeconds = process.env.SKIP_BUILD ? NaN : timeBuild();
  const home = firstLoadJs('/');
  const buy = firstLoadJs('/exchange/buy/');

  // The site is served the way `npm start` serves it, in its own process (as in production),
  // so Lighthouse's work in this process does not slow the server down.
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: 'localhost', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const scores = await (async () => {
    try {
      await waitForServer(`http://localhost:${port}/`);
      return { en: await lighthouseScores(`http://localhost:${port}/`), uk: await lighthouseScores(`http://localhost:${port}/uk/`) };
    } finally {
      server.kill('SIGTERM');
    }
  })();
  const { en, uk } = scores;

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const score = (s: Record<string, number>) =>
    `performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s['best-practices']}, SEO ${s.seo}`;
  console.log(`\nbench:site — ${new Date().toISOString()}`);
  console.log(`| figure | value | target |`);
  console.log(`|---|---|---|`);
  console.log(`| production build time | ${Number.isNaN(buildSeconds) ? 'skipped' : `${buildSeconds.toFixed(1)} s`} | — |`);
  console.log(`| first-load JS, home (gzip) | ${kb(home.gzipBytes)} (${home.files.length} files) | ≤ 110 KB |`);
  console.log(`| first-load JS, exchange_buy (gzip) | ${kb(buy.gzipBytes)} (${buy.files.length} files) | — |`);
  console.log(`| Lighthouse mobile, home en (median of ${runs}) | ${score(en)} | 95+ / 100 / 100 / 100 |`);
  console.log(`| Lighthouse mobile, home uk (median of ${runs}) | ${score(uk)} | 95+ / 100 / 100 / 100 |`);
  record([
    { benchmark: 'bench:site', figure: 'production build time', value: Number.isNaN(buildSeconds) ? 'skipped' : `${buildSeconds.toFixed(1)} s` },
    { benchmark: 'bench:site', figure: 'first-load JS of home, gzip', value: kb(home.gzipBytes), target: '≤ 110 KB' },
    { benchmark: 'bench:site', figure: 'first-load JS of exchange_buy, gzip', value: kb(buy.gzipBytes), reference: `home: ${kb(home.gzipBytes)}`, ratio: buy.gzipBytes / home.gzipBytes },
    { benchmark: 'bench:site', figure: `Lighthouse mobile, home en (median of ${runs})`, value: score(en), target: 'performance ≥ 95, others 100' },
    { benchmark: 'bench:site', figure: `Lighthouse mobile, home uk (median of ${runs})`, value: score(uk), target: 'performance ≥ 95, others 100' },
  ]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
