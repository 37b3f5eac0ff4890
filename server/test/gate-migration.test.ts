/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { databaseKinds, databaseMigratedTo } from './helpers';

/**
 * Migration 0030 (issue 29) meets a database with orders in it: they get the link keys SQL can
 * compute, and a replica of the previous release — still running during a rolling deploy —
 * keeps placing orders the way it did (no link key written, the old four-argument count).
 */
jest.setTimeout(120_000);

describe.each(databaseKinds())('migration 0030 (%s)', (kind) => {
  it('keys the orders already there, and takes orders written by the previous release', async () => {
    const { database, drop } = await databaseMigratedTo(kind, '0029_sign_in_devices', 'gate_migration');
    try {
      const insert = (reference: string, email: string, currencyTo: string, address: string | null) =>
        database.db.execute(sql`
          insert into orders (reference, short_reference, type, currency_from, currency_to, email, address, amount, amount_eur, estimated_rate, estimated_amount_converted, fee, estimated_network_fee)
          values (${reference}, ${reference.slice(0, 9)}, 'buy', 'EUR', ${currencyTo}, ${email}, ${address}, 10000, 10000, '1', 1, 150, 0)`);
      await insert('AAAA-BBBB-CCCC-DDDD', ' Old.Customer@Example.com ', 'XRP', 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh:7');
      await insert('AAAA-BBBB-CCCC-EEEE', 'eth@example.com', 'ETH', '0x52908400098527886E0F7030069857D2E4169EE7');
      await database.migrate();
      const rows = async () =>
        (
          (await database.db.execute(
            sql`select reference, email_key, payout_key from orders order by reference`,
          )) as unknown as {
            rows: { reference: string; email_key: string; payout_key: string | null }[];
          }
        ).rows;
      expect(await rows()).toEqual([
        {
          reference: 'AAAA-BBBB-CCCC-DDDD',
          email_key: 'old.customer@example.com',
          payout_key: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh',
        },
        {
          reference: 'AAAA-BBBB-CCCC-EEEE',
          email_key: 'eth@example.com',
          payout_key: '0x52908400098527886e0f7030069857d2e4169ee7',
        },
      ]);
      // The previous release writes no link key: the database gives the order one.
      await insert('AAAA-BBBB-CCCC-FFFF', 'Late.Replica@Example.com', 'BTC', null);
      expect((await rows())[2]).toEqual({
        reference: 'AAAA-BBBB-CCCC-FFFF',
        email_key: 'late.replica@example.com',
        payout_key: null,
      });
      // Its count of a customer's week still answers (the orders placed, as it counted them).
      const old = (await database.db.execute(
        sql`select customer_orders_eur(null::uuid, 'late.replica@example.com', null, now() - interval '7 days')::text as total`,
      )) as unknown as {
        rows: { total: string }[];
      };
      expect(old.rows[0]!.total).toBe('10000');
    } finally {
      await drop();
    }
  });
});
