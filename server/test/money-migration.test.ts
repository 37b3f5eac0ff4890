/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { CURRENCIES, knownDecimals } from '#domain/currencies';
import { MIGRATIONS_DIR, type Database } from '../src/db/client';
import { orders } from '../src/db/schema';
import { orderView } from '../src/modules/orders/views';
import { databaseKinds, databaseMigratedTo } from './helpers';

/**
 * Migration 0012 moves order amounts from decimal text to bigint minor units and rates to
 * numeric. It is tested the way it meets a real database: migrations up to 0011 applied, orders
 * written as the code of that time wrote them, then the start-up migration.
 */
// Every test builds fresh databases and runs every migration on them, on a loaded machine too.
jest.setTimeout(120_000);

const MIGRATION = fs.readFileSync(path.join(MIGRATIONS_DIR, '0012_money_minor_units.sql'), 'utf8');
const bank = { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', beneficiary: 'Muntly' };

type TextOrder = {
  reference: string;
  type: string;
  from: string;
  to: string;
  status?: string;
  amount: string;
  amountEur: string;
  estimatedRate: string;
  estimatedAmountConverted: string;
  fee: string;
  estimatedNetworkFee: string;
  amountReceived?: string;
  actualRate?: string;
  actualAmountConverted?: string;
  actualNetworkFee?: string;
  actualFee?: string;
};

/** An order row as the code before 0012 wrote it: every amount and rate a decimal string. */
async function insertTextOrder(database: Database, o: TextOrder) {
  await database.db.execute(sql`
    insert into orders (reference, short_reference, type, currency_from, currency_to, status, email, amount, amount_eur, estimated_rate,
      estimated_amount_converted, fee, estimated_network_fee, amount_received, actual_rate, actual_amount_converted, actual_network_fee, actual_fee)
    values (${o.reference}, ${o.reference.slice(0, 9)}, ${o.type}, ${o.from}, ${o.to}, ${o.status ?? 'new'}, 'migrated@example.com', ${o.amount}, ${o.amountEur},
      ${o.estimatedRate}, ${o.estimatedAmountConverted}, ${o.fee}, ${o.estimatedNetworkFee}, ${o.amountReceived ?? null}, ${o.actualRate ?? null},
      ${o.actualAmountConverted ?? null}, ${o.actualNetworkFee ?? null}, ${o.actualFee ?? null})`);
}

async function columnType(database: Database, column: string): Promise<string> {
  const result = (await database.db.execute(
    sql`select data_type from information_schema.columns where table_schema = 'public' and table_name = 'orders' and column_name = ${column}`,
  )) as unknown as {
    rows: { data_type: string }[];
  };
  return result.rows[0]!.data_type;
}

const BUY: TextOrder = {
  // A bank-paid buy, completed: the amount as the customer typed it, everything else as quoted.
  reference: 'AAAA-BBBB-CCCC-DDDD',
  type: 'buy',
  from: 'EUR',
  to: 'BTC',
  status: 'completed_success',
  amount: '100',
  amountEur: '100.00',
  estimatedRate: '0.00001250000000',
  estimatedAmountConverted: '0.00120500',
  fee: '2.00',
  estimatedNetworkFee: '0.00002000',
  amountReceived: '100.00',
  actualRate: '0.00001250000000',
  actualAmountConverted: '0.00120500',
  actualNetworkFee: '0.00002000',
  actualFee: '2.00',
};

describe('migration 0012 (money in minor units)', () => {
  it('knows the decimals of every listed currency and EUR, as domain/currencies.ts has them (ether as it was then: gwei, which 0033 makes wei)', () => {
    const decimals = Object.fromEntries(
      [...MIGRATION.matchAll(/WHEN '([A-Z]+)' THEN (\d+)/g)].map((m) => [m[1], Number(m[2])]),
    );
    expect(decimals).toEqual({ EUR: 2, ...Object.fromEntries(CURRENCIES.map((c) => [c.code, c.decimals])), ETH: 9 });
    expect(knownDecimals('ETH')).toBe(18);
  });
});

describe.each(databaseKinds())('migration 0012 (%s)', (kind) => {
  it('converts existing orders exactly, and the API shows them as before', async () => {
    const { database, drop } = await databaseMigratedTo(kind, '0011_payouts', 'muntly_money');
    try {
      await insertTextOrder(database, BUY);
      // Paid from the wallet: amountReceived is the typed amount (a trailing zero), and a swap
      // between a tiny and a large price has a rate big.js wrote with an exponent.
      await insertTextOrder(database, {
        reference: 'EEEE-FFFF-GGGG-HHHH',
        type: 'swap',
        from: 'SHIB',
        to: 'BTC',
        status: 'processing',
        amount: '1500000.0010',
        amountEur: '31.50',
        estimatedRate: '2.625000000e-10',
        estimatedAmountConverted: '0.00038981',
        fee: '0.16',
        estimatedNetworkFee: '0.00000000',
        amountReceived: '1500000.0010',
      });
      // A sell to EUR (6 and 2 decimals elsewhere: XRP), and a deposit whose quote had failed.
      await insertTextOrder(database, {
        reference: 'IIII-JJJJ-KKKK-LLLL',
        type: 'sell',
        from: 'XRP',
        to: 'EUR',
        amount: '12.345678',
        amountEur: '6.17',
        estimatedRate: '0.5000000000',
        estimatedAmountConverted: '6.08',
        fee: '0.09',
        estimatedNetworkFee: '0.00',
      });
      await insertTextOrder(database, {
        reference: 'MMMM-NNNN-OOOO-PPPP',
        type: 'deposit',
        from: 'EUR',
        to: 'ETH',
        amount: '250.00',
        amountEur: '250.00',
        estimatedRate: '1',
        estimatedAmountConverted: '0',
        fee: '0.00',
        estimatedNetworkFee: '0',
      });

      await database.migrate();
      expect(await database.ready()).toBe(true);
      // numeric(38, 0) since 0033 (ether in wei), read as a bigint all the same.
      expect(await columnType(database, 'amount')).toBe('numeric');
      expect(await columnType(database, 'actual_rate')).toBe('numeric');

      const row = async (reference: string) =>
        (await database.db.select().from(orders).where(eq(orders.reference, reference)))[0]!;
      const buy = await row('AAAA-BBBB-CCCC-DDDD');
      expect(buy).toMatchObject({
        amount: 10000n,
        amountEur: 10000n,
        estimatedRate: '0.00001250000000',
        estimatedAmountConverted: 120500n,
        fee: 200n,
        estimatedNetworkFee: 2000n,
        amountReceived: 10000n,
        actualRate: '0.00001250000000',
        actualAmountConverted: 120500n,
        actualNetworkFee: 2000n,
        actualFee: 200n,
      });
      expect(orderView(buy, bank)).toMatchObject({
        amount: '100.00',
        amountEur: '100.00',
        amountReceived: '100.00',
        actualRate: '0.00001250000000',
        actualFee: '2.00',
        actualNetworkFee: '0.00002000',
        actualAmountConverted: '0.00120500',
        paymentDetails: { amount: '100.00' },
      });
      const swap = await row('EEEE-FFFF-GGGG-HHHH');
      expect(swap).toMatchObject({
        amount: 1_500_000_001_000_000n,
        amountReceived: 1_500_000_001_000_000n,
        estimatedRate: '0.0000000002625000000',
        estimatedNetworkFee: 0n,
        actualRate: null,
        actualFee: null,
      });
      expect(orderView(swap, bank)).toMatchObject({
        amount: '1500000.001000000',
        estimatedAmountConverted: '0.00038981',
        fee: '0.16',
      });
      expect(await row('IIII-JJJJ-KKKK-LLLL')).toMatchObject({
        amount: 12_345_678n,
        estimatedAmountConverted: 608n,
        estimatedNetworkFee: 0n,
        amountReceived: null,
      });
      expect(await row('MMMM-NNNN-OOOO-PPPP')).toMatchObject({
        amount: 25000n,
        estimatedAmountConverted: 0n,
        fee: 0n,
        estimatedNetworkFee: 0n,
        estimatedRate: '1',
      });
    } finally {
      await drop();
    }
  });

  it.each<[string, Partial<TextOrder>, RegExp]>([
    [
      'an amount that is not a decimal',
      { amountReceived: '100,00' },
      /migration 0012 refuses order AAAA-BBBB-CCCC-DDDD: orders\.amount_received is '100,00', not a decimal amount/,
    ],
    [
      'more decimals than the currency has',
      { actualAmountConverted: '0.001205001' },
      /migration 0012 refuses order AAAA-BBBB-CCCC-DDDD: orders\.actual_amount_converted is '0\.001205001', more decimals than BTC has \(8\)/,
    ],
    [
      'a rate that is not a decimal (numeric alone would take NaN)',
      { actualRate: 'NaN' },
      /migration 0012 refuses order AAAA-BBBB-CCCC-DDDD: orders\.actual_rate is 'NaN', not a decimal rate/,
    ],
  ])('refuses %s: the start-up fails naming the order, and nothing is changed', async (_, bad, message) => {
    const { database, drop } = await databaseMigratedTo(kind, '0011_payouts', 'muntly_money');
    try {
      await insertTextOrder(database, { ...BUY, ...bad });
      await insertTextOrder(database, { ...BUY, reference: 'ZZZZ-BBBB-CCCC-DDDD' });
      const refused = await database.migrate().then(
        () => null,
        (error: Error) => error.message,
      );
      expect(refused).toMatch(message);
      expect(refused).toContain('Correct the order by hand');
      // All or nothing: still text, nothing zeroed, 0012 not recorded.
      expect(await database.ready()).toBe(false);
      expect(await columnType(database, 'amount')).toBe('text');
      const kept = (await database.db.execute(
        sql`select amount, amount_received, actual_rate, actual_amount_converted from orders order by reference`,
      )) as unknown as { rows: unknown[] };
      expect(kept.rows).toEqual([
        {
          amount: '100',
          amount_received: bad.amountReceived ?? '100.00',
          actual_rate: bad.actualRate ?? '0.00001250000000',
          actual_amount_converted: bad.actualAmountConverted ?? '0.00120500',
        },
        {
          amount: '100',
          amount_received: '100.00',
          actual_rate: '0.00001250000000',
          actual_amount_converted: '0.00120500',
        },
      ]);
      // The operator corrects the value by hand, as the hint says, and the next start-up migrates.
      await database.db.execute(
        sql`update orders set amount_received = '100.00', actual_rate = '0.00001250000000', actual_amount_converted = '0.00120500' where reference = 'AAAA-BBBB-CCCC-DDDD'`,
      );
      await database.migrate();
      expect(await database.ready()).toBe(true);
      const [fixed] = await database.db.select().from(orders).where(eq(orders.reference, 'AAAA-BBBB-CCCC-DDDD'));
      expect(fixed).toMatchObject({
        amountReceived: 10000n,
        actualRate: '0.00001250000000',
        actualAmountConverted: 120500n,
      });
    } finally {
      await drop();
    }
  });
});

/**
 * Migration 0033 keeps ether in wei (18 decimals) instead of gwei (9): every money column that can
 * hold a crypto amount becomes numeric(38, 0), and every stored ETH amount is multiplied by 10^9
 * in the same step. Tested as it meets a database of the previous release.
 */
describe.each(databaseKinds())('migration 0033, ether in wei (%s)', (kind) => {
  it('scales every stored ether amount to wei and nothing else; transfers stay immutable; published proofs keep their gwei', async () => {
    const { database, drop } = await databaseMigratedTo(kind, '0032_chain_return', 'muntly_wei');
    const rows = async <T>(query: ReturnType<typeof sql>) =>
      ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
    try {
      // Two system accounts per currency and a transfer between them, as the code of 0032 wrote them (ETH in gwei).
      await database.db.execute(sql`insert into ledger_accounts (id, currency, system_code, balance) values
        ('00000000-0000-4000-8000-000000000001', 'ETH', 'chain', -1500000001), ('00000000-0000-4000-8000-000000000002', 'ETH', 'fees', 1500000001),
        ('00000000-0000-4000-8000-000000000003', 'BTC', 'chain', -120500), ('00000000-0000-4000-8000-000000000004', 'BTC', 'fees', 120500)`);
      await database.db
        .execute(sql`insert into ledger_transfers (id, currency, debit_account_id, credit_account_id, amount, code) values
        ('t-eth', 'ETH', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 1500000001, 'deposit'),
        ('t-btc', 'BTC', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000004', 120500, 'deposit')`);
      // A swap into ether (its converted amount and network fee are ETH) and a sell of ether (its amount is).
      await database.db
        .execute(sql`insert into orders (reference, short_reference, type, currency_from, currency_to, status, email, amount, amount_eur,
          estimated_rate, estimated_amount_converted, fee, estimated_network_fee, amount_received, actual_rate, actual_amount_converted, actual_network_fee, actual_fee) values
        ('SWAP-INTO-ETHE-RRRR', 'SWAP-INTO', 'swap', 'BTC', 'ETH', 'completed_success', 'w@example.com', 100000, 8000, '26.5', 2652913333, 40, 420000, 100000, '26.5', 2652913333, 420000, 40),
        ('SELL-ETHE-RRRR-RRRR', 'SELL-ETHE', 'sell', 'ETH', 'EUR', 'new', 'w@example.com', 250000000, 75000, '3000', 74000, 100, 0, null, null, null, null, null)`);
      await database.db.execute(
        sql`insert into liability_snapshots (taken_at, reserves) values (now(), '{"source":"simulated","currencies":[]}')`,
      );
      await database.db
        .execute(sql`insert into liability_trees (snapshot_id, currency, root_hash, total, leaf_count, tree, nodes)
        select id, 'ETH', repeat('a', 64), 1500000001, 1, '{"currency":"ETH","decimals":9,"root":{"hash":"aa","sum":"1500000001"},"leafCount":1,"levels":[]}', '\\x00'::bytea from liability_snapshots`);

      await database.migrate();
      expect(await database.ready()).toBe(true);

      expect(
        await rows(
          sql`select currency, system_code, balance::text from ledger_accounts order by currency, system_code`,
        ),
      ).toEqual([
        { currency: 'BTC', system_code: 'chain', balance: '-120500' },
        { currency: 'BTC', system_code: 'fees', balance: '120500' },
        { currency: 'ETH', system_code: 'chain', balance: '-1500000001000000000' },
        { currency: 'ETH', system_code: 'fees', balance: '1500000001000000000' },
      ]);
      expect(await rows(sql`select id, amount::text from ledger_transfers order by id`)).toEqual([
        { id: 't-btc', amount: '120500' },
        { id: 't-eth', amount: '1500000001000000000' },
      ]);
      // The migration turned the immutability trigger off for its one rewrite only.
      await expect(
        database.db.execute(sql`update ledger_transfers set amount = 1 where id = 't-eth'`),
      ).rejects.toThrow();

      const order = async (reference: string) =>
        (await database.db.select().from(orders).where(eq(orders.reference, reference)))[0]!;
      expect(await order('SWAP-INTO-ETHE-RRRR')).toMatchObject({
        amount: 100000n, // BTC: unchanged
        estimatedAmountConverted: 2_652_913_333_000_000_000n,
        estimatedNetworkFee: 420_000_000_000_000n,
        actualAmountConverted: 2_652_913_333_000_000_000n,
        actualNetworkFee: 420_000_000_000_000n,
        fee: 40n, // EUR cents: unchanged
      });
      expect(orderView(await order('SWAP-INTO-ETHE-RRRR'), bank)).toMatchObject({
        actualAmountConverted: '2.652913333000000000',
        actualNetworkFee: '0.000420000000000000',
      });
      expect(await order('SELL-ETHE-RRRR-RRRR')).toMatchObject({
        amount: 250_000_000_000_000_000n,
        estimatedAmountConverted: 74000n,
      });

      // A published proof never changes: the old ether tree stays in gwei, and says so.
      expect(await rows(sql`select decimals, total::text from liability_trees`)).toEqual([
        { decimals: 9, total: '1500000001' },
      ]);
    } finally {
      await drop();
    }
  });
});

describe.each(databaseKinds())('migration 0035, proof of solvency (%s)', (kind) => {
  it('withdraws format 1’s leaves, paths, nonces and deposit addresses; each snapshot keeps its totals', async () => {
    const { database, drop } = await databaseMigratedTo(kind, '0034_eth_chain', 'muntly_proof2');
    try {
      const run = (query: ReturnType<typeof sql>) =>
        database.db.execute(query) as unknown as Promise<{ rows: Record<string, unknown>[] }>;
      await run(
        sql`insert into accounts (id, issuer, subject, email, account_key, deposit_limit_eur_minor) values ('11111111-1111-4111-8111-111111111111', 'https://idp.test/', 'old', 'old@muntly.test', 'OLDKEY', 0)`,
      );
      const reserves = {
        source: 'simulated-chain',
        currencies: [
          { currency: 'BTC', addresses: [{ address: 'bc1qdeposit', branch: 'users', balance: '0.5' }], held: '0.5' },
        ],
      };
      await run(
        sql`insert into liability_snapshots (id, taken_at, reserves) overriding system value values (1, now(), ${JSON.stringify(reserves)}::jsonb)`,
      );
      await run(
        sql`insert into liability_trees (snapshot_id, currency, root_hash, total, decimals, leaf_count, tree, nodes) values (1, 'BTC', ${'ab'.repeat(32)}, 50000000, 8, 3, '{"levels":[]}', '\x0102'::bytea)`,
      );
      await run(
        sql`insert into liability_accounts (snapshot_id, account_id, nonce, leaves) values (1, '11111111-1111-4111-8111-111111111111', ${'cd'.repeat(32)}, '{"BTC":[0,2]}'::jsonb)`,
      );
      await database.migrate();
      const [snapshot] = (await run(sql`select format, reserves from liability_snapshots where id = 1`)).rows;
      expect(snapshot).toEqual({
        format: 'muntly-liabilities-1',
        reserves: { source: 'simulated-chain', withdrawn: true, currencies: [{ currency: 'BTC', held: '0.5' }] },
      });
      const [tree] = (
        await run(sql`select total::text as total, root_hash, tree, length(nodes) as bytes from liability_trees`)
      ).rows;
      expect(tree).toEqual({ total: '50000000', root_hash: 'ab'.repeat(32), tree: null, bytes: 0 });
      expect((await run(sql`select count(*)::int as n from liability_accounts`)).rows[0]!.n).toBe(0);
    } finally {
      await drop();
    }
  });
});
