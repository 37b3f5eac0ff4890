/**
 * `npm run bench:faucet`: a faucet round with 10,000 entries — the time of the draw and the credit
 * (the ticker's transition registrations_closed -> winner_announced: the block mixed in, lock,
 * read every entry, sort, hash, HMAC, ledger transfer, budget; one transaction), target ≤ 1 s; and the time to build the
 * public view of that round (what GET /api/faucet and each live update send).
 *
 * Runs on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; it creates and drops its own database) and on the
 * embedded PGlite, three rounds each; BENCH_ENTRIES changes the round size.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { FAUCET_CURRENCIES, SALT_BYTES, ticketOf, verifyRound } from '#domain/faucet';
import { openDatabase, type Database } from '../server/src/db/client';
import { faucetEntries } from '../server/src/db/schema';
import { simulatedChain } from '../server/src/dev/simulated-chain';
import { nodeHashes } from '../server/src/modules/faucet/hashes';
import { advance, ensureState, type FaucetSettings } from '../server/src/modules/faucet/service';
import { currentView } from '../server/src/modules/faucet/views';
import { verifyLedger } from '../server/src/modules/ledger/service';
import { record } from './support';

const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ENTRIES = Number(process.env.BENCH_ENTRIES || 10_000);
const ROUNDS = 3;
/** The target: the slowest draw and credit of a round, in milliseconds. */
const TARGET_MS = 1000;
const settings: FaucetSettings = {
  roundMs: 360_000,
  rewardEurMinor: 2n,
  initialBudgetEurMinor: 100_000n,
  seedChainLength: 10_000,
  chain: simulatedChain(),
};
const rates = {
  current: async () => ({
    at: 'now',
    rates: { BTC: '80000', ETH: '3000', XRP: '2.10', BCH: '420', LTC: '90', DOGE: '0.19' },
  }),
};

const rows = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** Moves the current round's schedule so that `point` has just passed. */
async function jumpTo(database: Database, point: 'opens_at' | 'closes_at' | 'draws_at' | 'ends_at') {
  await database.db.execute(
    sql.raw(`
      update faucet_rounds set starts_at = starts_at - d, opens_at = opens_at - d, closes_at = closes_at - d, draws_at = draws_at - d, ends_at = ends_at - d
      from (select (${point} - now()) + interval '5 milliseconds' as d from faucet_rounds where finished_at is null) s
      where finished_at is null`),
  );
}

async function seedPlayers(database: Database) {
  // Players and their reception addresses, in bulk (the draw does not care how they were made).
  await database.db.execute(sql`
    insert into accounts (issuer, subject, account_key, deposit_limit_eur_minor)
    select 'bench', 'player-' || g, 'BENCH' || g, 10000 from generate_series(1, ${ENTRIES}) g`);
  await database.db.execute(sql`
    insert into reception_addresses (owner_id, currency, derivation_index, address)
    select a.id, (array['BTC','ETH','XRP','BCH','LTC','DOGE'])[1 + (row_number() over (order by a.subject)) % 6],
           row_number() over (order by a.subject), 'bench-address-' || a.subject
    from accounts a where a.issuer = 'bench'`);
  return rows<{ id: string; owner_id: string; currency: string; address: string }>(
    database,
    sql`select id, owner_id, currency, address from reception_addresses`,
  );
}

async function benchOn(label: string, database: Database) {
  await database.migrate();
  await ensureState(database.db, settings);
  const players = await seedPlayers(database);
  const drawMs: number[] = [];
  const viewMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await advance(database.db, rates, settings); // a new round (or, after the first, the next one)
    await jumpTo(database, 'opens_at');
    await advance(database.db, rates, settings);
    const [round] = await rows<{ id: number }>(
      database,
      sql`select id from faucet_rounds where finished_at is null and state = 'registrations_open'`,
    );
    for (let i = 0; i < players.length; i += 1000) {
      await database.db.insert(faucetEntries).values(
        // Salted as real entries are (server/src/modules/faucet/entries.ts).
        players.slice(i, i + 1000).map((p) => {
          const salt = randomBytes(SALT_BYTES).toString('hex');
          return {
            roundId: round!.id,
            accountId: p.owner_id,
            addressId: p.id,
            currency: p.currency,
            address: p.address,
            ticket: ticketOf(round!.id, p.address, salt),
            salt,
          };
        }),
      );
    }
    await jumpTo(database, 'closes_at');
    await advance(database.db, rates, settings); // registrations_closed; the draw is not due yet
    await jumpTo(database, 'draws_at');
    const started = performance.now();
    await advance(database.db, rates, settings);
    const elapsed = performance.now() - started;
    const [after] = await rows<{ state: string }>(
      database,
      sql`select state from faucet_rounds where id = ${round!.id}`,
    );
    if (after!.state !== 'winner_announced') throw new Error('the draw did not run in the measured step');
    drawMs.push(elapsed);

    const viewStarted = performance.now();
    const view = (await currentView(database.db, rates))!;
    viewMs.push(performance.now() - viewStarted);
    const check = verifyRound(
      {
        id: view.id,
        seed: view.seed!,
        seedHash: view.seedHash!,
        mix: view.mix!.hash,
        entriesHash: view.entriesHash,
        tickets: view.players.map((p) => p.ticket),
        winnerTicket: view.winner!.ticket,
      },
      nodeHashes,
    );
    if (view.playerCount !== ENTRIES || !check.seedMatches || !check.winnerMatches)
      throw new Error('the round does not verify');
    await jumpTo(database, 'ends_at');
  }
  const ledgerOk = (await verifyLedger(database.db)).every((c) => c.ok);
  const credits = await rows<{ n: number }>(
    database,
    sql`select count(*)::int as n from ledger_transfers where code = 'faucet'`,
  );
  const fmt = (values: number[]) =>
    `${[...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!.toFixed(0)} ms (max ${Math.max(...values).toFixed(0)})`;
  return {
    label,
    draw: fmt(drawMs),
    view: fmt(viewMs),
    maxDraw: Math.max(...drawMs),
    ledgerOk,
    credits: credits[0]!.n,
  };
}

async function admin(query: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(query);
  await client.end();
}

async function main() {
  const results = [];
  const name = `muntly_bench_faucet_${Date.now()}`;
  let postgres = true;
  try {
    await admin(`create database ${name}`);
  } catch (error) {
    postgres = false;
    console.warn(`PostgreSQL at ${new URL(adminUrl).host} not reachable (${(error as Error).message}): PGlite only.`);
  }
  if (postgres) {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    try {
      results.push(await benchOn(`PostgreSQL ${new URL(adminUrl).host}`, database));
    } finally {
      await database.close();
      await admin(`drop database if exists ${name} with (force)`);
    }
  }
  const embedded = await openDatabase({ dataDir: '', inMemory: true });
  try {
    results.push(await benchOn('PGlite (embedded)', embedded));
  } finally {
    await embedded.close();
  }

  console.log(
    `\nbench:faucet — ${new Date().toISOString()} — ${os.cpus().length} cores, ${ENTRIES} entries per round, ${ROUNDS} rounds, currencies ${FAUCET_CURRENCIES.join(' ')}`,
  );
  console.log('| database | draw + credit (median) | target | public view of the round | credits | ledger |');
  console.log('|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.draw} | ≤ ${TARGET_MS} ms: ${r.maxDraw <= TARGET_MS ? 'met' : 'MISSED'} | ${r.view} | ${r.credits} for ${ROUNDS} rounds | ${r.ledgerOk ? 'invariants hold' : 'BROKEN'} |`,
    );
  }
  record(
    results.map((r) => ({
      benchmark: 'bench:faucet',
      figure: `faucet draw + credit of a ${ENTRIES.toLocaleString('en')}-entry round, ${r.label}`,
      value: `${r.draw}; ${r.credits} credits for ${ROUNDS} rounds; ledger ${r.ledgerOk ? 'holds' : 'BROKEN'}`,
      target: `≤ ${TARGET_MS} ms, one credit per round, ledger holds`,
      met: r.maxDraw <= TARGET_MS && r.ledgerOk && r.credits === ROUNDS,
    })),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
