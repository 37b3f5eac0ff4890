import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { bech32 } from 'bech32';

/** Helpers shared by the benchmarks: a free port, and the server started as `npm start` does. */
/** A new, valid native segwit BTC address nobody holds: each order of a run pays out somewhere else. */
export const freshBtcAddress = (): string => bech32.encode('bc', [0, ...bech32.toWords(randomBytes(20))]);

export const root = path.resolve(__dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, 'localhost', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not start: ${url}`);
}

/** Starts the server in its own process, as in production, so the load generator does not slow it. */
export async function startServer(
  env: Record<string, string>,
): Promise<{ url: string; stop(): void; child: ChildProcess }> {
  const port = Number(env.PORT ?? (await freePort()));
  // BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: 'localhost', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://localhost:${port}`;
  await waitFor(`${url}/api/ready`);
  return { url, child, stop: () => child.kill('SIGTERM') };
}

/**
 * One figure of a benchmark: its value, its reference measured in the same run, their ratio, and
 * its target; `met` says whether the figure reaches the target (absent: a figure without one).
 */
export type ResultRow = {
  benchmark: string;
  figure: string;
  value: string;
  reference?: string;
  ratio?: number;
  target?: string;
  met?: boolean;
};

/**
 * The end of every benchmark: prints each figure next to its target and, for each one that misses
 * it (`met: false`), a line with the figure, and the process exits non-zero, so that a miss is seen.
 * The targets live in the benchmarks' code; no results are written into the repository (they are
 * one machine's at one moment). Under `npm run bench` (BENCH_RESULTS set) the rows also go to the
 * runner, which prints them all together at the end.
 */
export function record(rows: ResultRow[]): void {
  console.log('');
  for (const row of rows)
    console.log(`${row.met === false ? 'MISSED' : row.met ? 'met   ' : '      '} ${row.benchmark}: ${describe(row)}`);
  const missed = rows.filter((row) => row.met === false);
  if (missed.length > 0) {
    console.error(`\n${missed.length} figure(s) missed their target:`);
    for (const row of missed) console.error(`  ${row.benchmark}: ${describe(row)}`);
    process.exitCode = 1;
  }
  const file = process.env.BENCH_RESULTS;
  if (!file) return;
  const existing = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ResultRow[]) : [];
  fs.writeFileSync(file, JSON.stringify([...existing, ...rows], null, 2));
}

/** A row as one line: the figure, its value, its reference and ratio, its target. */
export function describe(row: ResultRow): string {
  const reference = row.reference ? `; reference ${row.reference}` : '';
  const ratio = row.ratio === undefined ? '' : `; ratio ${row.ratio.toFixed(2)}`;
  const target = row.target ? ` (target ${row.target})` : '';
  return `${row.figure}: ${row.value}${reference}${ratio}${target}`;
}
