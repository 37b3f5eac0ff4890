import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, calculateJwkThumbprint, type JWK } from 'jose';
import { buildApp, type AppDependencies } from '../src/app';
import { loadConfig, LOCAL_AUDIENCE, type Config } from '../src/config';
import { MIGRATIONS_DIR, openDatabase, type Database } from '../src/db/client';
import { localIdpAccess } from '../src/dev/idp-access';
import { verifyLedger } from '../src/modules/ledger/service';
import { orderCodeHash } from '../src/modules/orders/service';
import { runPayouts } from '../src/modules/payouts/service';
import { sendCodeHash } from '../src/modules/wallet/sends';
import { run } from '../src/ops/cli';
import type { VerificationKind } from '#domain/verification';
import type { IdpKeys } from '../src/dev/keys';
import type { RatesAdapter } from '../src/modules/rates/service';
import type { SignerApi } from '../src/signer/signer';
import type { FastifyInstance } from 'fastify';

/**
 * Test support: the real app on a real database. Database suites run on PGlite, and also on the
 * PostgreSQL server in TEST_DATABASE_URL when it is set (CI), each in a fresh database.
 */
export type DatabaseKind = 'pglite' | 'postgresql';

export function databaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgresql'] : ['pglite'];
}

export async function freshDatabase(kind: DatabaseKind): Promise<{ database: Database; drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir: '', inMemory: true, loadDataDir: await migratedPglite() });
    await database.migrate(); // nothing to do: the snapshot has every migration
    return { database, drop: async () => database.close().catch(() => undefined) };
  }
  const created = await postgresTestDatabase('muntly_test', await migratedPostgresTemplate());
  const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  await database.migrate(); // nothing to do: the template has every migration
  return {
    database,
    drop: async () => {
      await database.close().catch(() => undefined); // already closed with the app
      await created.drop();
    },
  };
}

/**
 * An empty PGlite database with every migration applied, as a data-directory tarball. A new PGlite
 * runs initdb, about 3 s of the machine's time; loading this takes about 0.6 s. Made once per set
 * of migrations (and PGlite version) and shared by every test file through a file in the temp
 * directory, written whole and then renamed so that no worker reads half of one.
 */
/** A hash of every migration file (and `salt`): a snapshot or template made from other migrations is never used. */
function migrationsHash(salt: string): string {
  const hash = createHash('sha256').update(salt);
  for (const file of fs.readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()) {
    const full = path.join(MIGRATIONS_DIR, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

let snapshot: Promise<Blob> | undefined;
function migratedPglite(): Promise<Blob> {
  snapshot ??= (async () => {
    const pglite = JSON.parse(
      fs.readFileSync(path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8'),
    ) as { version: string };
    const file = path.join(os.tmpdir(), `muntly-pglite-migrated-${migrationsHash(pglite.version)}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)], { type: 'application/x-tar' });
    const database = await openDatabase({ dataDir: '', inMemory: true });
    await database.migrate();
    const dumped = await database.dump!();
    await database.close();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, Buffer.from(await dumped.arrayBuffer()));
    fs.renameSync(partial, file);
    return dumped;
  })();
  return snapshot;
}

/**
 * The same for the PostgreSQL server: a database with every migration applied, kept on the server
 * as a template (`muntly_tpl_<hash>`). CREATE DATABASE … TEMPLATE copies its files, about 0.1 s,
 * where running the migrations on a new database takes several times that. It is migrated under
 * another name and renamed when done, so no test copies a half-migrated one; two workers making it
 * at once each make one, and the second rename loses and drops its own.
 */
let template: Promise<string> | undefined;
export function migratedPostgresTemplate(): Promise<string> {
  template ??= (async () => {
    const { Client } = await import('pg');
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `muntly_tpl_${migrationsHash('postgresql')}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount) return name;
      const building = `${name}_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
      await database.migrate();
      await database.close();
      try {
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch {
        await admin.query(`drop database if exists ${building} with (force)`); // another worker's is there
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return template;
}

/** A new database on the TEST_DATABASE_URL server (empty, or a copy of `template`), and how to drop it. */
export async function postgresTestDatabase(
  prefix: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const { Client } = await import('pg');
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A fresh database with the migrations up to `lastTag` applied, as a database of an older release
 * was: the migrations folder copied with its journal cut after that migration. For tests of what
 * a later migration does to existing rows.
 */
export async function databaseMigratedTo(
  kind: DatabaseKind,
  lastTag: string,
  prefix: string,
): Promise<{ database: Database; drop(): Promise<void> }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-migrations-'));
  fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  let database: Database;
  let drop: () => Promise<void>;
  if (kind === 'pglite') {
    database = await openDatabase({ dataDir: '', inMemory: true });
    drop = () => database.close().catch(() => undefined);
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder: folder });
  } else {
    const created = await postgresTestDatabase(prefix);
    database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    drop = async () => {
      await database.close().catch(() => undefined);
      await created.drop();
    };
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(database.db as never, { migrationsFolder: folder });
  }
  fs.rmSync(folder, { recursive: true, force: true });
  return { database, drop };
}

export const TEST_ISSUER = 'http://localhost:4001/';

/** A signing key pair standing in for the identity provider's. */
export async function testKeys(): Promise<IdpKeys & { publicJwks: { keys: JWK[] } }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    privateJwk: { ...privateJwk, kid, alg: 'RS256' },
    publicJwk: { ...publicJwk, kid, alg: 'RS256' },
    cookieKeys: ['test-cookie-key'],
    publicJwks: { keys: [{ ...publicJwk, kid, alg: 'RS256' }] },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-public-'));
  // Suites place many orders from one address; the placement limits have their own test (orders.test.ts).
  // Their users are verified moments before they pay out: the newly-verified rule of four eyes has
  // its own test (payout-approval.test.ts).
  const unlimited = {
    ORDER_LIMIT_PER_EMAIL_PER_HOUR: '100000',
    ORDER_LIMIT_PER_CLIENT_PER_HOUR: '100000',
    PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS: '0',
  };
  return loadConfig({
    LOG_LEVEL: 'silent',
    PUBLIC_DIR: publicDir,
    DATA_DIR: publicDir,
    ORDER_WORKER_INTERVAL_MS: '0',
    EMAIL_WRITER_INTERVAL_MS: '0',
    PAYOUT_WORKER_INTERVAL_MS: '0',
    LIABILITIES_INTERVAL_MS: '0',
    ...unlimited,
    ...overrides,
  });
}

/** The signer's view of the API (`npm run signer` calls it over HTTP), as an operator of the app under test; `app` is read when called (set in beforeAll). */
export function signerApi(app: () => TestApp): SignerApi {
  const call = async (method: 'GET' | 'POST', route: string, body?: unknown) => {
    const t = app();
    const res = await t.app.inject({
      method,
      url: route,
      headers: t.admin,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${route}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  return { get: (route) => call('GET', route), post: (route, body) => call('POST', route, body) };
}

export type TestApp = {
  app: FastifyInstance;
  keys: Awaited<ReturnType<typeof testKeys>>;
  config: Config;
  database: Database;
  /** An operator's session: headers with a token carrying `use:muntly` and `admin:muntly`. */
  admin: Record<string, string>;
  /** Checks every ledger invariant (what `ops ledger:verify` checks), then stops the app and drops its database. */
  close(): Promise<void>;
};

export async function testApp(
  kind: DatabaseKind,
  configOverrides: Record<string, string> = {},
  extra: Partial<AppDependencies> = {},
): Promise<TestApp> {
  const { database, drop } = await freshDatabase(kind);
  const keys = await testKeys();
  const config = testConfig(configOverrides);
  const app = await buildApp(config, {
    database,
    jwks: createLocalJWKSet(keys.publicJwks),
    localIdp: config.localIdp
      ? localIdpAccess({
          keys,
          issuer: config.authIssuer,
          audience: config.authAudience,
          clientId: config.authClientId,
        })
      : undefined,
    ...extra,
  }).catch(async (error: unknown) => {
    // An app refused at start-up (a test of that) leaves no database open: an open PGlite loaded
    // from the snapshot would keep the test process alive after the run.
    await drop();
    throw error;
  });
  return {
    app,
    keys,
    config,
    database,
    admin: await adminHeaders(keys),
    close: async () => {
      // Whatever a suite did, the ledger must still hold: a suite whose requests broke an
      // invariant fails here, naming it.
      const broken = (await verifyLedger(database.db)).filter((check) => !check.ok);
      await app.close();
      await drop();
      if (broken.length)
        throw new Error(
          `ledger invariants broken: ${broken.map((c) => `${c.name}: ${c.problems.slice(0, 3).join('; ')}`).join(' | ')}`,
        );
    },
  };
}

type TokenOptions = {
  sub?: string;
  scope?: string;
  iss?: string;
  aud?: string | string[];
  expiresIn?: string | number;
  notBefore?: string | number;
  email?: string;
  name?: string;
  kid?: string;
  /** When the user logged in (auth_time, seconds since the epoch): now unless given; null leaves it out. */
  authTime?: number | null;
  /** How they logged in (amr), e.g. ['pwd', 'otp']; none unless given. */
  amr?: string[];
  /** Any other claims (an Auth0 Action's namespaced ones). */
  claims?: Record<string, unknown>;
};

/** Signs an access token with the test key, shaped like the provider's. */
export async function signToken(keys: IdpKeys, options: TokenOptions = {}): Promise<string> {
  const { importJWK } = await import('jose');
  const jwt = new SignJWT({
    scope: options.scope ?? 'openid profile email use:muntly',
    ...(options.email ? { email: options.email } : {}),
    ...(options.name ? { name: options.name } : {}),
    ...(options.authTime === null ? {} : { auth_time: options.authTime ?? Math.floor(Date.now() / 1000) }),
    ...(options.amr ? { amr: options.amr } : {}),
    ...options.claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? keys.privateJwk.kid, typ: 'at+jwt' })
    .setIssuer(options.iss ?? TEST_ISSUER)
    .setAudience(options.aud ?? LOCAL_AUDIENCE)
    .setSubject(options.sub ?? `user-${randomBytes(6).toString('hex')}`)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h');
  if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
  return jwt.sign(await importJWK(keys.privateJwk, 'RS256'));
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An operator's headers: a token with `use:muntly` and `admin:muntly` (what `TestApp.admin` holds). */
export async function adminHeaders(keys: IdpKeys): Promise<Record<string, string>> {
  return bearer(await signToken(keys, { sub: 'operator', scope: 'use:muntly admin:muntly' }));
}

/**
 * EUR prices the suites compute their expected amounts from; a suite that needs another price
 * overrides it. Some currencies (SOL, …) have none on purpose: a missing rate is a case too.
 */
export const FIXED_RATES: Readonly<Record<string, string>> = {
  BTC: '80000',
  ETH: '3000',
  USDT: '0.92',
  XRP: '0.5',
  LTC: '90',
  BCH: '420',
  DOGE: '0.19',
};

export function fixedRates(overrides: Record<string, string> = {}): RatesAdapter {
  const rates = { ...FIXED_RATES, ...overrides };
  return { current: async () => ({ at: '2026-11-22T00:00:00.000Z', rates }) };
}

/** The headers of a logged-in user, whose account exists already (as after their first API call). */
export async function loggedIn(t: TestApp, email: string): Promise<Record<string, string>> {
  const headers = bearer(await signToken(t.keys, { sub: `auth0|${email}`, email, name: email.split('@')[0] }));
  await t.app.inject({ url: '/api/me', headers });
  return headers;
}

export type TestUser = { email: string; headers: Record<string, string>; accountKey: string; address: string };

export type TestUserOptions = {
  /** The verification kinds an operator marks verified (default: the bank account, which the wallet needs). */
  verified?: VerificationKind[];
  /** With a verified bank account: the currency of a reception address to create (default BTC); false for none. */
  address?: string | false;
  /** That address's label. */
  label?: string;
  /** An amount credited to that address by a chain deposit: the user's balance in its currency. */
  deposit?: string;
  /** Addresses (BTC unless a currency is given) to put in the user's address book, past their hold (bookAddresses). */
  book?: Parameters<typeof bookAddresses>[2];
  /** The login's amr: by default with a second factor (pwd + otp), as a user who sends large amounts logs in. */
  amr?: string[];
};

/**
 * A logged-in user (account created), verified and with a balance as the suite needs: the
 * fixture most wallet, faucet and order suites start from. Every step must succeed.
 */
export async function testUser(
  t: Pick<TestApp, 'app' | 'keys' | 'admin'>,
  email: string,
  options: TestUserOptions = {},
): Promise<TestUser> {
  const { verified = ['bank'], address: currency = 'BTC', label, deposit, book = [], amr = ['pwd', 'otp'] } = options;
  const headers = bearer(await signToken(t.keys, { sub: `auth0|${email}`, email, name: email.split('@')[0], amr }));
  const expectOk = async (step: string, response: Promise<{ statusCode: number; body: string; json(): unknown }>) => {
    const res = await response;
    if (res.statusCode >= 300) throw new Error(`testUser ${email}: ${step} answered ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, string>;
  };
  const { accountKey } = await expectOk('GET /api/me', t.app.inject({ url: '/api/me', headers }));
  for (const kind of verified) {
    await expectOk(
      `verify ${kind}`,
      t.app.inject({ method: 'POST', url: '/api/ops/verification/verify', headers: t.admin, payload: { email, kind } }),
    );
  }
  let address = '';
  if (verified.includes('bank') && currency) {
    const payload = { currency, ...(label ? { label } : {}) };
    address = (
      await expectOk(
        'create an address',
        t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers, payload }),
      )
    ).address!;
    if (deposit) {
      await expectOk(
        'chain deposit',
        t.app.inject({
          method: 'POST',
          url: '/api/ops/chain-deposit',
          headers: t.admin,
          payload: { currency, address, amount: deposit },
        }),
      );
    }
  } else if (deposit) {
    throw new Error(`testUser ${email}: a deposit needs a verified bank account and an address`);
  }
  if (book.length) await bookAddresses(t as Pick<TestApp, 'app'>, { headers }, book);
  return { email, headers, accountKey, address };
}

/**
 * Puts addresses in a user's address book as entries whose hold has passed (as if added a day
 * ago): new accounts send only to such entries (allow-list mode), and most suites are not about
 * the hold. Every step must succeed; an address already in the book is aged as it is.
 */
export async function bookAddresses(
  t: Pick<TestApp, 'app'>,
  user: { headers: Record<string, string> },
  entries: (string | { currency?: string; address: string; ownWallet?: boolean })[],
): Promise<void> {
  for (const entry of entries) {
    const { currency = 'BTC', address, ownWallet = false } = typeof entry === 'string' ? { address: entry } : entry;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/address-book',
      headers: user.headers,
      payload: { currency, address, ownWallet },
    });
    if (res.statusCode !== 201 && res.json().error?.code !== 'address_already_in_book')
      throw new Error(`bookAddresses: ${address} answered ${res.statusCode} ${res.body}`);
  }
  const { entries: book } = (await t.app.inject({ url: '/api/wallet/address-book', headers: user.headers })).json() as {
    entries: { id: string }[];
  };
  for (const { id } of book)
    await t.app.db.execute(
      sql`update address_book set usable_from = now() - interval '1 second', created_at = created_at - interval '1 day' where id = ${id}`,
    );
}

/** A user's balance in one currency, as GET /api/wallet/balances shows it. */
export async function balanceOf(
  t: Pick<TestApp, 'app'>,
  headers: Record<string, string>,
  currency: string,
): Promise<string | undefined> {
  const { balances } = (await t.app.inject({ url: '/api/wallet/balances', headers })).json() as {
    balances: { currency: string; balance: string }[];
  };
  return balances.find((b) => b.currency === currency)?.balance;
}

/**
 * Runs `npm run ops -- …` commands in this process against the server at `url` with an admin
 * token (OPS_URL / OPS_TOKEN, restored afterwards); returns what they printed.
 */
export async function opsCliOutput(
  url: string,
  headers: Record<string, string>,
  commands: (ops: typeof run) => Promise<void>,
): Promise<string[]> {
  const saved = { url: process.env.OPS_URL, token: process.env.OPS_TOKEN };
  process.env.OPS_URL = url;
  process.env.OPS_TOKEN = headers.authorization!.replace('Bearer ', '');
  const printed: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  try {
    await commands(run);
  } finally {
    log.mockRestore();
    if (saved.url === undefined) delete process.env.OPS_URL;
    else process.env.OPS_URL = saved.url;
    if (saved.token === undefined) delete process.env.OPS_TOKEN;
    else process.env.OPS_TOKEN = saved.token;
  }
  return printed;
}

/**
 * What the payout worker does on its next run (tests run with PAYOUT_WORKER_INTERVAL_MS=0): takes
 * every due payout, hands it to the app's adapters and books the answer. Returns how many.
 */
export async function payOut(t: TestApp): Promise<number> {
  return runPayouts(t.app.db, {
    adapters: t.app.workers.payoutAdapters,
    outcomes: t.app.workers.payoutOutcomes,
    leaseMs: t.config.PAYOUT_LEASE_MS,
  });
}

/** A one-time code in a message: four groups of four letters (domain/codes.ts). */
export const ONE_TIME_CODE = /[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}/;

/**
 * The code mailed to `email` to confirm the send `sendId`. The mail names the send by amount and
 * address only (no internal id), so of the codes mailed to `email` it is the one the send accepts
 * (its stored hash), as the user would find out by typing it.
 */
export async function mailedSendCode(
  t: Pick<TestApp, 'app' | 'admin'>,
  email: string,
  sendId: string,
): Promise<string> {
  const { rows } = (await t.app.db.execute(
    sql`select o.body, s.code_hash from outbox o, wallet_sends s where s.id = ${sendId} and o.channel = 'email' and lower(o.recipient) = lower(${email}) and o.created_at >= s.created_at`,
  )) as unknown as { rows: { body: string; code_hash: string }[] };
  const codes = rows.flatMap(({ body, code_hash: hash }) =>
    [...body.matchAll(new RegExp(ONE_TIME_CODE, 'g'))].map(([code]) => ({ code, hash })),
  );
  const code = codes.find(({ code, hash }) => sendCodeHash(sendId, code) === hash)?.code;
  if (!code) throw new Error(`no email to ${email} has the code of send ${sendId}`);
  return code;
}

/** A UUID anywhere in a text: no email names anything by its internal id. */
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Confirms the send `sendId` of `user` with the code from its mail, as the user would. */
export async function confirmSendFromMail(
  t: Pick<TestApp, 'app' | 'admin'>,
  user: { email: string; headers: Record<string, string> },
  sendId: string,
  headers: Record<string, string> = {},
) {
  const code = await mailedSendCode(t, user.email, sendId);
  return t.app.inject({
    method: 'POST',
    url: `/api/wallet/sends/${sendId}/confirm`,
    headers: { ...user.headers, ...headers },
    payload: { code },
  });
}

/** The code mailed to `email` for the wallet-paid order `reference` (found by its hash, as for sends). */
export async function mailedOrderCode(t: Pick<TestApp, 'app'>, email: string, reference: string): Promise<string> {
  const { rows } = (await t.app.db.execute(
    sql`select o.body, r.code_hash from outbox o, orders r where r.reference = ${reference} and o.channel = 'email' and o.body is not null and lower(o.recipient) = lower(${email}) and o.created_at >= r.created_at`,
  )) as unknown as { rows: { body: string; code_hash: string | null }[] };
  const codes = rows.flatMap(({ body, code_hash: hash }) =>
    [...body.matchAll(new RegExp(ONE_TIME_CODE, 'g'))].map(([code]) => ({ code, hash })),
  );
  const code = codes.find(({ code, hash }) => orderCodeHash(reference, code) === hash)?.code;
  if (!code) throw new Error(`no email to ${email} has the code of order ${reference}`);
  return code;
}

/** Confirms the wallet-paid order `reference` of `user` with the code from its mail, as the user would. */
export async function confirmWalletOrder(
  t: Pick<TestApp, 'app'>,
  user: { email: string; headers: Record<string, string> },
  reference: string,
  headers: Record<string, string> = {},
) {
  const code = await mailedOrderCode(t, user.email, reference);
  return t.app.inject({
    method: 'POST',
    url: `/api/orders/${reference}/confirm`,
    headers: { ...user.headers, ...headers },
    payload: { code },
  });
}

export { freshBtcAddress } from '../../bench/support';

/**
 * As if `ms` (default a day) had passed since every identity code was sent: step 1 may send a
 * new one again (the limits in domain/identity.ts count codes by when they were sent).
 */
export async function ageSentCodes(t: Pick<TestApp, 'app'>, ms = 86_400_000): Promise<void> {
  await t.app.db.execute(
    sql`update verification_codes set created_at = created_at - ${`${ms} milliseconds`}::interval`,
  );
}
