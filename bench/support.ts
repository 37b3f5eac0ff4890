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
export async function startServer(env: Record<string, string>): Promise<{ url: string; stop(): void; child: ChildProcess }> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: 'localhost', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://localhost:${port}`;
  await waitFor(`${url}/api/ready`);
  return { url, child, stop: () => child.kill('SIGTERM') };
}

/** One line of bench/RESULTS.md: a figure, its side-by-side reference from the same run, the ratio. */
export type ResultRow = { benchmark: string; figure: string; value: string; reference?: string; ratio?: number; target?: string };

/**
 * Each benchmark prints its own table; under `npm run bench` (BENCH_RESULTS set) it also hands
 * its rows to the runner, which writes them all into bench/RESULTS.md.
 */
export function record(rows: ResultRow[]): void {
  const file = process.env.BENCH_RESULTS;
  if (!file) return;
  const existing = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ResultRow[]) : [];
  fs.writeFileSync(file, JSON.stringify([...existing, ...rows], null, 2));
}
