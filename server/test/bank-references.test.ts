/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import { hasCheckLetter } from '#domain/references';
import { databaseKinds, fixedRates, testApp, testUser, type TestApp } from './helpers';
import type { BankPayment, ImportStatementResponse } from '#domain/contracts/bank';

/**
 * References where payers write them (issue 33): a statement's credits are matched to the one open
 * order or account that the remittance information names anywhere — among words, wrapped across
 * lines, in the structured reference — found by the check letter of new references
 * (domain/references.ts); a reason naming several goes to the queue with its candidates; orders
 * from before the check letter are still matched by their reference alone.
 */
const FIXTURES = path.join(__dirname, 'fixtures/iso20022');
const STATEMENT = fs.readFileSync(path.join(FIXTURES, 'camt053-references.xml'), 'utf8');
const fill = (values: Record<string, string>) =>
  STATEMENT.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`no value for {{${key}}}`);
    return values[key]!;
  });

describe.each(databaseKinds())('payment references where payers write them (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
  }, 120_000);
  afterAll(() => t?.close());

  const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
  const buy = async (name: string, amount: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount,
        email: `${name}-${kind}@muntly.test`,
        address: BTC_ADDRESS,
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { reference: string; shortReference: string };
  };
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const statusOf = async (reference: string) =>
    (
      await rows<{ status: string; received: string | null }>(
        sql`select status, amount_received::text as received from orders where reference = ${reference}`,
      )
    )[0];
  /** An order as it was placed before references had a check letter: its 8th letter is not the check letter. */
  const withoutCheckLetter = async (order: { reference: string; shortReference: string }) => {
    const letters = order.reference.replace(/-/g, '');
    const eighth = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].find((c) => !hasCheckLetter(letters.slice(0, 7) + c))!;
    const old = `${letters.slice(0, 4)}-${letters.slice(4, 7)}${eighth}-${letters.slice(8, 12)}-${letters.slice(12)}`;
    await t.database.db.execute(
      sql`update orders set reference = ${old}, short_reference = ${old.slice(0, 9)} where reference = ${order.reference}`,
    );
    return { reference: old, shortReference: old.slice(0, 9) };
  };

  it('new orders carry a check letter in their short reference (the 8th letter)', async () => {
    const orders = await Promise.all(['w', 'x', 'y', 'z'].map((n) => buy(n, '40')));
    for (const o of orders) expect(hasCheckLetter(o.shortReference.replace('-', ''))).toBe(true);
  });

  it('books each payment to the one order or account its remittance names anywhere, and queues a reason naming two with both candidates', async () => {
    const words = await buy('words', '40');
    const wrapped = await buy('wrapped', '41');
    const p = await buy('p', '42');
    const q = await buy('q', '42');
    const structured = await buy('structured', '43');
    const old = await withoutCheckLetter(await buy('old', '45'));
    const oldAmongWords = await withoutCheckLetter(await buy('old-words', '46'));
    const depositor = await testUser(t, `reference-depositor-${kind}@muntly.test`, { address: false });
    const key = depositor.accountKey.toLowerCase();

    const [start, end] = [wrapped.shortReference.slice(0, 7), wrapped.shortReference.slice(7)];
    const xml = fill({
      ORDER_WORDS: words.shortReference,
      // The bank cut the line in the middle of the reference.
      ORDER_WRAPPED_1: start,
      ORDER_WRAPPED_2: end,
      ORDER_P: p.shortReference.toLowerCase(),
      ORDER_Q: q.shortReference.replace('-', ' '),
      ORDER_STRD: structured.reference,
      DEPOSIT_WORDS: `deposit ${key.slice(0, 4)} ${key.slice(4)} eth`,
      ORDER_OLD: old.shortReference.toLowerCase(),
      ORDER_OLD_2: oldAmongWords.shortReference,
    });
    const schema = await validateXML({
      xml: [{ fileName: 's.xml', contents: xml }],
      schema: [
        {
          fileName: 'camt.053.001.02.xsd',
          contents: fs.readFileSync(path.join(FIXTURES, 'camt.053.001.02.xsd'), 'utf8'),
        },
      ],
    });
    expect(schema.errors.map((e) => e.rawMessage)).toEqual([]);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/bank/statements',
      headers: { ...t.admin, 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(res.statusCode).toBe(200);
    const result = res.json() as ImportStatementResponse;
    const outcome = (n: number) => result.lines.find((l) => l.entryRef === `20261126000${n}`)!;
    const [deposit] = await rows<{ reference: string; currencyTo: string }>(
      sql`select o.reference, o.currency_to as "currencyTo" from orders o join accounts a on a.id = o.account_id where o.type = 'deposit' and a.account_key = ${depositor.accountKey}`,
    );
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => [outcome(n).outcome, outcome(n).reference ?? outcome(n).reason])).toEqual([
      ['booked', words.reference],
      ['booked', wrapped.reference],
      ['unmatched', 'payment_reference_ambiguous'],
      ['booked', structured.reference],
      ['booked', deposit!.reference],
      ['booked', old.reference],
      ['unmatched', 'not_found'],
    ]);
    // The currency named after the deposit reference is the one the deposit converts into.
    expect(deposit!.currencyTo).toBe('ETH');
    for (const [order, amount] of [
      [words, '4000'],
      [wrapped, '4100'],
      [structured, '4300'],
      [old, '4500'],
    ] as const)
      expect(await statusOf(order.reference)).toEqual({ status: 'processing', received: amount });
    // Neither of the two named orders was paid by a guess.
    expect(await statusOf(p.reference)).toEqual({ status: 'new', received: null });
    expect(await statusOf(q.reference)).toEqual({ status: 'new', received: null });

    // The queue shows both candidates; the operator picks one, and the payment is booked to it.
    const queue = (await t.app.inject({ url: '/api/ops/bank/unmatched?status=open', headers: t.admin })).json() as {
      payments: BankPayment[];
    };
    const ambiguous = queue.payments.find((x) => x.entryRef === '202611260003')!;
    expect(ambiguous).toMatchObject({
      unmatchedReason: 'payment_reference_ambiguous',
      remittance: expect.stringContaining(p.shortReference.toLowerCase()),
    });
    expect([...ambiguous.candidates].sort()).toEqual([p.shortReference, q.shortReference].sort());
    expect(queue.payments.find((x) => x.entryRef === '202611260007')!.candidates).toEqual([]);
    const assigned = await t.app.inject({
      method: 'POST',
      url: `/api/ops/bank/unmatched/${ambiguous.id}/assign`,
      headers: t.admin,
      payload: { target: ambiguous.candidates.find((c) => c === q.shortReference) },
    });
    expect(assigned.statusCode).toBe(200);
    expect(await statusOf(q.reference)).toEqual({ status: 'processing', received: '4200' });
    expect(await statusOf(p.reference)).toEqual({ status: 'new', received: null });

    // Imported again: nothing is booked twice, the queue keeps what it had.
    const again = (
      await t.app.inject({
        method: 'POST',
        url: '/api/ops/bank/statements',
        headers: { ...t.admin, 'content-type': 'application/xml' },
        payload: xml,
      })
    ).json() as ImportStatementResponse;
    expect(again.counts).toMatchObject({ booked: 0, unmatched: 0, duplicate: 7 });
  });

  it('a payment reason that only looks like a reference, or names an order that is no longer open, books nothing', async () => {
    const paid = await buy('paid-twice', '47');
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/ops/payment-received',
      headers: t.admin,
      payload: { reason: `Zahlung ${paid.shortReference}`, amount: '47' },
    });
    // The same intake as the statement's: the operator's payment-received finds the reference among words too.
    expect(first.statusCode).toBe(200);
    expect(await statusOf(paid.reference)).toEqual({ status: 'processing', received: '4700' });
    // A second payment naming the same order: it is no longer waiting for money.
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/ops/payment-received',
      headers: t.admin,
      payload: { reason: `Zahlung ${paid.shortReference}`, amount: '47' },
    });
    expect(second.statusCode).toBe(404);
  });
});
