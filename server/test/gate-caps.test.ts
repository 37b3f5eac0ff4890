/**
 * @jest-environment node
 */
/**
 * The caps of an anonymous order are applied by the database, in the statement that places it
 * (place_anonymous_order calls anonymous_cap_refusal, migration 0042), and judged by the exchange
 * gate's rule everywhere else (domain/gates.ts exchangeRefusal). The limits themselves are handed
 * to the database from domain/limits.ts; this proves, over random amounts, weeks and customers,
 * that the two judge alike: the same refusal, or none.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { currencyByCode } from '#domain/currencies';
import { exchangeRefusal } from '#domain/gates';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
} from '#domain/limits';
import { rows } from '../src/db/raw';
import { databaseKinds, freshDatabase } from './helpers';

const near = (limit: bigint) => fc.bigInt({ min: limit - 3n, max: limit + 3n });
// Amounts the gate lets reach the database (above ORDER_LIMIT_EUR_MINOR it refuses before), many near the caps.
const amount = fc
  .oneof(near(FIRST_ORDER_LIMIT_EUR_MINOR), fc.bigInt({ min: 1n, max: ORDER_LIMIT_EUR_MINOR }))
  .filter((a) => a >= 1n && a <= ORDER_LIMIT_EUR_MINOR);
// What the customer's week held before this order: often just below or above the weekly cap.
const week = fc
  .oneof(
    fc.constant(0n),
    near(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR),
    fc.bigInt({ min: 0n, max: 4n * MOBILE_VERIFICATION_WEEKLY_EUR_MINOR }),
  )
  .filter((w) => w >= 0n);

describe.each(databaseKinds())('the anonymous caps, in the database and in the gate (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    t = await freshDatabase(kind);
  }, 120_000);
  afterAll(() => t.drop());

  it('refuse the same orders with the same code', async () => {
    await fc.assert(
      fc.asyncProperty(amount, week, fc.boolean(), async (amountEur, weekBefore, newCustomer) => {
        const gate = exchangeRefusal({
          path: 'anonymous_order',
          type: 'buy',
          buySellEnabled: true,
          from: null,
          to: currencyByCode('BTC')!,
          fromWallet: false,
          toWallet: false,
          phases: null,
          amountEurMinor: amountEur,
          newCustomer,
          weeklyEurMinor: weekBefore + amountEur,
        });
        // As place_anonymous_order asks: whether the customer is new only above the first-order cap.
        const [database] = await rows<{ refusal: string | null }>(
          t.database.db,
          sql`select anonymous_cap_refusal(${amountEur.toString()}::bigint, ${amountEur > FIRST_ORDER_LIMIT_EUR_MINOR && newCustomer}, ${(weekBefore + amountEur).toString()}::bigint, ${FIRST_ORDER_LIMIT_EUR_MINOR.toString()}::bigint, ${MOBILE_VERIFICATION_WEEKLY_EUR_MINOR.toString()}::bigint) as refusal`,
        );
        expect(database!.refusal).toBe(gate?.code ?? null);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS || 300) },
    );
  }, 120_000);
});
