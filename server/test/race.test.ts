/**
 * @jest-environment node
 */
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { accounts as customerAccounts, ledgerAccounts } from '../src/db/schema';
import { advance } from '../src/modules/faucet/service';
import { balancesOf, systemAccount, transfer, userAccount, verifyLedger } from '../src/modules/ledger/service';
import {
  mailedOrderCode,
  mailedSendCode,
  freshBtcAddress,
  testApp,
  testUser,
  balanceOf,
  fixedRates,
  databaseKinds,
  type TestApp,
} from './helpers';
import type { AddressInfo } from 'node:net';

/**
 * The race suite (issue 9; the 2014 Flexcoin and Poloniex losses came from requests like these):
 * many identical requests released together over real sockets, and exactly the allowed number
 * succeeds. `npm test` sends RACE_N (default 60) of each; `npm run test:race` sends 500.
 */
const N = Number(process.env.RACE_N || 60);
jest.setTimeout(600_000);
const rates = fixedRates();
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

describe.each(databaseKinds())('requests released together (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let base: string;
  // One socket per request (no keep-alive pool), all opened at once: the server sees them as
  // concurrently as it can.
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  beforeAll(async () => {
    t = await testApp(kind, { LOOKUP_LIMIT_PER_MINUTE: '10' }, { rates });
    admin = t.admin;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = http.request(
        `${base}${path}`,
        { method, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, body: JSON.parse(text) as Record<string, unknown> }),
          );
        },
      );
      request.on('error', reject);
      request.end(payload);
    });

  const together = <T>(make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: N }, (_, i) => make(i)));

  const funded = async (email: string, btc: string) =>
    (await testUser(t, email, { deposit: btc, book: [EXTERNAL] })).headers;
  /** The codes mailed to `email` for these sends (each mail names its send by amount and address only). */
  async function codesOf(email: string, sendIds: string[]) {
    const codes = new Map<string, string>();
    for (const id of sendIds) codes.set(id, await mailedSendCode(t, email, id));
    return (sendId: string) => codes.get(sendId)!;
  }
  const btcBalance = (headers: Record<string, string>) => balanceOf(t, headers, 'BTC');

  it(`${N} sends of one whole balance, confirmed together: exactly one is paid`, async () => {
    const email = `whole-${kind}@example.com`;
    const headers = await funded(email, '0.01');
    // Each send asks for the whole balance minus its network fee.
    const started = await together(() =>
      call('POST', '/api/wallet/sends', headers, { currency: 'BTC', address: EXTERNAL, amount: '0.00998' }),
    );
    expect(started.every((r) => r.status === 201)).toBe(true);
    const codeOf = await codesOf(
      email,
      started.map((r) => r.body.id as string),
    );
    const codes = started.map((r) => ({ id: r.body.id as string, code: codeOf(r.body.id as string) }));
    const confirmed = await Promise.all(
      codes.map(({ id, code }) => call('POST', `/api/wallet/sends/${id}/confirm`, headers, { code })),
    );
    expect(confirmed.filter((r) => r.status === 200)).toHaveLength(1);
    expect(
      confirmed
        .filter((r) => r.status === 409)
        .every((r) => (r.body.error as { code: string }).code === 'insufficient_balance'),
    ).toBe(true);
    expect(await btcBalance(headers)).toBe('0.00000000');
    expect((await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json().ok).toBe(true);
  });

  it(`${N} sends confirmed together, each under the weekly threshold, together over it: the total stays within it`, async () => {
    const email = `weekly-${kind}@example.com`;
    // Enough for every send and its fee: only the weekly volume (1,000 EUR without mobile) stops them.
    const headers = await funded(email, (N * 0.00102 + 0.01).toFixed(8));
    const before = Number(await btcBalance(headers));
    // 0.001 BTC is 80 EUR: twelve make 960 EUR, a thirteenth would make 1,040.
    const started = await together(() =>
      call('POST', '/api/wallet/sends', headers, { currency: 'BTC', address: EXTERNAL, amount: '0.001' }),
    );
    expect(started.every((r) => r.status === 201)).toBe(true);
    const codeOf = await codesOf(
      email,
      started.map((r) => r.body.id as string),
    );
    const confirmed = await Promise.all(
      started.map((r) =>
        call('POST', `/api/wallet/sends/${r.body.id}/confirm`, headers, { code: codeOf(r.body.id as string) }),
      ),
    );
    expect(confirmed.filter((r) => r.status === 200)).toHaveLength(Math.min(N, 12));
    expect(
      confirmed
        .filter((r) => r.status !== 200)
        .every((r) => r.status === 403 && (r.body.error as { code: string }).code === 'mobile_verification_required'),
    ).toBe(true);
    expect(Number(await btcBalance(headers))).toBeCloseTo(before - Math.min(N, 12) * 0.00102, 8);
    expect((await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json().ok).toBe(true);
  });

  it(`${N} faucet entries of one account: exactly one`, async () => {
    const email = `faucet-${kind}@example.com`;
    const headers = await funded(email, '0.001');
    const address = (await t.app.inject({ url: '/api/wallet/addresses', headers })).json().addresses[0].address;
    // Open a round's registrations now rather than waiting for the clock.
    await t.app.workers.faucetTicker.start();
    await t.app.workers.faucetTicker.stop();
    await t.app.db.execute(
      sql`update faucet_rounds set opens_at = now() - interval '1 second' where finished_at is null`,
    );
    await advance(t.app.db, rates, t.app.faucet.settings);
    expect((await t.app.inject({ url: '/api/faucet' })).json().round.state).toBe('registrations_open');
    const entries = await together(() => call('POST', '/api/faucet/entries', headers, { address }));
    expect(entries.filter((r) => r.status === 201)).toHaveLength(1);
    expect(
      entries
        .filter((r) => r.status === 409)
        .every((r) => (r.body.error as { code: string }).code === 'already_entered'),
    ).toBe(true);
    expect(entries.filter((r) => r.status === 409)).toHaveLength(N - 1);
  });

  it(`${N} confirmations of one code: exactly one`, async () => {
    const email = `code-${kind}@example.com`;
    const headers = await funded(email, '0.01');
    const send = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/sends',
        headers,
        payload: { currency: 'BTC', address: EXTERNAL, amount: '0.001' },
      })
    ).json();
    const code = await mailedSendCode(t, email, send.id);
    const confirmed = await together(() => call('POST', `/api/wallet/sends/${send.id}/confirm`, headers, { code }));
    expect(confirmed.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await btcBalance(headers)).toBe('0.00898000');
  });

  it(`${N} order lookups for one email: exactly the 10 a minute allowed`, async () => {
    const email = `lookup-${kind}@example.com`;
    const order = (
      await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        payload: {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '50',
          email,
          address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
        },
      })
    ).json();
    const lookups = await together(() => call('POST', '/api/orders/lookup', {}, { email, reference: order.reference }));
    expect(lookups.filter((r) => r.status === 200)).toHaveLength(10);
    expect(lookups.filter((r) => r.status === 429)).toHaveLength(N - 10);
  });

  it(`${N} orders with one Idempotency-Key: one order`, async () => {
    const email = `idem-${kind}@example.com`;
    const placed = await together(() =>
      call(
        'POST',
        '/api/orders',
        { 'idempotency-key': `race-${kind}` },
        {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '50',
          email,
          address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
        },
      ),
    );
    expect(placed.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    expect(new Set(placed.map((r) => r.body.reference)).size).toBe(1);
    expect(placed.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it(`${N} anonymous buys of one customer, each under the weekly cap, together over it: they stop at 1,000 EUR`, async () => {
    const email = `burst-${kind}@example.com`;
    // New-customer buys of 90 EUR, each to an address of its own: 11 fit in the week (990 EUR).
    const placed = await together((i) =>
      call(
        'POST',
        '/api/orders',
        { 'idempotency-key': `burst-${kind}-${i}` },
        { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '90', email, address: freshBtcAddress() },
      ),
    );
    const accepted = placed.filter((r) => r.status === 201);
    expect(accepted).toHaveLength(11);
    expect(new Set(placed.filter((r) => r.status !== 201).map((r) => (r.body.error as { code: string }).code))).toEqual(
      new Set(['weekly_limit_login_required']),
    );
    // Nothing of a refused one stays: eleven orders, eleven confirmation emails.
    const { messages } = (await t.app.inject({ url: `/api/ops/outbox?to=${email}`, headers: admin })).json();
    expect(messages).toHaveLength(11);
    // The week is full, yet a retried Idempotency-Key answers its order rather than a refusal.
    const first = placed.indexOf(accepted[0]!);
    const again = await call(
      'POST',
      '/api/orders',
      { 'idempotency-key': `burst-${kind}-${first}` },
      { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '90', email, address: freshBtcAddress() },
    );
    expect(again.status).toBe(200);
    expect(again.body.reference).toBe(accepted[0]!.body.reference);
  });

  it(`${N} anonymous buys under ${N} spellings of one email and ${N} tags of one XRP account, together: they stop at 1,000 EUR`, async () => {
    // +tags, Gmail's dots, capitals, googlemail, a Cyrillic е: one mailbox, one link key. Each order a tag of its own.
    const spell = (i: number) => {
      const local = ['race.customer', 'RaceCustomer', 'r.a.c.e.customer', 'rac\u0435customer'][i % 4]!;
      return `${local}+${kind}${i}@${i % 3 ? 'gmail.com' : 'googlemail.com'}`;
    };
    const placed = await together((i) =>
      call(
        'POST',
        '/api/orders',
        {},
        {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'XRP',
          amount: '90',
          email: spell(i),
          address: `rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh:${1000 + i}`,
        },
      ),
    );
    expect(placed.filter((r) => r.status === 201)).toHaveLength(11); // 990 EUR
    expect(new Set(placed.filter((r) => r.status !== 201).map((r) => (r.body.error as { code: string }).code))).toEqual(
      new Set(['weekly_limit_login_required']),
    );
  });

  it(`${N} orders paid from one wallet out to a booked address, confirmed together with their codes: the week stops them`, async () => {
    const ETH_OUT = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
    const u = await testUser(t, `wallet-orders-${kind}@example.com`, {
      deposit: '1',
      book: [{ currency: 'ETH', address: ETH_OUT }],
    });
    // 80 EUR each, within the first-order cap: placed one after another, each waits for its code.
    const placed: string[] = [];
    for (let i = 0; i < N; i++) {
      const res = await call('POST', '/api/orders', u.headers, {
        type: 'swap',
        currencyFrom: 'BTC',
        currencyTo: 'ETH',
        amount: '0.001',
        email: u.email,
        useMyWallet: true,
        address: ETH_OUT,
      });
      expect(res.status).toBe(201);
      placed.push(res.body.reference as string);
    }
    const codes = new Map<string, string>();
    for (const reference of placed) codes.set(reference, await mailedOrderCode(t, u.email, reference));
    const confirmed = await Promise.all(
      placed.map((reference) =>
        call('POST', `/api/orders/${reference}/confirm`, u.headers, { code: codes.get(reference) }),
      ),
    );
    // An order paid from the wallet counts from the moment the wallet pays it, like a send: twelve
    // make 960 EUR, a thirteenth would pass the bank-verified week. The wallet lost exactly those.
    expect(confirmed.filter((r) => r.status === 200)).toHaveLength(12);
    expect(
      new Set(confirmed.filter((r) => r.status !== 200).map((r) => (r.body.error as { code: string }).code)),
    ).toEqual(new Set(['mobile_verification_required']));
    expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.98800000');
  });

  it(`${N} transfers into one hot account and ${N} out of it, together: every one booked once, none overdraws, every invariant holds`, async () => {
    // Issue 36: a transfer that finds an account's row held books on a sub-account instead of
    // waiting; a user's debit gathers them when its own row does not cover it. Real concurrent
    // transfers through the ledger service (the pool's ten connections on PostgreSQL).
    const db = t.database.db;
    const owners = await db
      .insert(customerAccounts)
      .values(
        Array.from({ length: N + 1 }, (_, i) => ({
          issuer: 'race',
          subject: `hot-${kind}-${i}`,
          accountKey: `HOT${String(i).padStart(5, '0')}`,
          depositLimitEurMinor: 0n,
        })),
      )
      .returning();
    const senders = await Promise.all(owners.slice(0, N).map((o) => userAccount(db, o.id, 'BTC')));
    const hot = await userAccount(db, owners[N]!.id, 'BTC');
    const [chain, fees] = [await systemAccount(db, 'chain', 'BTC'), await systemAccount(db, 'fees', 'BTC')];
    for (const [i, account] of senders.entries())
      await transfer(db, {
        id: `hot-fund:${kind}:${i}`,
        currency: 'BTC',
        debitAccountId: chain.id,
        creditAccountId: account.id,
        amount: 10n,
        code: 'deposit',
      });
    const feesBefore = (await systemAccount(db, 'fees', 'BTC')).balance;

    // Each sender pays 3 into the hot account and 1 into the house's fees account, all at once.
    const into = await together(async (i) => {
      await transfer(db, {
        id: `hot-in:${kind}:${i}`,
        currency: 'BTC',
        debitAccountId: senders[i]!.id,
        creditAccountId: hot.id,
        amount: 3n,
        code: 'internal',
      });
      await transfer(db, {
        id: `hot-fee:${kind}:${i}`,
        currency: 'BTC',
        debitAccountId: senders[i]!.id,
        creditAccountId: fees.id,
        amount: 1n,
        code: 'fee',
      });
      // The same id again books nothing.
      return (
        await transfer(db, {
          id: `hot-in:${kind}:${i}`,
          currency: 'BTC',
          debitAccountId: senders[i]!.id,
          creditAccountId: hot.id,
          amount: 3n,
          code: 'internal',
        })
      ).created;
    });
    expect(into.every((created) => !created)).toBe(true);
    expect((await userAccount(db, owners[N]!.id, 'BTC')).balance).toBe(BigInt(3 * N));
    expect((await systemAccount(db, 'fees', 'BTC')).balance - feesBefore).toBe(BigInt(N));

    // The hot account holds 3N; 4N debits of 1 at once, while N/2 credits of 1 arrive: what was paid
    // and what is left make exactly what came in, and nothing was paid that the account did not hold.
    const out = await Promise.all([
      ...Array.from({ length: 4 * N }, (_, i) =>
        transfer(db, {
          id: `hot-out:${kind}:${i}`,
          currency: 'BTC',
          debitAccountId: hot.id,
          creditAccountId: fees.id,
          amount: 1n,
          code: 'fee',
        }).then(
          () => 'paid',
          (error: { code?: string }) => error.code,
        ),
      ),
      ...Array.from({ length: N / 2 }, (_, i) =>
        transfer(db, {
          id: `hot-late:${kind}:${i}`,
          currency: 'BTC',
          debitAccountId: senders[i]!.id,
          creditAccountId: hot.id,
          amount: 1n,
          code: 'internal',
        }).then(() => 'credited'),
      ),
    ]);
    const paid = out.filter((r) => r === 'paid').length;
    expect(out.filter((r) => r === 'credited')).toHaveLength(N / 2);
    expect(paid).toBeGreaterThanOrEqual(3 * N);
    expect(new Set(out.filter((r) => r !== 'paid' && r !== 'credited'))).toEqual(new Set(['insufficient_balance']));
    const left = (await balancesOf(db, owners[N]!.id)).find((b) => b.currency === 'BTC')!.balance;
    expect(left >= 0n).toBe(true);
    expect(BigInt(paid) + left).toBe(BigInt(3 * N + N / 2));
    expect((await systemAccount(db, 'fees', 'BTC')).balance - feesBefore).toBe(BigInt(N + paid));

    // Its sub-accounts (PostgreSQL's concurrent transactions made some) are each at zero or above, never below.
    const rows = await db.execute(
      sql`select count(*)::int as n, coalesce(min(${ledgerAccounts.balance}), 0)::text as low from ${ledgerAccounts} where ${ledgerAccounts.parentId} is not null and ${ledgerAccounts.ownerId} is not null`,
    );
    const { n, low } = (rows as unknown as { rows: { n: number; low: string }[] }).rows[0]!;
    expect(BigInt(low) >= 0n).toBe(true);
    if (kind === 'postgresql') expect(n).toBeGreaterThan(0);
    expect((await verifyLedger(db)).filter((check) => !check.ok)).toEqual([]);
  });
});
