/**
 * `npm run bench:liabilities`: the proof of liabilities for 100,000 accounts × 6 currencies on a
 * real PostgreSQL — taking and publishing a snapshot (one REPEATABLE READ transaction: read every
 * balance, split, place, pad, hash and store six Merkle sum trees and every account's secret), next
 * to a plain `select` of the same balances in the same run; then what a customer downloads and
 * checks: the published file (its size) and their proof (GET /api/wallet/proof, first and again,
 * and its size), checked as `npm run verify:liabilities` does.
 *
 * The ledger is written in bulk by SQL with a deposit transfer behind every balance, so its
 * invariants hold and `ledger:verify`'s totals are what the roots must show. Uses
 * BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) to
 * create and drop its own database; BENCH_ACCOUNTS changes the number of accounts.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { knownDecimals } from '#domain/currencies';
import { verifyInclusion, verifySnapshot, type PublishedSnapshot } from '#domain/liabilities';
import { minorToDecimal } from '#domain/money';
import { openDatabase } from '../server/src/db/client';
import { simulatedChain } from '../server/src/dev/simulated-chain';
import { TEST_XPUBS } from '../server/src/modules/chain/service';
import { userTotals, verifyLedger } from '../server/src/modules/ledger/service';
import { myProofs, nodeDigest, publishedSnapshot, publishSnapshot } from '../server/src/modules/liabilities/service';
import { record } from './support';

const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS || 100_000);
const CURRENCIES = ['BTC', 'ETH', 'XRP', 'BCH', 'LTC', 'DOGE'];
/** The target: taking and publishing the snapshot takes at most this many times a plain select of the same balances. */
const TARGET_RATIO = 3;

async function admin(query: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(query);
  await client.end();
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const name = `muntly_bench_liabilities_${Date.now()}`;
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  try {
    await database.migrate();
    const db = database.db;
    const list = sql.join(
      CURRENCIES.map((c) => sql`(${c})`),
      sql`, `,
    );
    const seedStarted = performance.now();
    await db.execute(sql`
      insert into accounts (issuer, subject, account_key, deposit_limit_eur_minor)
      select 'bench', 'holder-' || g, 'BENCH' || g, 0 from generate_series(1, ${ACCOUNTS}) g`);
    // Balances from tiny to large (up to 10^12 minor units), one in fifty empty.
    await db.execute(sql`
      insert into ledger_accounts (owner_id, currency, balance)
      select a.id, c.code, case when random() < 0.02 then 0 else 1 + floor(random() ^ 3 * 1e12)::bigint end
      from accounts a cross join (values ${list}) as c(code)`);
    await db.execute(
      sql`insert into ledger_accounts (system_code, currency, balance) select 'chain', code, 0 from (values ${list}) as c(code)`,
    );
    await db.execute(sql`
      insert into ledger_transfers (id, currency, debit_account_id, credit_account_id, amount, code)
      select 'bench:' || u.id, u.currency, s.id, u.id, u.balance, 'deposit'
      from ledger_accounts u join ledger_accounts s on s.system_code = 'chain' and s.currency = u.currency
      where u.owner_id is not null and u.balance > 0`);
    await db.execute(sql`
      update ledger_accounts s set balance = -t.total
      from (select currency, sum(balance) as total from ledger_accounts where owner_id is not null group by currency) t
      where s.system_code = 'chain' and s.currency = t.currency`);
    await db.execute(sql`analyze`);
    console.log(
      `Seeded ${ACCOUNTS} accounts × ${CURRENCIES.length} currencies in ${seconds(performance.now() - seedStarted)}.`,
    );
    const ledgerOk = (await verifyLedger(db)).every((c) => c.ok);

    // The reference: a plain select of the same balances, over a connection of its own.
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    const selectMs: number[] = [];
    let selected = 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const result = await client.query(
        'select owner_id, currency, balance from ledger_accounts where owner_id is not null',
      );
      selectMs.push(performance.now() - started);
      selected = result.rowCount ?? 0;
    }
    await client.end();
    const select = Math.min(...selectMs);

    const started = performance.now();
    const published = (await publishSnapshot(db, { chain: simulatedChain(), xpubs: TEST_XPUBS }))!;
    const publishMs = performance.now() - started;

    const totals = await userTotals(db);
    const stats = (
      (await db.execute(
        sql`select sum(leaf_count)::int as leaves, sum(length(nodes))::bigint as bytes from liability_trees`,
      )) as unknown as { rows: { leaves: number; bytes: string }[] }
    ).rows[0]!;
    // Every root's total is, to the minor unit, what the ledger says users hold (ledger:verify's totals).
    const rootsMatch =
      totals.length === CURRENCIES.length &&
      totals.every(
        (t) =>
          published.currencies.find((c) => c.currency === t.currency)?.total ===
          minorToDecimal(t.total, knownDecimals(t.currency)),
      );

    const text = await publishedSnapshot(db, published.snapshotId);
    const snapshot = JSON.parse(text) as PublishedSnapshot;

    const [holder] = (
      (await db.execute(sql`select id from accounts where subject = 'holder-1'`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    const proofStarted = performance.now();
    const proof = await myProofs(db, holder!.id, { limit: 1 });
    const firstProofMs = performance.now() - proofStarted;
    const cachedStarted = performance.now();
    await myProofs(db, holder!.id, { limit: 1 });
    const cachedProofMs = performance.now() - cachedStarted;
    const mine = proof.proofs[0]!;
    const proofBytes = JSON.stringify(mine).length;

    // What the customer's browser (or npm run verify:liabilities) does with the two downloads.
    const verifyStarted = performance.now();
    const check = verifySnapshot(snapshot, nodeDigest);
    const included = mine.currencies.every(
      (c) =>
        verifyInclusion(
          c,
          mine.owner,
          mine.nonce,
          snapshot.trees.find((t) => t.currency === c.currency)!,
          nodeDigest,
        ).ok,
    );
    const verifyMs = performance.now() - verifyStarted;

    const ok = ledgerOk && rootsMatch && check.ok && included && mine.currencies.length === CURRENCIES.length;
    const scale = `${ACCOUNTS.toLocaleString('en')} accounts × ${CURRENCIES.length} currencies (${selected.toLocaleString('en')} balances, ${stats.leaves.toLocaleString('en')} leaves)`;
    console.log(
      `\nbench:liabilities — ${new Date().toISOString()} — ${os.cpus().length} cores, PostgreSQL ${new URL(adminUrl).host}, ${scale}`,
    );
    console.log('| step | time | reference (same run) | ratio |');
    console.log('|---|---|---|---|');
    console.log(
      `| take and publish the snapshot | ${seconds(publishMs)} | plain select of the same balances: ${select.toFixed(0)} ms | ${(publishMs / select).toFixed(1)} (target ≤ ${TARGET_RATIO}) |`,
    );
    console.log(
      `| what a customer downloads: the published file / their proof | ${(text.length / 1024).toFixed(1)} KiB / ${(proofBytes / 1024).toFixed(1)} KiB | the server's copy of the trees: ${(Number(stats.bytes) / 2 ** 20).toFixed(0)} MiB | |`,
    );
    console.log(
      `| one user's proof, 6 currencies: first / again | ${firstProofMs.toFixed(0)} ms / ${cachedProofMs.toFixed(0)} ms | | |`,
    );
    console.log(`| check the file and the user's proof | ${verifyMs.toFixed(0)} ms | | |`);
    console.log(
      `| roots = what users hold (ledger), the file and the proof verify, ledger invariants | ${ok ? 'all hold' : 'BROKEN'} | | |`,
    );
    record([
      {
        benchmark: 'bench:liabilities',
        figure: `proof of liabilities: take and publish a snapshot, ${scale}, PostgreSQL`,
        value: `${seconds(publishMs)}; roots = ledger totals: ${rootsMatch ? 'yes' : 'NO'}`,
        reference: `plain select of the same balances: ${select.toFixed(0)} ms`,
        ratio: publishMs / select,
        target: `≤ ${TARGET_RATIO}, roots = ledger totals`,
        met: publishMs / select <= TARGET_RATIO && rootsMatch,
      },
      {
        benchmark: 'bench:liabilities',
        figure: 'what a customer downloads: the published file / their proof of 6 currencies; checking both',
        value: `${(text.length / 1024).toFixed(1)} KiB / ${(proofBytes / 1024).toFixed(1)} KiB; ${verifyMs.toFixed(0)} ms, ${check.ok && included ? 'holds' : 'FAILS'}`,
        reference: `the server's copy of the trees: ${(Number(stats.bytes) / 2 ** 20).toFixed(0)} MiB`,
        target: 'both verify',
        met: check.ok && included,
      },
      {
        benchmark: 'bench:liabilities',
        figure: "one user's proof (GET /api/wallet/proof), 6 currencies: first / again",
        value: `${firstProofMs.toFixed(0)} ms / ${cachedProofMs.toFixed(0)} ms`,
      },
    ]);
    if (!ok) process.exitCode = 1;
  } finally {
    await database.close();
    await admin(`drop database if exists ${name} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
