/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { createLocalJWKSet } from 'jose';
import { draw } from '#domain/faucet';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { localIdpAccess } from '../src/dev/idp-access';
import { verifyLedger } from '../src/modules/ledger/service';
import {
  adminHeaders,
  databaseKinds,
  fixedRates,
  postgresTestDatabase,
  testConfig,
  testKeys,
  testUser,
  type DatabaseKind,
} from './helpers';
import type { FastifyInstance } from 'fastify';

/**
 * Two API replicas on one database play 20 fast rounds (1 s each) with their tickers running as
 * in production. On PostgreSQL they are separate connection pools and the advisory lock elects
 * one ticker; midway the leader's connection is killed and its ticker stopped (the replica died),
 * and the other must take over. On PGlite (one process by nature) both tickers run at once with
 * no election at all: the worst case, which the database's row locks must still make safe.
 * Either way: exactly one winner and one credit per round, and the ledger balances.
 */
const rates = fixedRates({ XRP: '2.10' });
const ROUNDS = 20;

type Shared = { databases: [Database, Database]; drop(): Promise<void> };

async function sharedDatabase(kind: DatabaseKind): Promise<Shared> {
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir: '', inMemory: true });
    await database.migrate();
    // Both apps use the one embedded database; only the test closes it.
    const borrowed = { ...database, close: async () => undefined };
    return { databases: [borrowed, borrowed], drop: () => database.close() };
  }
  const created = await postgresTestDatabase('muntly_faucet');
  const a = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  await a.migrate();
  const b = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  return { databases: [a, b], drop: created.drop };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rows = async <T>(app: FastifyInstance, query: ReturnType<typeof sql>) =>
  ((await app.db.execute(query)) as unknown as { rows: T[] }).rows;

describe.each(databaseKinds())('faucet with two replicas (%s)', (kind) => {
  let shared: Shared;
  let apps: [FastifyInstance, FastifyInstance];
  let keys: Awaited<ReturnType<typeof testKeys>>;

  beforeAll(async () => {
    shared = await sharedDatabase(kind);
    keys = await testKeys();
    const make = (database: Database) => {
      const config = testConfig({ FAUCET_ROUND_SECONDS: '1', FAUCET_BUDGET_EUR: '100.00' });
      return buildApp(config, {
        database,
        jwks: createLocalJWKSet(keys.publicJwks),
        localIdp: localIdpAccess({
          keys,
          issuer: config.authIssuer,
          audience: config.authAudience,
          clientId: config.authClientId,
        }),
        rates,
      });
    };
    apps = [await make(shared.databases[0]), await make(shared.databases[1])];
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await shared.drop();
  });

  it(`plays ${ROUNDS} rounds: one winner and one ledger credit per round, the draw reproducible, the ledger balanced`, async () => {
    const [a, b] = apps;
    const admin = await adminHeaders(keys);
    const currencies = ['BTC', 'ETH', 'DOGE', 'XRP'];
    const players = [];
    for (const [i, currency] of currencies.entries()) {
      const { headers, address } = await testUser({ app: a, keys, admin }, `replica-${i}@muntly.test`, {
        address: currency,
      });
      players.push({ headers, address, app: i % 2 === 0 ? a : b });
    }

    await Promise.all(apps.map((app) => app.workers.faucetTicker.start()));
    const leaders = () => apps.filter((app) => app.workers.faucetTicker.leading).length;
    if (kind === 'postgresql') expect(leaders()).toBe(1);

    const played = new Set<number>();
    const tried = new Set<number>();
    let entered = 0;
    let failover: { at: number; tookOverMs?: number } | undefined;
    const deadline = Date.now() + 90_000;
    while (played.size < ROUNDS && Date.now() < deadline) {
      // Read through either replica: both see the same rounds.
      const viewer = played.size % 2 === 0 ? a : b;
      const round = (await viewer.inject({ url: '/api/faucet' })).json().round;
      if (round?.state === 'registrations_open' && !tried.has(round.id)) {
        tried.add(round.id);
        const results = await Promise.all(
          players.map((p) =>
            p.app.inject({
              method: 'POST',
              url: '/api/faucet/entries',
              headers: p.headers,
              payload: { address: p.address },
            }),
          ),
        );
        for (const r of results) expect([201, 409]).toContain(r.statusCode); // 409 when the window closed meanwhile (a busy machine)
        const accepted = results.filter((r) => r.statusCode === 201).length;
        entered += accepted;
        // A round counts once someone is in it; one the test reached too late is checked below with the rest.
        if (accepted > 0) played.add(round.id);
      }
      if (kind === 'postgresql') {
        if (!failover) expect(leaders()).toBe(1);
        if (!failover && played.size === ROUNDS / 2) {
          // The leader's replica dies: its lock session is killed and its ticker never runs again.
          const leader = apps.find((app) => app.workers.faucetTicker.leading)!;
          await rows(
            leader,
            sql`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`,
          );
          await leader.workers.faucetTicker.stop();
          failover = { at: Date.now() };
        }
        if (failover && failover.tookOverMs === undefined && leaders() === 1)
          failover.tookOverMs = Date.now() - failover.at;
      }
      await sleep(10);
    }
    // Let the last round finish.
    await sleep(1200);
    await Promise.all(apps.map((app) => app.workers.faucetTicker.stop()));

    expect(played.size).toBe(ROUNDS);
    expect(entered).toBeGreaterThanOrEqual(ROUNDS);
    if (kind === 'postgresql') {
      // Another replica took over well within a phase (a tick is 20 ms here, 1 s in production).
      expect(failover!.tookOverMs).toBeLessThan(1000);
    }

    const rounds = await rows<{
      id: number;
      state: string;
      seed: string;
      seed_hash: string;
      seed_chain_id: number | null;
      seed_index: number | null;
      mix_hash: string | null;
      entry_count: number | null;
      winner_entry_id: string | null;
      reward_currency: string | null;
      reward_amount: string | null;
    }>(
      a,
      sql`select id, state, seed, seed_hash, seed_chain_id, seed_index, mix_hash, entry_count, winner_entry_id, reward_currency, reward_amount::text from faucet_rounds order by id`,
    );
    const entries = await rows<{ id: string; round_id: number; ticket: string; account_id: string }>(
      a,
      sql`select id, round_id, ticket, account_id from faucet_entries`,
    );
    const transfers = await rows<{ id: string; currency: string; amount: string; owner_id: string }>(
      a,
      sql`select t.id, t.currency, t.amount::text, c.owner_id from ledger_transfers t join ledger_accounts c on c.id = t.credit_account_id where t.code = 'faucet'`,
    );
    const credits = new Map(transfers.map((t) => [t.id, t]));
    let winners = 0;
    for (const id of played) {
      const round = rounds.find((r) => r.id === id)!;
      expect(round.state).toBe('winner_announced');
      const mine = entries.filter((e) => e.round_id === id);
      expect(round.entry_count).toBe(mine.length);
      expect(mine.length).toBeGreaterThan(0);
      // Exactly one winner, the one the published data draws with the block mixed in, paid once.
      expect(round.mix_hash).toMatch(/^[0-9a-f]{64}$/);
      const expected = draw(
        round.seed,
        id,
        mine.map((e) => e.ticket),
        round.mix_hash,
      );
      const winner = mine.find((e) => e.id === round.winner_entry_id)!;
      expect(winner.ticket).toBe(expected.ticket);
      const credit = credits.get(`faucet:${id}`)!;
      expect(credit).toEqual({
        id: `faucet:${id}`,
        currency: round.reward_currency,
        amount: round.reward_amount,
        owner_id: winner.account_id,
      });
      winners++;
    }
    // No other faucet credits: no round paid twice, no empty round paid.
    const paidRounds = rounds.filter((r) => r.winner_entry_id !== null).map((r) => `faucet:${r.id}`);
    expect(transfers.map((t) => t.id).sort()).toEqual(paidRounds.sort());
    expect(winners).toBe(ROUNDS);
    // At most one round was ever current at a time, and rounds were numbered without gaps.
    expect(rounds.filter((r) => r.state !== 'winner_announced' && r.state !== 'game_over').length).toBeLessThanOrEqual(
      1,
    );
    expect(rounds.map((r) => r.id)).toEqual(rounds.map((_, i) => i + 1));
    // Whichever replica started a round, the rounds took one chain's seeds in order, each the
    // SHA-256 preimage of the one before.
    const seeded = rounds.filter((r) => r.seed_chain_id !== null);
    expect(seeded.map((r) => r.seed_index)).toEqual(seeded.map((_, i) => i + 1));
    for (const [i, r] of seeded.entries()) if (i > 0) expect(r.seed_hash).toBe(seeded[i - 1]!.seed);

    const checks = await verifyLedger(a.db);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    const [state] = await rows<{ budget: string }>(a, sql`select budget_eur_minor::text as budget from faucet_state`);
    expect(BigInt(state!.budget)).toBe(10_000n - 2n * BigInt(paidRounds.length));
  }, 150_000);
});
