/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { CURRENCIES } from '../../domain/currencies';
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
  const result = (await database.db.execute(sql`select data_type from information_schema.columns where table_schema = 'public' and table_name = 'orders' and column_name = ${column}`)) as unknown as {
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
  it('knows the decimals of every listed currency and EUR, as domain/currencies.ts has them', () => {
    const decimals = Object.fromEntries([...MIGRATION.matchAll(/WHEN '([A-Z]+)' THEN (\d+)/g)].map((m) => [m[1], Number(m[2])]));
    expect(decimals).toEqual({ EUR: 2, ...Object.fromEntries(CURRENCIES.map((c) => [c.code, c.decimals])) });
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
      expect(await columnType(database, 'amount')).toBe('bigint');
      expect(await columnType(database, 'actual_rate')).toBe('numeric');

      const row = async (reference: string) => (await database.db.select().from(orders).where(eq(orders.reference, reference)))[0]!;
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
      expect(orderView(swap, bank)).toMatchObject({ amount: '1500000.001000000', estimatedAmountConverted: '0.00038981', fee: '0.16' });
      expect(await row('IIII-JJJJ-KKKK-LLLL')).toMatchObject({ amount: 12_345_678n, estimatedAmountConverted: 608n, estimatedNetworkFee: 0n, amountReceived: null });
      expect(await row('MMMM-NNNN-OOOO-PPPP')).toMatchObject({ amount: 25000n, estimatedAmountConverted: 0n, fee: 0n, estimatedNetworkFee: 0n, estimatedRate: '1' });
    } finally {
      await drop();
    }
  });

  it.each<[string, Partial<TextOrder>, RegExp]>([
    ['an amount that is not a decimal', { amountReceived: '100,00' }, /migration 0012 refuses order AAAA-BBBB-CCCC-DDDD: orders\.amount_received is '100,00', not a decimal amount/],
    [
      'more decimals than the currency has',
      { actualAmountConverted: '0.001205001' },
      /migration 0012 refuses order AAAA-BBBB-CCCC-DDDD: orders\.actual_amount_converted is '0\.001205001', more decimals than BTC has \(8\)/,
    ],
    ['a rate that is not a decimal (numeric alone would take NaN)', { actualRate: 'NaN' }, /migration 0012 refuses order AAAA-BBBB-CCCC-DDDD: orders\.actual_rate is 'NaN', not a decimal rate/],
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
      const kept = (await database.db.execute(sql`select amount, amount_received, actual_rate, actual_amount_converted from orders order by reference`)) as unknown as { rows: unknown[] };
      expect(kept.rows).toEqual([
        { amount: '100', amount_received: bad.amountReceived ?? '100.00', actual_rate: bad.actualRate ?? '0.00001250000000', actual_amount_converted: bad.actualAmountConverted ?? '0.00120500' },
        { amount: '100', amount_received: '100.00', actual_rate: '0.00001250000000', actual_amount_converted: '0.00120500' },
      ]);
      // The operator corrects the value by hand, as the hint says, and the next start-up migrates.
      await database.db.execute(sql`update orders set amount_received = '100.00', actual_rate = '0.00001250000000', actual_amount_converted = '0.00120500' where reference = 'AAAA-BBBB-CCCC-DDDD'`);
      await database.migrate();
      expect(await database.ready()).toBe(true);
      const [fixed] = await database.db.select().from(orders).where(eq(orders.reference, 'AAAA-BBBB-CCCC-DDDD'));
      expect(fixed).toMatchObject({ amountReceived: 10000n, actualRate: '0.00001250000000', actualAmountConverted: 120500n });
    } finally {
      await drop();
    }
  });
});
