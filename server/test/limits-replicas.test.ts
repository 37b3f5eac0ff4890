/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { createLocalJWKSet } from 'jose';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { rows } from '../src/db/raw';
import { localIdpAccess } from '../src/dev/idp-access';
import { sweepLimits, takeLimit, type Limit } from '../src/limits';
import { applyRetention } from '../src/modules/retention/service';
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
 * The limits that protect a person hold across API replicas (issue 34): two app instances on one
 * database — on PostgreSQL two separate connection pools, as two processes behind a load balancer
 * would be — and a stranger who alternates between them, and between client addresses, still gets
 * the limit once, not once per replica. Kept in each process's memory (as before), each replica
 * let the full limit through on its own.
 */
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
type Shared = { databases: [Database, Database]; drop(): Promise<void> };

async function sharedDatabase(kind: DatabaseKind): Promise<Shared> {
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir: '', inMemory: true });
    await database.migrate();
    const borrowed = { ...database, close: async () => undefined };
    return { databases: [borrowed, borrowed], drop: () => database.close() };
  }
  const created = await postgresTestDatabase('muntly_limits');
  const a = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  await a.migrate();
  const b = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  return { databases: [a, b], drop: created.drop };
}

describe.each(databaseKinds())('limits across two replicas (%s)', (kind) => {
  let shared: Shared;
  let apps: [FastifyInstance, FastifyInstance];
  let keys: Awaited<ReturnType<typeof testKeys>>;

  beforeAll(async () => {
    shared = await sharedDatabase(kind);
    keys = await testKeys();
    const make = (database: Database) => {
      // Per client address: plenty (the per-client limits stay in each process, docs/security.md, "Limits").
      const config = testConfig({
        ORDER_LIMIT_PER_EMAIL_PER_HOUR: '3',
        ORDER_LIMIT_PER_CLIENT_PER_HOUR: '1000',
        LOOKUP_LIMIT_PER_MINUTE: '4',
      });
      return buildApp(config, {
        database,
        jwks: createLocalJWKSet(keys.publicJwks),
        localIdp: localIdpAccess({
          keys,
          issuer: config.authIssuer,
          audience: config.authAudience,
          clientId: config.authClientId,
        }),
        rates: fixedRates(),
      });
    };
    apps = [await make(shared.databases[0]), await make(shared.databases[1])];
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await shared.drop();
  });

  const replica = (i: number) => apps[i % 2]!;
  const mailsTo = async (recipient: string) =>
    (
      await rows<{ n: number }>(
        apps[0].db,
        sql`select count(*)::int as n from outbox where lower(recipient) = ${recipient}`,
      )
    )[0]!.n;

  it("orders per email: alternating replicas and client addresses, a stranger still gets 3 orders into someone's inbox, not 3 per replica", async () => {
    const place = (i: number, email: string) =>
      replica(i).inject({
        method: 'POST',
        url: '/api/orders',
        remoteAddress: `10.34.0.${i}`,
        payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '10', email, address: BTC_ADDRESS },
      });
    const spellings = [
      'victim@example.com',
      'VICTIM@example.com',
      ' Victim@Example.COM ',
      'victim@EXAMPLE.com',
      'victim@example.com',
      'Victim@example.com',
    ];
    const statuses: number[] = [];
    for (const [i, email] of spellings.entries()) statuses.push((await place(i, email)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    expect(await mailsTo('victim@example.com')).toBe(3);
  });

  it('orders per email, all at once on both replicas: exactly the limit gets through', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        replica(i).inject({
          method: 'POST',
          url: '/api/orders',
          remoteAddress: `10.34.1.${i}`,
          payload: {
            type: 'buy',
            currencyFrom: 'EUR',
            currencyTo: 'BTC',
            amount: '10',
            email: 'rush@example.com',
            address: BTC_ADDRESS,
          },
        }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(7);
    expect(await mailsTo('rush@example.com')).toBe(3);
  });

  it('a refused order counts for nothing: an invalid one leaves the limit where it was', async () => {
    const place = (i: number, amount: string) =>
      replica(i).inject({
        method: 'POST',
        url: '/api/orders',
        remoteAddress: `10.34.2.${i}`,
        payload: {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount,
          email: 'careful@example.com',
          address: 'not-an-address',
        },
      });
    for (let i = 0; i < 5; i++) expect((await place(i, '10')).statusCode).toBe(400);
    const good = await replica(1).inject({
      method: 'POST',
      url: '/api/orders',
      remoteAddress: '10.34.2.9',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '10',
        email: 'careful@example.com',
        address: BTC_ADDRESS,
      },
    });
    expect(good.statusCode).toBe(201);
  });

  it('lookups per email: guesses spread over both replicas and many addresses get the limit once', async () => {
    const guess = (i: number) =>
      replica(i).inject({
        method: 'POST',
        url: '/api/orders/lookup',
        remoteAddress: `10.34.3.${i}`,
        payload: { email: i % 2 ? 'Target@Example.com' : 'target@example.com', reference: 'AAAA-BBBB-CCCC-DDDD' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await guess(i)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429, 429, 429]);
  });

  it("support messages per sender: a stranger cannot fill someone's inbox with confirmations through both replicas", async () => {
    const send = (i: number) =>
      replica(i).inject({
        method: 'POST',
        url: '/api/support',
        remoteAddress: `10.34.4.${i}`,
        payload: {
          name: 'Someone',
          email: i % 2 ? 'INBOX@example.com' : 'inbox@example.com',
          topic: 'order',
          message: 'Where is my order? It has been two days now.',
        },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send(i)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(await mailsTo('inbox@example.com')).toBe(5);
  });

  it('fee questions per account: the same 60 a minute whichever replica answers', async () => {
    const admin = await adminHeaders(keys);
    const { headers } = await testUser({ app: apps[0], keys, admin }, 'feeprobe@muntly.test');
    const ask = (i: number) =>
      replica(i).inject({
        url: `/api/wallet/send-fee?currency=BTC&address=${BTC_ADDRESS}`,
        headers,
        remoteAddress: `10.34.5.${i % 250}`,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await ask(i)).statusCode);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual([429, 429]);
  });

  it('security links: one link gets 10 uses across both replicas and all addresses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await replica(i).inject({ url: '/api/security/freeze?t=a-forwarded-link', remoteAddress: `10.34.6.${i}` }))
          .statusCode,
      );
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe.each(databaseKinds())('the shared counter (%s)', (kind) => {
  let shared: Shared;
  beforeAll(async () => {
    shared = await sharedDatabase(kind);
  });
  afterAll(() => shared.drop());
  const limit: Limit = { name: 'test-limit', max: 2, windowMs: 60_000 };

  it('counts per window: a new window starts after the last one ended, and says how long to wait', async () => {
    const db = shared.databases[0].db;
    const t0 = new Date('2026-11-28T10:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect((await takeLimit(db, limit, 'a', at(0))).ok).toBe(true);
    expect((await takeLimit(shared.databases[1].db, limit, 'a', at(1000))).ok).toBe(true);
    const refused = await takeLimit(db, limit, 'a', at(20_000));
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 40 });
    // Another subject has its own count.
    expect((await takeLimit(db, limit, 'b', at(20_000))).ok).toBe(true);
    // The window ends 60 s after its first use.
    expect((await takeLimit(db, limit, 'a', at(60_000))).ok).toBe(true);
  });

  it('gives a use back (release) and deletes ended windows (the retention job)', async () => {
    const db = shared.databases[0].db;
    const now = new Date();
    const first = await takeLimit(db, limit, 'c', now);
    const second = await takeLimit(db, limit, 'c', now);
    expect((await takeLimit(db, limit, 'c', now)).ok).toBe(false);
    if (second.ok) await second.release();
    expect((await takeLimit(db, limit, 'c', now)).ok).toBe(true);
    expect(first.ok).toBe(true);
    const before = (await rows<{ n: number }>(db, sql`select count(*)::int as n from limit_counters`))[0]!.n;
    expect(before).toBeGreaterThan(0);
    // The counters hold no subject in the clear.
    const keys = await rows<{ key: string }>(db, sql`select key from limit_counters`);
    expect(keys.every((k) => /^[0-9a-f]{64}$/.test(k.key))).toBe(true);
    await applyRetention(db, new Date(now.getTime() + 3_600_000));
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from limit_counters`))[0]!.n).toBe(0);
    expect(await sweepLimits(db)).toBe(0);
  });
});
