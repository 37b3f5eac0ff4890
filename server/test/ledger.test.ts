/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { accounts } from '../src/db/schema';
import { transfer, userAccount, systemAccount, verifyLedger, balancesOf } from '../src/modules/ledger/service';
import { freshDatabase, databaseKinds, type DatabaseKind } from './helpers';
import type { Database } from '../src/db/client';

async function newUser(database: Database, key: string) {
  const [row] = await database.db
    .insert(accounts)
    .values({
      issuer: 'test',
      subject: key,
      accountKey: key.padEnd(8, 'X').slice(0, 8).toUpperCase(),
      depositLimitEurMinor: 100_000n,
    })
    .returning();
  return row!;
}

const allOk = async (db: Database['db']) => (await verifyLedger(db)).every((check) => check.ok);

describe.each(databaseKinds())('ledger (%s)', (kind: DatabaseKind) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await freshDatabase(kind));
  });
  afterAll(() => drop());

  it('moves money between accounts and keeps every invariant', async () => {
    const db = database.db;
    const alice = await userAccount(db, (await newUser(database, 'alice001')).id, 'BTC');
    const chain = await systemAccount(db, 'chain', 'BTC');
    await transfer(db, {
      id: 'deposit:1',
      currency: 'BTC',
      debitAccountId: chain.id,
      creditAccountId: alice.id,
      amount: 150_000n,
      code: 'deposit',
    });
    expect(await balancesOf(db, alice.ownerId!)).toEqual([{ currency: 'BTC', balance: 150_000n }]);
    expect(await allOk(db)).toBe(true);
  });

  it('refuses to take a user account below zero', async () => {
    const db = database.db;
    const bob = await userAccount(db, (await newUser(database, 'bob00001')).id, 'ETH');
    const chain = await systemAccount(db, 'chain', 'ETH');
    await transfer(db, {
      id: 'deposit:bob',
      currency: 'ETH',
      debitAccountId: chain.id,
      creditAccountId: bob.id,
      amount: 10n,
      code: 'deposit',
    });
    await expect(
      transfer(db, {
        id: 'send:bob',
        currency: 'ETH',
        debitAccountId: bob.id,
        creditAccountId: chain.id,
        amount: 11n,
        code: 'send',
      }),
    ).rejects.toMatchObject({
      code: 'insufficient_balance',
    });
    expect(await balancesOf(db, bob.ownerId!)).toEqual([{ currency: 'ETH', balance: 10n }]);
    // Nothing of the refused transfer was kept.
    const kept = (await db.execute(
      sql`select count(*)::int as n from ledger_transfers where id = 'send:bob'`,
    )) as unknown as { rows: { n: number }[] };
    expect(kept.rows[0]!.n).toBe(0);
  });

  it('books a transfer id once; the same id with other terms is a conflict', async () => {
    const db = database.db;
    const carol = await userAccount(db, (await newUser(database, 'carol001')).id, 'LTC');
    const chain = await systemAccount(db, 'chain', 'LTC');
    const input = {
      id: 'deposit:carol',
      currency: 'LTC',
      debitAccountId: chain.id,
      creditAccountId: carol.id,
      amount: 500n,
      code: 'deposit',
    };
    expect((await transfer(db, input)).created).toBe(true);
    expect((await transfer(db, input)).created).toBe(false);
    expect(await balancesOf(db, carol.ownerId!)).toEqual([{ currency: 'LTC', balance: 500n }]);
    await expect(transfer(db, { ...input, amount: 501n })).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it('keeps transfers immutable and currencies apart, in the database itself', async () => {
    const db = database.db;
    await expect(db.execute(sql`update ledger_transfers set amount = amount + 1`)).rejects.toThrow();
    await expect(db.execute(sql`delete from ledger_transfers`)).rejects.toThrow();
    const dave = await userAccount(db, (await newUser(database, 'dave0001')).id, 'DOGE');
    const chainBtc = await systemAccount(db, 'chain', 'BTC');
    await expect(
      db.execute(
        sql`insert into ledger_transfers (id, currency, debit_account_id, credit_account_id, amount, code) values ('mixed', 'BTC', ${chainBtc.id}, ${dave.id}, 1, 'x')`,
      ),
    ).rejects.toThrow();
    await expect(db.execute(sql`update ledger_accounts set balance = -1 where id = ${dave.id}`)).rejects.toThrow();
  });

  it('keeps every invariant through random sequences of deposits, sends and internal transfers (model check)', async () => {
    const db = database.db;
    const users = await Promise.all(
      ['u1', 'u2', 'u3'].map(async (k) => (await newUser(database, `model${k}${kind.slice(0, 1)}`)).id),
    );
    const currency = kind === 'pglite' ? 'XRP' : 'BCH';
    const ledger = await Promise.all(users.map((id) => userAccount(db, id, currency)));
    const chain = await systemAccount(db, 'chain', currency);
    const fees = await systemAccount(db, 'fees', currency);
    let counter = 0;
    const step = fc.oneof(
      fc.record({ op: fc.constant('deposit' as const), to: fc.nat(2), amount: fc.bigInt(1n, 10_000n) }),
      fc.record({
        op: fc.constant('send' as const),
        from: fc.nat(2),
        amount: fc.bigInt(1n, 10_000n),
        fee: fc.bigInt(1n, 100n),
      }),
      fc.record({
        op: fc.constant('internal' as const),
        from: fc.nat(2),
        to: fc.nat(2),
        amount: fc.bigInt(1n, 10_000n),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 15 }), async (steps) => {
        const model = new Map<string, bigint>();
        for (const account of ledger) model.set(account.id, (await balancesOf(db, account.ownerId!))[0]?.balance ?? 0n);
        for (const s of steps) {
          counter += 1;
          if (s.op === 'deposit') {
            const to = ledger[s.to]!;
            await transfer(db, {
              id: `m:${counter}`,
              currency,
              debitAccountId: chain.id,
              creditAccountId: to.id,
              amount: s.amount,
              code: 'deposit',
            });
            model.set(to.id, model.get(to.id)! + s.amount);
          } else if (s.op === 'send') {
            const from = ledger[s.from]!;
            const enough = model.get(from.id)! >= s.amount + s.fee;
            // A send and its network fee are one unit: both or neither.
            const attempt = database.db.transaction(async (tx) => {
              await transfer(tx as never, {
                id: `m:${counter}:send`,
                currency,
                debitAccountId: from.id,
                creditAccountId: chain.id,
                amount: s.amount,
                code: 'send',
              });
              await transfer(tx as never, {
                id: `m:${counter}:fee`,
                currency,
                debitAccountId: from.id,
                creditAccountId: fees.id,
                amount: s.fee,
                code: 'fee',
              });
            });
            if (enough) {
              await attempt;
              model.set(from.id, model.get(from.id)! - s.amount - s.fee);
            } else await expect(attempt).rejects.toMatchObject({ code: 'insufficient_balance' });
          } else {
            if (s.from === s.to) continue;
            const from = ledger[s.from]!;
            const to = ledger[s.to]!;
            const attempt = transfer(db, {
              id: `m:${counter}`,
              currency,
              debitAccountId: from.id,
              creditAccountId: to.id,
              amount: s.amount,
              code: 'internal',
            });
            if (model.get(from.id)! >= s.amount) {
              await attempt;
              model.set(from.id, model.get(from.id)! - s.amount);
              model.set(to.id, model.get(to.id)! + s.amount);
            } else await expect(attempt).rejects.toMatchObject({ code: 'insufficient_balance' });
          }
        }
        for (const account of ledger)
          expect((await balancesOf(db, account.ownerId!))[0]?.balance ?? 0n).toBe(model.get(account.id));
        expect(await allOk(db)).toBe(true);
      }),
      { numRuns: kind === 'pglite' ? 40 : 20 },
    );
  });

  if (kind === 'postgresql') {
    it('lets exactly one of 200 concurrent sends of a whole balance through', async () => {
      const db = database.db;
      const erin = await userAccount(db, (await newUser(database, 'erin0001')).id, 'SOL');
      const chain = await systemAccount(db, 'chain', 'SOL');
      await transfer(db, {
        id: 'deposit:erin',
        currency: 'SOL',
        debitAccountId: chain.id,
        creditAccountId: erin.id,
        amount: 1_000n,
        code: 'deposit',
      });
      const results = await Promise.allSettled(
        Array.from({ length: 200 }, (_, i) =>
          transfer(db, {
            id: `send:erin:${i}`,
            currency: 'SOL',
            debitAccountId: erin.id,
            creditAccountId: chain.id,
            amount: 1_000n,
            code: 'send',
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const reasons = results
        .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
        .map((r) => (r.reason as { code?: string }).code);
      expect(new Set(reasons)).toEqual(new Set(['insufficient_balance']));
      expect(await balancesOf(db, erin.ownerId!)).toEqual([{ currency: 'SOL', balance: 0n }]);
      expect(await allOk(db)).toBe(true);
    });
  }
});
