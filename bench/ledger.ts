/**
 * `npm run bench:ledger`: transfers per second through the ledger service (the function the API
 * calls) on a real PostgreSQL with 10 concurrent workers — between distinct account pairs, and all
 * into one hot account — next to pgbench's built-in TPC-B-like script at 10 clients on the same
 * server in the same run; the hot account's rate is also held against the distinct pairs' (≥ 0.8). Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test) to create and drop its own databases.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { Client } from 'pg';
import { openDatabase } from '../server/src/db/client';
import { accounts } from '../server/src/db/schema';
import { systemAccount, transfer, userAccount, verifyLedger } from '../server/src/modules/ledger/service';
import { record } from './support';

const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS || 10);
const WORKERS = 10;
/** The target: ledger transfers per second between distinct accounts, at least this share of pgbench's TPC-B-like transactions per second. */
const TARGET_RATIO = 0.5;
/**
 * Issue 36's target: transfers through one hot account (every order and send books against a few
 * house accounts) at least this share of transfers between distinct pairs, in the same run.
 */
const HOT_TARGET_RATIO = 0.8;

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(query: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(query);
  await client.end();
}

async function run(label: string, work: (worker: number, n: number) => Promise<void>) {
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  const errors: string[] = [];
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      for (let n = 0; Date.now() < deadline; n++) {
        try {
          await work(worker, n);
          done++;
        } catch (error) {
          errors.push(`${label}: ${(error as Error).message}`);
        }
      }
    }),
  );
  return { tps: done / seconds, errors };
}

async function main() {
  const stamp = `${Date.now()}`;
  const ledgerDb = `muntly_bench_${stamp}`;
  const pgbenchDb = `muntly_pgbench_${stamp}`;
  await admin(`create database ${ledgerDb}`);
  await admin(`create database ${pgbenchDb}`);
  try {
    const database = await openDatabase({ databaseUrl: databaseUrl(ledgerDb), dataDir: '' });
    await database.migrate();
    const db = database.db;
    const users = await db
      .insert(accounts)
      .values(
        Array.from({ length: 2 * WORKERS + 1 }, (_, i) => ({
          issuer: 'bench',
          subject: `u${i}`,
          accountKey: `BENCH${String(i).padStart(3, '0')}`,
          depositLimitEurMinor: 0n,
        })),
      )
      .returning();
    const ledger = await Promise.all(users.map((u) => userAccount(db, u.id, 'BTC')));
    const chain = await systemAccount(db, 'chain', 'BTC');
    for (const [i, account] of ledger.entries()) {
      await transfer(db, {
        id: `fund:${i}`,
        currency: 'BTC',
        debitAccountId: chain.id,
        creditAccountId: account.id,
        amount: 10_000_000_000n,
        code: 'deposit',
      });
    }

    const distinct = await run('distinct', async (worker, n) => {
      const [a, b] = [ledger[2 * worker]!, ledger[2 * worker + 1]!];
      const [from, to] = n % 2 === 0 ? [a, b] : [b, a];
      await transfer(db, {
        id: `pair:${worker}:${n}`,
        currency: 'BTC',
        debitAccountId: from.id,
        creditAccountId: to.id,
        amount: 1n,
        code: 'internal',
      });
    });
    const hotAccount = ledger[2 * WORKERS]!;
    const hot = await run('hot', async (worker, n) => {
      await transfer(db, {
        id: `hot:${worker}:${n}`,
        currency: 'BTC',
        debitAccountId: ledger[worker]!.id,
        creditAccountId: hotAccount.id,
        amount: 1n,
        code: 'internal',
      });
    });
    const checks = await verifyLedger(db);
    await database.close();

    const url = databaseUrl(pgbenchDb);
    execFileSync('pgbench', ['-i', '-s', '1', '-q', url], { stdio: 'ignore' });
    const out = execFileSync('pgbench', ['-c', String(WORKERS), '-j', '2', '-T', String(seconds), url]).toString();
    const pgbenchTps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN);

    console.log(
      `\nbench:ledger — ${new Date().toISOString()} — ${os.cpus().length} cores, ${WORKERS} workers, ${seconds} s each, PostgreSQL ${new URL(adminUrl).host}`,
    );
    console.log('| workload | transfers/s | errors | reference | ratio |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| distinct account pairs | ${distinct.tps.toFixed(0)} | ${distinct.errors.length} | pgbench TPC-B-like ${pgbenchTps.toFixed(0)} tps | ${(distinct.tps / pgbenchTps).toFixed(2)} (target ≥ ${TARGET_RATIO}) |`,
    );
    console.log(
      `| one hot account | ${hot.tps.toFixed(0)} | ${hot.errors.length} | distinct account pairs ${distinct.tps.toFixed(0)} tps | ${(hot.tps / distinct.tps).toFixed(2)} (target ≥ ${HOT_TARGET_RATIO}, without errors or deadlocks) |`,
    );
    console.log(`| ledger invariants afterwards | ${checks.every((c) => c.ok) ? 'all hold' : 'BROKEN'} | | | |`);
    for (const error of [...distinct.errors, ...hot.errors].slice(0, 5)) console.log(`  error: ${error}`);
    const pgbench = `pgbench TPC-B-like, 10 clients: ${pgbenchTps.toFixed(0)} tps`;
    record([
      {
        benchmark: 'bench:ledger',
        figure: 'ledger transfers/s, distinct account pairs, 10 workers',
        value: `${distinct.tps.toFixed(0)} tps`,
        reference: pgbench,
        ratio: distinct.tps / pgbenchTps,
        target: `≥ ${TARGET_RATIO}`,
        met: distinct.tps / pgbenchTps >= TARGET_RATIO && distinct.errors.length === 0,
      },
      {
        benchmark: 'bench:ledger',
        figure: 'ledger transfers/s, one hot account',
        value: `${hot.tps.toFixed(0)} tps, ${hot.errors.length} errors`,
        reference: `distinct account pairs: ${distinct.tps.toFixed(0)} tps`,
        ratio: hot.tps / distinct.tps,
        target: `≥ ${HOT_TARGET_RATIO}, no errors or deadlocks`,
        met: hot.tps / distinct.tps >= HOT_TARGET_RATIO && hot.errors.length === 0,
      },
      {
        benchmark: 'bench:ledger',
        figure: 'ledger invariants afterwards',
        value: checks.every((c) => c.ok) ? 'all hold' : 'BROKEN',
        target: 'all hold',
        met: checks.every((c) => c.ok),
      },
    ]);
  } finally {
    await admin(`drop database if exists ${ledgerDb} with (force)`);
    await admin(`drop database if exists ${pgbenchDb} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
