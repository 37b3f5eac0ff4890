/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import { databaseKinds, fixedRates, testApp, type TestApp } from './helpers';
import type { BankPayment, ImportStatementResponse } from '#domain/contracts/bank';

/**
 * What a statement may not get past (issue 34, "Bank statements"): a namespace written only in a
 * comment, an amount no SEPA payment can have (the file refused whole, nothing booked), and a
 * batched entry whose payments do not add up to what the bank booked or are in another currency
 * (to the unmatched queue with the reason, no order paid). The statements are camt.053.001.02 in
 * a German bank's layout, checked against the official schema.
 */
const FIXTURES = path.join(__dirname, 'fixtures/iso20022');
const NS = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.02';
const IBAN = 'DE89370400440532013000';

type Tx = { amount: string; currency?: string; reason: string };
const entry = (ref: string, amount: string, txs: Tx[]) => `
      <Ntry>
        <Amt Ccy="EUR">${amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>2026-11-27</Dt></BookgDt>
        <ValDt><Dt>2026-11-27</Dt></ValDt>
        <AcctSvcrRef>${ref}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>${txs
          .map(
            (tx) => `
          <TxDtls>
            <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <AmtDtls><TxAmt><Amt Ccy="${tx.currency ?? 'EUR'}">${tx.amount}</Amt></TxAmt></AmtDtls>
            <RltdPties><Dbtr><Nm>Erika Mustermann</Nm></Dbtr><DbtrAcct><Id><IBAN>DE02120300000000202051</IBAN></Id></DbtrAcct></RltdPties>
            <RmtInf><Ustrd>${tx.reason}</Ustrd></RmtInf>
          </TxDtls>`,
          )
          .join('')}
        </NtryDtls>
      </Ntry>`;
const statement = (entries: string, before = '') => `<?xml version="1.0" encoding="UTF-8"?>
${before}<Document xmlns="${NS}">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>CHECKS-1</MsgId><CreDtTm>2026-11-27T20:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>2026-11-27-0001</Id>
      <CreDtTm>2026-11-27T20:00:00</CreDtTm>
      <Acct><Id><IBAN>${IBAN}</IBAN></Id><Ccy>EUR</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-27</Dt></Dt></Bal>${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;

async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 's.xml', contents: xml }],
    schema: [
      {
        fileName: 'camt.053.001.02.xsd',
        contents: fs.readFileSync(path.join(FIXTURES, 'camt.053.001.02.xsd'), 'utf8'),
      },
    ],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

describe.each(databaseKinds())('what a statement may not get past (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
  }, 120_000);
  afterAll(() => t?.close());

  const importXml = (xml: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/ops/bank/statements',
      headers: { ...t.admin, 'content-type': 'application/xml' },
      payload: xml,
    });
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
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { reference: string; shortReference: string };
  };
  const statusOf = async (reference: string) =>
    (
      (await t.database.db.execute(
        sql`select status, amount_received::text as received from orders where reference = ${reference}`,
      )) as unknown as {
        rows: { status: string; received: string | null }[];
      }
    ).rows[0];
  const imported = async (ref: string) =>
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from bank_payments where entry_ref like ${`${ref}%`}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n;

  it('reads the namespace of the root element only: one written in a comment before a root of another namespace is refused', async () => {
    const order = await buy('comment', '50');
    const good = statement(entry('CMT-1', '50.00', [{ amount: '50.00', reason: order.shortReference }]));
    expect(await schemaErrors(good)).toEqual([]);
    const disguised = good.replace(
      `<Document xmlns="${NS}">`,
      `<!-- <Document xmlns="${NS}"> --><Document xmlns="urn:example:not-a-statement">`,
    );
    const res = await importXml(disguised);
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'statement_invalid']);
    // A prefixed root of the right namespace, with a comment before it, is still a statement.
    const prefixed = good
      .replace(`<Document xmlns="${NS}">`, `<!-- a bank's note --><c:Document xmlns:c="${NS}">`)
      .replace(/<(\/?)(?!\?|c:|!)([A-Za-z])/g, '<$1c:$2');
    expect(await schemaErrors(prefixed)).toEqual([]);
    expect(((await importXml(prefixed)).json() as ImportStatementResponse).counts.booked).toBe(1);
    expect(await statusOf(order.reference)).toEqual({ status: 'processing', received: '5000' });
  });

  it('refuses a file with an amount no SEPA payment can have, naming the entry, and books none of its lines', async () => {
    const order = await buy('range', '60');
    const xml = statement(
      entry('RNG-1', '60.00', [{ amount: '60.00', reason: order.shortReference }]) +
        Array.from({ length: 60 }, (_, i) => entry(`RNG-F${i}`, '1.00', [{ amount: '1.00', reason: 'filler' }])).join(
          '',
        ) +
        entry('RNG-2', '99999999999999999999.99', [{ amount: '99999999999999999999.99', reason: 'too much' }]),
    );
    const res = await importXml(xml);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'statement_invalid', message: expect.stringContaining('RNG-2') });
    // Whole or not at all: the first line, sixty lines before the bad one (another batch), was not booked either.
    expect(await imported('RNG-')).toBe(0);
    expect(await statusOf(order.reference)).toEqual({ status: 'new', received: null });
  });

  it('sends a batched entry whose payments do not add up to it, or are in another currency, to the unmatched queue with the reason; no order is paid', async () => {
    const a = await buy('batch-a', '100');
    const b = await buy('batch-b', '10');
    const c = await buy('batch-c', '30');
    const xml = statement(
      entry('BAT-1', '1.00', [
        { amount: '100.00', reason: a.shortReference },
        { amount: '10.00', reason: b.shortReference },
      ]) +
        entry('BAT-2', '40.00', [
          { amount: '30.00', reason: c.shortReference },
          { amount: '10.00', currency: 'USD', reason: b.shortReference },
        ]),
    );
    expect(await schemaErrors(xml)).toEqual([]);
    const result = (await importXml(xml)).json() as ImportStatementResponse;
    expect(result.lines.map((l) => [l.entryRef, l.outcome, l.amount, l.reason])).toEqual([
      ['BAT-1', 'unmatched', '1.00', 'batch_mismatch'],
      ['BAT-2', 'unmatched', '40.00', 'batch_mismatch'],
    ]);
    for (const order of [a, b, c]) expect(await statusOf(order.reference)).toEqual({ status: 'new', received: null });
    const queue = (await t.app.inject({ url: '/api/ops/bank/unmatched?status=open', headers: t.admin })).json() as {
      payments: BankPayment[];
    };
    expect(
      queue.payments.filter((p) => p.entryRef.startsWith('BAT-')).map((p) => [p.entryRef, p.amount, p.unmatchedReason]),
    ).toEqual([
      ['BAT-1', '1.00', 'batch_mismatch'],
      ['BAT-2', '40.00', 'batch_mismatch'],
    ]);
    // A batch that adds up is still split and booked, payment by payment.
    const fine = (
      await importXml(
        statement(
          entry('BAT-3', '40.00', [
            { amount: '30.00', reason: c.shortReference },
            { amount: '10.00', reason: b.shortReference },
          ]),
        ),
      )
    ).json() as ImportStatementResponse;
    expect(fine.lines.map((l) => [l.entryRef, l.outcome])).toEqual([
      ['BAT-3/1', 'booked'],
      ['BAT-3/2', 'booked'],
    ]);
  });
});
