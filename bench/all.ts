/**
 * `npm run bench`: every benchmark in turn (site, api, orders, ledger, faucet, liabilities, statements, chain), each in its own
 * process as when run alone, then one table of every figure next to its reference measured in the
 * same run (pgbench, a bare insert endpoint, GET /api/health, …), the ratio and the target, with
 * the machine and the date. Nothing is written into the repository: the targets are in each
 * benchmark's code, and a benchmark whose figure misses its target (or that fails to run) exits
 * non-zero, and so does this run, naming it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, root, type ResultRow } from './support';

const BENCHMARKS = [
  'bench:site',
  'bench:api',
  'bench:orders',
  'bench:ledger',
  'bench:faucet',
  'bench:liabilities',
  'bench:statements',
  'bench:chain',
];

function main() {
  // `npm run bench -- bench:faucet` runs only the named ones. The benchmarks hand their rows over
  // in a temporary file (BENCH_RESULTS).
  const only = process.argv.slice(2);
  const resultsFile = path.join(os.tmpdir(), `muntly-bench-${Date.now()}.json`);
  const failed: string[] = [];
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  for (const name of BENCHMARKS.filter((b) => scripts[b] && (only.length === 0 || only.includes(b)))) {
    console.log(`\n=== npm run ${name}`);
    const run = spawnSync('npm', ['run', '--silent', name], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BENCH_RESULTS: resultsFile },
    });
    if (run.status !== 0) failed.push(name);
  }
  const rows = fs.existsSync(resultsFile) ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as ResultRow[]) : [];
  fs.rmSync(resultsFile, { force: true });
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `\n# Benchmark results, ${new Date().toISOString()} — ${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.type()} ${os.release()}`,
  );
  console.log(
    'Each figure stands next to its reference measured in the same run on the same machine; the ratio is figure / reference.',
  );
  console.log(
    'On a small shared virtual machine both sides of a ratio move between runs (the reference too, by up to a third): repeat a run before trusting one ratio near its target.\n',
  );
  console.log('| | benchmark | figure | value | reference (same run) | ratio | target |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const mark = r.met === false ? 'MISSED' : r.met ? 'met' : '';
    console.log(
      `| ${mark} | ${r.benchmark} | ${r.figure} | ${r.value} | ${r.reference ?? '—'} | ${r.ratio === undefined ? '—' : r.ratio.toFixed(2)} | ${r.target ?? '—'} |`,
    );
  }
  const missed = rows.filter((r) => r.met === false);
  for (const r of missed) console.error(`MISSED ${r.benchmark}: ${describe(r)}`);
  if (failed.length)
    console.error(`Failed or missed a target: ${failed.join(', ')} (see the output of that run above).`);
  if (failed.length || missed.length) process.exitCode = 1;
}

main();
