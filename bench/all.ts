/**
 * `npm run bench`: every benchmark in turn (site, api, orders, ledger, faucet, liabilities, statements, chain), each in its own
 * process as when run alone, then bench/RESULTS.md: one table of every figure next to its
 * reference measured in the same run (pgbench, a bare insert endpoint, GET /api/health, …), the
 * ratio, the machine and the date. A benchmark that fails is reported in the file, not hidden.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, type ResultRow } from './support';

const BENCHMARKS = ['bench:site', 'bench:api', 'bench:orders', 'bench:ledger', 'bench:faucet', 'bench:liabilities', 'bench:statements', 'bench:chain'];

function main() {
  // `npm run bench -- bench:faucet` runs only the named ones; BENCH_RESULTS_FILE keeps the rows of
  // an earlier run to add to (its path is printed at the end of every run).
  const only = process.argv.slice(2);
  const resultsFile = process.env.BENCH_RESULTS_FILE ?? path.join(os.tmpdir(), `muntly-bench-${Date.now()}.json`);
  const failed: string[] = [];
  const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const name of BENCHMARKS.filter((b) => scripts[b] && (only.length === 0 || only.includes(b)))) {
    console.log(`\n=== npm run ${name}`);
    const run = spawnSync('npm', ['run', '--silent', name], { cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_RESULTS: resultsFile } });
    if (run.status !== 0) failed.push(name);
  }
  const rows = fs.existsSync(resultsFile) ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as ResultRow[]) : [];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmark results',
    '',
    `Measured by \`npm run bench\` on ${new Date().toISOString()} — ${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.type()} ${os.release()}.`,
    'Each figure stands next to its reference measured in the same run on the same machine; the ratio is figure / reference.',
    'On a small shared virtual machine both sides of a ratio move between runs (the reference too, by up to a third): repeat a run before trusting one ratio near its target.',
    '',
    '| benchmark | figure | value | reference (same run) | ratio | target |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.benchmark} | ${r.figure} | ${r.value} | ${r.reference ?? '—'} | ${r.ratio === undefined ? '—' : r.ratio.toFixed(2)} | ${r.target ?? '—'} |`),
    '',
    ...(failed.length ? [`Failed to run: ${failed.join(', ')} (see the console output of that run).`, ''] : []),
  ];
  fs.writeFileSync(path.join(root, 'bench', 'RESULTS.md'), lines.join('\n'));
  console.log(`\nWrote bench/RESULTS.md (${rows.length} figures${failed.length ? `; failed: ${failed.join(', ')}` : ''}; rows kept in ${resultsFile}).`);
  if (failed.length) process.exitCode = 1;
}

main();
