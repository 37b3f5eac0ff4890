/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { processOrders } from '../src/modules/orders/settlement';
import { bearer, databaseKinds, fixedRates, opsCliOutput, signToken, testApp, testUser, type TestApp } from './helpers';
import type { BankPayment, ExportPayoutsResponse, ImportLine, ImportStatementResponse } from '#domain/contracts/bank';
import type { Payout } from '#domain/contracts/payouts';
import type { AddressInfo } from 'node:net';

/**
 * The operator's bank files (server/src/modules/bank): camt.053 statements in, through the same
 * intake as `payment-received`, once per bank reference; the unmatched queue; pain.001 payout
 * files out, each payout in exactly one. The statements are made for these tests in the shape
 * banks deliver (server/test/fixtures/iso20022, {{…}} filled in here), and every file is checked
 * against the official ISO 20022 schema (fixtures/iso20022/README.md says where they come from).
 */
const FIXTURES = path.join(__dirname, 'fixtures/iso20022');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const DAY = fixture('camt053-day.xml');
const NEXT_DAY = fixture('camt053-v08.xml');

/** A template with its {{PLACEHOLDERS}} filled in; every one must be given. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`no value for {{${key}}}`);
    return values[key]!;
  });
}

/** What xmllint says about a document against one of the official schemas: no messages, valid. */
async function schemaErrors(xml: string, xsd: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'file.xml', contents: xml }],
    schema: [{ fileName: xsd, contents: fixture(xsd) }],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const SAMPLE = {
  ORDER_A: 'ABCD-EFGH',
  ORDER_B_ODD: 'abcd efgh',
  DEPOSIT_ODD: 'deposit 7kq2 m9xa',
  ORDER_C: 'ABCD-EFGH',
};
const SAMPLE_NEXT = {
  PAYOUT_1_AMOUNT: '12.34',
  PAYOUT_1_E2E: '0123456789abcdef0123456789abcdef',
  PAYOUT_2_E2E: 'NOTPROVIDED',
  MESSAGE_ID: 'MUNTLY-1',
  ORDER_D: 'ABCD-EFGH',
};

const painReader = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => name === 'CdtTrfTxInf',
});
type Transfer = { e2e: string; amount: string; name: string; iban: string; remittance: string };
type WrittenTransfer = {
  PmtId: { EndToEndId: string };
  Amt: { InstdAmt: { '#text': string } };
  Cdtr: { Nm: string };
  CdtrAcct: { Id: { IBAN: string } };
  RmtInf: { Ustrd: string };
};
function transfersOf(xml: string): {
  debtor: { name: string; iban: string; bic: string };
  controlSum: string;
  transfers: Transfer[];
} {
  const root = painReader.parse(xml).Document.CstmrCdtTrfInitn;
  const info = root.PmtInf;
  return {
    debtor: { name: info.Dbtr.Nm, iban: info.DbtrAcct.Id.IBAN, bic: info.DbtrAgt.FinInstnId.BIC },
    controlSum: root.GrpHdr.CtrlSum,
    transfers: (info.CdtTrfTxInf as WrittenTransfer[]).map((tx) => ({
      e2e: tx.PmtId.EndToEndId,
      amount: tx.Amt.InstdAmt['#text'],
      name: tx.Cdtr.Nm,
      iban: tx.CdtrAcct.Id.IBAN,
      remittance: tx.RmtInf.Ustrd,
    })),
  };
}

it('the statements made for these tests are camt.053 as the official schemas define it, and the check refuses a broken one', async () => {
  expect(await schemaErrors(fill(DAY, SAMPLE), 'camt.053.001.02.xsd')).toEqual([]);
  expect(await schemaErrors(fill(NEXT_DAY, SAMPLE_NEXT), 'camt.053.001.08.xsd')).toEqual([]);
  // An entry without its credit/debit indicator is not a statement: the check would say so.
  const broken = fill(DAY, SAMPLE).replace('<CdtDbtInd>CRDT</CdtDbtInd>\n        <Sts>BOOK</Sts>', '<Sts>BOOK</Sts>');
  expect((await schemaErrors(broken, 'camt.053.001.02.xsd')).join()).toMatch(/CdtDbtInd/);
});

describe.each(databaseKinds())('bank files (%s)', (kind) => {
  let t: TestApp;
  const rates = fixedRates();
  const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
  beforeAll(async () => {
    // This suite checks its files against pain.001.001.03's schema (.09: bank-payouts-out.test.ts).
    t = await testApp(kind, { BANK_PAIN_VERSION: '03' }, { rates });
  }, 120_000);
  afterAll(() => t?.close());

  const json = <T>(res: { json(): unknown }) => res.json() as T;
  const place = async (payload: object, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/orders', headers, payload });
    if (res.statusCode >= 300) throw new Error(`placing an order: ${res.body}`);
    return res.json() as { reference: string; shortReference: string; receiving: { address: string } | null };
  };
  const buy = (email: string, amount: string) =>
    place({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount, email, address: BTC_ADDRESS });
  const lookup = async (email: string, reference: string) =>
    json<{ status: string; amountReceived: string | null }>(
      await t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload: { email, reference } }),
    );
  const importStatement = (xml: string, headers = t.admin, contentType = 'application/xml') =>
    t.app.inject({
      method: 'POST',
      url: '/api/ops/bank/statements',
      headers: { ...headers, 'content-type': contentType },
      payload: xml,
    });
  const imported = async (xml: string) => {
    const res = await importStatement(xml);
    expect(res.statusCode).toBe(200);
    return res.json() as ImportStatementResponse;
  };
  const payments = async (status = 'open') =>
    json<{ payments: BankPayment[] }>(
      await t.app.inject({ url: `/api/ops/bank/unmatched?status=${status}`, headers: t.admin }),
    ).payments;
  const assign = (id: string, target: string, headers = t.admin) =>
    t.app.inject({ method: 'POST', url: `/api/ops/bank/unmatched/${id}/assign`, headers, payload: { target } });
  const refund = (id: string, headers = t.admin) =>
    t.app.inject({ method: 'POST', url: `/api/ops/bank/unmatched/${id}/refund`, headers });
  const exportPayouts = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/bank/payouts-export', headers: t.admin });
    expect(res.statusCode).toBe(200);
    return res.json() as ExportPayoutsResponse;
  };
  const bankPayouts = async () =>
    json<{ payouts: Payout[] }>(await t.app.inject({ url: '/api/ops/payouts?rail=bank&limit=500', headers: t.admin }))
      .payouts;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const transfersNamed = async (prefix: string) =>
    rows<{ id: string; amount: string }>(
      sql`select id, amount::text as amount from ledger_transfers where id like ${`${prefix}%`} order by id`,
    );
  const line = (result: ImportStatementResponse, entryRef: string) =>
    result.lines.filter((l) => l.entryRef === entryRef);
  const e2eOf = (payoutId: string) => payoutId.replace(/-/g, '');
  const operator = async (name: string) =>
    bearer(await signToken(t.keys, { sub: name, scope: 'use:muntly admin:muntly' }));

  // Shared by the steps below, in the order an operator's days go.
  const orders: Record<string, { email: string; reference: string; shortReference: string }> = {};
  let depositor: { accountKey: string };
  let nextDay: Record<string, string>;

  it("a day's statement: each credit is taken by the order or deposit its reason names, batches split, once — imported twice at once, and again", async () => {
    for (const [name, amount] of [
      ['A', '90'],
      ['B', '60'],
      ['C', '75.50'],
    ] as const) {
      const email = `buyer-${name.toLowerCase()}-${kind}@muntly.test`;
      orders[name] = { email, ...(await buy(email, amount)) };
    }
    depositor = await testUser(t, `depositor-${kind}@muntly.test`, { address: false });
    const key = depositor.accountKey.toLowerCase();
    const xml = fill(DAY, {
      ORDER_A: orders.A!.shortReference,
      // As payers type it: lower case, the dash a double space.
      ORDER_B_ODD: ` ${orders.B!.shortReference.toLowerCase().replace('-', '  ')} `,
      DEPOSIT_ODD: `deposit ${key.slice(0, 4)} ${key.slice(4)}`,
      ORDER_C: orders.C!.shortReference,
    });

    const both = await Promise.all([imported(xml), imported(xml)]);
    // The deposit appears as an order of its own, of the depositor's account.
    const [deposit] = await rows<{ reference: string }>(
      sql`select o.reference from orders o join accounts a on a.id = o.account_id where o.type = 'deposit' and a.account_key = ${depositor.accountKey}`,
    );
    const taken = both.flatMap((r) => r.lines).filter((l) => l.outcome === 'booked' || l.outcome === 'unmatched');
    expect(taken.map((l) => `${l.entryRef} ${l.outcome} ${l.reference ?? ''}`).sort()).toEqual(
      [
        `2026112400001 booked ${orders.A!.reference}`,
        `2026112400002/1 booked ${orders.B!.reference}`,
        `2026112400002/2 booked ${deposit!.reference}`,
        '2026112400003 unmatched ',
        `2026112400007 booked ${orders.C!.reference}`,
      ].sort(),
    );
    for (const result of both) {
      expect(result.version).toBe('camt.053.001.02');
      expect(line(result, '2026112400004')).toMatchObject([{ direction: 'debit', outcome: 'ignored' }]); // the bank's fee
      expect(line(result, '2026112400005')).toMatchObject([{ currency: 'USD', outcome: 'skipped', reason: 'not_eur' }]);
      expect(line(result, '2026112400006')).toMatchObject([{ outcome: 'skipped', reason: 'not_booked' }]);
      // The entry the bank repeated: the second time in the file is a duplicate in either import.
      expect(line(result, '2026112400001').map((l) => l.outcome)).toContain('duplicate');
    }

    const again = await imported(xml);
    expect(again.counts).toEqual({
      booked: 0,
      unmatched: 0,
      duplicate: 6,
      payout_completed: 0,
      payout_returned: 0,
      skipped: 2,
      ignored: 1,
    });

    expect(await lookup(orders.A!.email, orders.A!.reference)).toMatchObject({
      status: 'processing',
      amountReceived: '90.00',
    });
    expect(await lookup(orders.B!.email, orders.B!.reference)).toMatchObject({
      status: 'processing',
      amountReceived: '70.00',
    });
    expect(await lookup(orders.C!.email, orders.C!.reference)).toMatchObject({
      status: 'processing',
      amountReceived: '75.50',
    });
    // Three imports, each payment in the ledger once; the unmatched one not at all (yet).
    expect(await transfersNamed('bank-payment:20261124')).toEqual([
      { id: 'bank-payment:2026112400001', amount: '9000' },
      { id: 'bank-payment:2026112400002/1', amount: '7000' },
      { id: 'bank-payment:2026112400002/2', amount: '3000' },
      { id: 'bank-payment:2026112400007', amount: '7550' },
    ]);
    // The database itself refuses a second row for a bank reference.
    await expect(
      t.database.db.execute(
        sql`insert into bank_payments (entry_ref, amount, currency, remittance, status) values ('2026112400003', 9900, 'EUR', '', 'open')`,
      ),
    ).rejects.toThrow();
  });

  it('the unmatched queue shows payer and reason; two operators assigning it at once book it once; a reference that names nothing changes nothing', async () => {
    const [queued] = (await payments()).filter((p) => p.entryRef === '2026112400003');
    expect(queued).toMatchObject({
      amount: '99.00',
      currency: 'EUR',
      payerName: 'Anna Schmidt',
      payerIban: 'AT611904300234573201',
      remittance: 'Rechnung 4711 vielen Dank',
      bookingDate: '2026-11-24',
      status: 'open',
      unmatchedReason: 'not_found',
      orderReference: null,
    });
    const email = `late-payer-${kind}@muntly.test`;
    orders.E = { email, ...(await buy(email, '99')) };

    const nothing = await assign(queued!.id, 'ZZZZ-ZZZZ');
    expect(nothing.statusCode).toBe(404);
    expect(nothing.json().error.code).toBe('not_found');
    expect((await payments()).map((p) => p.id)).toContain(queued!.id);

    // One operator pastes the full reference, the other the short one, at the same moment.
    const raced = await Promise.all([
      assign(queued!.id, orders.E.reference, await operator('alice')),
      assign(queued!.id, orders.E.shortReference.toLowerCase(), await operator('bob')),
    ]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(raced.find((r) => r.statusCode === 409)!.json().error.code).toBe('bank_payment_resolved');
    expect(raced.find((r) => r.statusCode === 200)!.json()).toMatchObject({
      payment: { status: 'assigned', orderReference: orders.E.reference },
      order: { reference: orders.E.reference, status: 'processing' },
    });
    expect(await lookup(email, orders.E.reference)).toMatchObject({ status: 'processing', amountReceived: '99.00' });
    expect(await transfersNamed('bank-payment:2026112400003')).toEqual([
      { id: 'bank-payment:2026112400003', amount: '9900' },
    ]);

    expect((await refund(queued!.id)).json().error.code).toBe('bank_payment_resolved');
    expect((await payments()).map((p) => p.id)).not.toContain(queued!.id);
    expect((await payments('assigned')).find((p) => p.id === queued!.id)).toMatchObject({
      resolution: `assigned to ${orders.E.reference}`,
      resolvedBy: expect.stringMatching(/alice|bob/),
    });
    // audit: the assignment is on record with who did it (the audit trail's own module takes this over).
    expect(await rows(sql`select action, actor from audit_log where action = 'bank.payment_assigned'`)).toEqual([
      { action: 'bank.payment_assigned', actor: expect.stringMatching(/alice|bob/) },
    ]);
  });

  it("a refund sends an unmatched payment back to the payer's IBAN through the ledger, once; without an IBAN it cannot", async () => {
    const email = `buyer-d-${kind}@muntly.test`;
    orders.D = { email, ...(await buy(email, '55')) };
    // The next day's statement, before the bank has executed anything of Muntly's.
    nextDay = { ...SAMPLE_NEXT, ORDER_D: orders.D.shortReference };
    const result = await imported(fill(NEXT_DAY, nextDay));
    expect(result.version).toBe('camt.053.001.08');
    expect(result.counts).toMatchObject({ booked: 1, unmatched: 2, ignored: 2 });
    expect(line(result, '2026112500004')).toMatchObject([{ outcome: 'booked', reference: orders.D.reference }]);
    const gift = result.lines.find((l) => l.entryRef.startsWith('sha256:'))!; // no reference from the bank
    expect(gift).toMatchObject({ outcome: 'unmatched', amount: '25.00' });

    const refunded = await refund(gift.paymentId!);
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json()).toMatchObject({
      payment: { status: 'refunded', payerName: 'Erna Beispiel' },
      payout: { status: 'pending', amount: '25.00', currency: 'EUR', destination: 'ES9121000418450200051332' },
    });
    expect((await refund(gift.paymentId!)).json().error.code).toBe('bank_payment_resolved');
    // In from the bank, out as a payout: the unmatched account is back at zero, the payout holds it.
    expect(await transfersNamed(`bank-payment:${gift.entryRef}`)).toEqual([
      { id: `bank-payment:${gift.entryRef}`, amount: '2500' },
    ]);
    expect(
      await rows(sql`select balance::text as balance from ledger_accounts where system_code = 'unmatched'`),
    ).toEqual([{ balance: '0' }]);
    expect((await bankPayouts()).filter((p) => p.purpose === 'payment_refund')).toMatchObject([
      { amount: '25.00', reference: 'Refund: Geschenk fuer Oma', status: 'pending' },
    ]);

    const cash = line(result, '2026112500003')[0]!;
    const noIban = await refund(cash.paymentId!);
    expect(noIban.statusCode).toBe(409);
    expect(noIban.json().error.code).toBe('bank_payment_no_iban');
    expect((await payments()).find((p) => p.id === cash.paymentId)).toMatchObject({
      status: 'open',
      remittance: 'Bareinzahlung',
      payerIban: null,
    });
  });

  let exported: ExportPayoutsResponse;
  const payoutIds: Record<string, string> = {};

  it('the payouts file: every EUR payout due, once, valid pain.001.001.03, to the IBAN and name the bank checks; the same file again on request', async () => {
    // A seller whose bank account is verified under the holder's name.
    const seller = await testUser(t, `seller-${kind}@muntly.test`, { verified: [], address: false });
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/enable',
      headers: t.admin,
      payload: { email: seller.email, kind: 'bank' },
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/identity/bank',
          headers: seller.headers,
          payload: { iban: 'BE68 5390 0754 7034', beneficiary: 'Sophie Martin-Lefèvre' },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/verify',
      headers: t.admin,
      payload: { email: seller.email, kind: 'bank' },
    });
    const sells = [
      await place(
        {
          type: 'sell',
          currencyFrom: 'BTC',
          currencyTo: 'EUR',
          amount: '0.001',
          email: seller.email,
          address: 'BE68539007547034',
          beneficiary: 'Sophie Martin-Lefèvre',
        },
        seller.headers,
      ),
    ];
    // And one from nobody Muntly knows by name.
    sells.push(
      await place({
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: '0.0005',
        email: `anonymous-seller-${kind}@muntly.test`,
        address: 'NL91ABNA0417164300',
        beneficiary: 'Jan de Vries',
      }),
    );
    for (const [i, sell] of sells.entries()) {
      await t.app.inject({
        method: 'POST',
        url: '/api/ops/chain-deposit',
        headers: t.admin,
        payload: { currency: 'BTC', address: sell.receiving!.address, amount: i === 0 ? '0.001' : '0.0005' },
      });
    }
    // A buy paid through the simulator with the wrong amount: its refund has nowhere known to go.
    const email = `simulated-${kind}@muntly.test`;
    const simulated = await buy(email, '40');
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/payment-received',
      headers: t.admin,
      payload: { reason: simulated.shortReference, amount: '41.00' },
    });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates }); // B (70.00 for 60.00) and this one are refunded, the sells converted

    const due = (await bankPayouts()).filter((p) => p.status === 'pending');
    const byOrder = async (reference: string) =>
      (
        await rows<{ id: string }>(
          sql`select p.id from payouts p join orders o on o.id = p.order_id where o.reference = ${reference}`,
        )
      )[0]!.id;
    payoutIds.sell = await byOrder(sells[0]!.reference);
    payoutIds.anonymous = await byOrder(sells[1]!.reference);
    payoutIds.refundB = await byOrder(orders.B!.reference);
    payoutIds.simulated = await byOrder(simulated.reference);
    payoutIds.gift = due.find((p) => p.purpose === 'payment_refund')!.id;
    expect(due.map((p) => p.id).sort()).toEqual(Object.values(payoutIds).sort());

    exported = await exportPayouts();
    expect(exported.skipped).toEqual([{ payoutId: payoutIds.simulated, reason: 'no_iban' }]);
    expect(await schemaErrors(exported.xml!, 'pain.001.001.03.xsd')).toEqual([]);
    const file = transfersOf(exported.xml!);
    expect(file.debtor).toEqual({ name: 'Sample Operator Ltd', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });
    const amountOf = (id: string) => due.find((p) => p.id === id)!.amount;
    expect(file.transfers.sort((a, b) => a.e2e.localeCompare(b.e2e))).toEqual(
      [
        {
          e2e: e2eOf(payoutIds.sell),
          amount: amountOf(payoutIds.sell),
          name: 'Sophie Martin-Lefevre',
          iban: 'BE68539007547034',
          remittance: sells[0]!.shortReference,
        },
        {
          e2e: e2eOf(payoutIds.anonymous),
          amount: amountOf(payoutIds.anonymous),
          name: 'Jan de Vries',
          iban: 'NL91ABNA0417164300',
          remittance: sells[1]!.shortReference,
        },
        // B's refund goes back where its payment came from, as the statement named it.
        {
          e2e: e2eOf(payoutIds.refundB),
          amount: '70.00',
          name: 'Marie Dupont',
          iban: 'FR1420041010050500013M02606',
          remittance: orders.B!.shortReference,
        },
        {
          e2e: e2eOf(payoutIds.gift),
          amount: '25.00',
          name: 'Erna Beispiel',
          iban: 'ES9121000418450200051332',
          remittance: 'Refund: Geschenk fuer Oma',
        },
      ].sort((a, b) => a.e2e.localeCompare(b.e2e)),
    );
    const total = file.transfers.reduce((sum, tx) => sum + BigInt(tx.amount.replace('.', '')), 0n);
    expect(file.controlSum).toBe(`${total / 100n}.${String(total % 100n).padStart(2, '0')}`);
    expect(exported.export).toMatchObject({ payouts: 4, total: file.controlSum });

    // Handed to the bank: submitted, naming their file; nothing is due twice.
    const after = await bankPayouts();
    for (const id of [payoutIds.sell, payoutIds.anonymous, payoutIds.refundB, payoutIds.gift])
      expect(after.find((p) => p.id === id)).toMatchObject({ status: 'submitted', bankExportId: exported.export!.id });
    expect(after.find((p) => p.id === payoutIds.simulated)).toMatchObject({ status: 'pending', bankExportId: null });
    expect(await exportPayouts()).toEqual({
      export: null,
      xml: null,
      skipped: [{ payoutId: payoutIds.simulated, reason: 'no_iban' }],
    });

    const again = await t.app.inject({ url: `/api/ops/bank/exports/${exported.export!.id}`, headers: t.admin });
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toMatch(/^application\/xml/);
    expect(again.headers['content-disposition']).toBe(`attachment; filename="${exported.export!.messageId}.xml"`);
    expect(again.body).toBe(exported.xml);
    expect(
      json<{ exports: unknown[] }>(await t.app.inject({ url: '/api/ops/bank/exports', headers: t.admin })).exports,
    ).toEqual([exported.export]);
    expect(
      (await t.app.inject({ url: '/api/ops/bank/exports/00000000-0000-4000-8000-000000000000', headers: t.admin }))
        .statusCode,
    ).toBe(404);
  });

  it('two payouts files made at the same moment: each payout is in exactly one of them', async () => {
    // The day's statement again as new entries whose reasons name nothing: refunded, three payouts.
    const retry = fill(DAY, {
      ORDER_A: 'old order',
      ORDER_B_ODD: 'old order',
      DEPOSIT_ODD: 'no deposit',
      ORDER_C: 'old order',
    }).replaceAll('>2026112400', '>RETRY2026112400');
    const result = await imported(retry);
    expect(result.counts.unmatched).toBe(5);
    const refunds: string[] = [];
    for (const ref of ['RETRY2026112400001', 'RETRY2026112400002/1', 'RETRY2026112400003']) {
      const res = await refund(line(result, ref).find((l) => l.outcome === 'unmatched')!.paymentId!);
      refunds.push(res.json().payout.id);
    }
    const both = await Promise.all([exportPayouts(), exportPayouts()]);
    const inFiles = both.flatMap((r) => (r.xml ? transfersOf(r.xml).transfers.map((tx) => tx.e2e) : []));
    expect(inFiles.sort()).toEqual(refunds.map(e2eOf).sort()); // all three, none twice
    for (const r of both) if (r.xml) expect(await schemaErrors(r.xml, 'pain.001.001.03.xsd')).toEqual([]);
    const marked = await rows<{ bank_export_id: string }>(
      sql`select bank_export_id from payouts where id in (${sql.join(
        refunds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(marked.every((m) => both.some((r) => r.export?.id === m.bank_export_id))).toBe(true);
  });

  it("the bank's next statement (camt.053.001.08) completes the payouts it executed, once; a debit for another amount is left alone", async () => {
    const sell = (await bankPayouts()).find((p) => p.id === payoutIds.sell)!;
    const xml = fill(NEXT_DAY, {
      ...nextDay,
      PAYOUT_1_AMOUNT: sell.amount,
      PAYOUT_1_E2E: e2eOf(sell.id),
      PAYOUT_2_E2E: e2eOf(payoutIds.refundB!),
      MESSAGE_ID: exported.export!.messageId,
    });
    expect(await schemaErrors(xml, 'camt.053.001.08.xsd')).toEqual([]);
    const result = await imported(xml);
    expect(line(result, '2026112500001')).toMatchObject([
      { direction: 'debit', outcome: 'payout_completed', reference: sell.id },
    ]);
    expect(line(result, '2026112500002')).toMatchObject([
      { outcome: 'skipped', reference: payoutIds.refundB, reason: 'amount_differs' },
    ]);
    // The credits of that statement were imported the day before, the one without reference too.
    expect(result.lines.filter((l) => l.direction === 'credit').map((l: ImportLine) => l.outcome)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
    ]);

    const payouts = await bankPayouts();
    expect(payouts.find((p) => p.id === sell.id)).toMatchObject({ status: 'completed', txid: 'bank:2026112500001' });
    expect(payouts.find((p) => p.id === payoutIds.refundB)).toMatchObject({ status: 'submitted' });
    const [order] = await rows<{ status: string }>(
      sql`select o.status from orders o join payouts p on p.order_id = o.id where p.id = ${sell.id}`,
    );
    expect(order).toEqual({ status: 'completed_success' });
    expect(line(await imported(xml), '2026112500001')).toMatchObject([{ outcome: 'duplicate' }]);
  });

  it('refuses a statement of another account, what is no statement, strangers, and a file too large — booking nothing', async () => {
    const before = await rows(sql`select count(*)::int as n from bank_payments`);
    const elsewhere = await importStatement(
      fill(DAY, SAMPLE).replace('<IBAN>DE89370400440532013000</IBAN>', '<IBAN>NL91ABNA0417164300</IBAN>'),
    );
    expect([elsewhere.statusCode, elsewhere.json().error.code]).toEqual([400, 'statement_wrong_account']);
    for (const notAStatement of [
      'not xml at all',
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt></Document>',
      exported.xml!, // a pain.001
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">&a;</Document>',
    ]) {
      const res = await importStatement(notAStatement);
      expect([res.statusCode, res.json().error.code]).toEqual([400, 'statement_invalid']);
    }
    expect((await importStatement(JSON.stringify({ xml: DAY }), t.admin, 'application/json')).statusCode).toBe(400);
    const tooLarge = await importStatement(`<Document>${' '.repeat(6 * 1024 * 1024)}</Document>`);
    expect([tooLarge.statusCode, tooLarge.json().error.code]).toEqual([413, 'payload_too_large']);

    const customer = bearer(
      await signToken(t.keys, { sub: `auth0|customer-${kind}`, email: `customer-${kind}@muntly.test` }),
    );
    expect((await importStatement(fill(DAY, SAMPLE), customer)).statusCode).toBe(403);
    for (const [method, url] of [
      ['GET', '/api/ops/bank/unmatched'],
      ['POST', '/api/ops/bank/payouts-export'],
      ['GET', '/api/ops/bank/exports'],
      ['GET', `/api/ops/bank/exports/${exported.export!.id}`],
      ['POST', '/api/ops/bank/unmatched/00000000-0000-4000-8000-000000000000/refund'],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: customer })).statusCode).toBe(403);
    }
    expect(await rows(sql`select count(*)::int as n from bank_payments`)).toEqual(before);
  });

  it('npm run ops: import-statement, unmatched, assign-payment, refund-payment, export-payouts, bank-exports, bank-export', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-bank-'));
    const statement = path.join(dir, 'statement.xml');
    fs.writeFileSync(statement, fill(NEXT_DAY, nextDay));
    const email = `cli-buyer-${kind}@muntly.test`;
    const order = await buy(email, '75.50');
    const open = await payments();
    const luca = open.find((p) => p.entryRef === 'RETRY2026112400007')!;
    const pieter = open.find((p) => p.entryRef === 'RETRY2026112400002/2')!;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const out = path.join(dir, 'payouts.xml');
    const printed = await opsCliOutput(url, t.admin, async (ops) => {
      await ops(['import-statement', statement]);
      await ops(['unmatched']);
      await ops(['assign-payment', luca.id, order.shortReference]);
      await ops(['refund-payment', pieter.id]);
      await ops(['export-payouts', '--out', out]);
      await ops(['bank-exports']);
    });
    const text = printed.join('\n');
    expect(text).toMatch(/ignored +debit +12\.34 EUR {2}2026112500001/);
    expect(text).toContain(
      'camt.053.001.08: 0 booked, 0 unmatched (npm run ops -- unmatched), 3 already imported, 0 payouts completed, 0 skipped, 2 ignored.',
    );
    expect(text).toContain(
      `${luca.id}  2026-11-24  75.50 EUR  Luca Rossi  IT60X0542811101000000123456  "old order Acquisto Muntly"  open (not_found)`,
    );
    expect(text).toContain(`Payment ${luca.id} assigned to buy order ${order.reference}: processing.`);
    expect(text).toMatch(
      new RegExp(
        `Payment ${pieter.id}: 30\\.00 EUR go back to NL91ABNA0417164300 \\(payout [0-9a-f-]+, in the next payouts file\\)\\.`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 1 payout, EUR 30\\.00 \\(file ([0-9a-f-]+)\\)\\. Upload it to the bank once\\.`,
      ),
    );
    expect(await schemaErrors(fs.readFileSync(out, 'utf8'), 'pain.001.001.03.xsd')).toEqual([]);
    expect(await lookup(email, order.reference)).toMatchObject({ status: 'processing', amountReceived: '75.50' });

    // The file again, by its id; an existing file is never overwritten.
    const id = /\(file ([0-9a-f-]+)\)/.exec(text)![1]!;
    const copy = path.join(dir, 'copy.xml');
    const more = await opsCliOutput(url, t.admin, async (ops) => {
      await ops(['bank-export', id, '--out', copy]);
      await expect(ops(['bank-export', id, '--out', copy])).rejects.toThrow(/exists already/);
    });
    expect(more).toEqual([`${copy} written.`]);
    expect(fs.readFileSync(copy, 'utf8')).toBe(fs.readFileSync(out, 'utf8'));
  });
});
