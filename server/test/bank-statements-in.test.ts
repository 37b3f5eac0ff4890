/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { DomainError } from '#domain/errors';
import { readBankStatement } from '../src/modules/bank/camt';
import { charsetOf, decodeStatement } from '../src/modules/bank/encoding';
import { databaseKinds, fixedRates, opsCliOutput, testApp, type TestApp } from './helpers';
import type {
  BankPayment,
  ExportPayoutsResponse,
  ImportStatementResponse,
  ImportStreamLine,
} from '#domain/contracts/bank';
import type { AddressInfo } from 'node:net';

/**
 * Statements in as banks really send them (issue 33): in the encoding the file declares
 * (ISO-8859-1 over FinTS, windows-1252, UTF-16), several accounts in one file (Rabobank), the
 * reason where banks also put it (AddtlRmtInf, AddtlTxInf, AddtlNtryInf), camt.054 notifications
 * during the day booked once with the evening's camt.053, and the import's progress. Every
 * fixture is checked, as its bytes, against the official schema (fixtures/iso20022/README.md).
 */
const FIXTURES = path.join(__dirname, 'fixtures/iso20022');
const bytes = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** Fills {{PLACEHOLDERS}} in the file's own encoding: ASCII values, written as the file writes ASCII. */
function fill(file: Buffer, values: Record<string, string>, utf16 = false): Buffer {
  const encode = (s: string) => Buffer.from(s, utf16 ? 'utf16le' : 'latin1');
  let out = file;
  for (const [key, value] of Object.entries(values)) {
    const needle = encode(`{{${key}}}`);
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = out.indexOf(needle, from); at >= 0; at = out.indexOf(needle, from)) {
      parts.push(out.subarray(from, at), encode(value));
      from = at + needle.length;
    }
    out = Buffer.concat([...parts, out.subarray(from)]);
  }
  if (/\{\{[A-Z0-9_]+\}\}/.test(out.toString(utf16 ? 'utf16le' : 'latin1')))
    throw new Error('a placeholder was left unfilled');
  return out;
}

async function schemaErrors(xml: Buffer | string, xsd: string): Promise<string[]> {
  const contents = typeof xml === 'string' ? xml : new Uint8Array(xml);
  const result = await validateXML({
    xml: [{ fileName: 'file.xml', contents }],
    schema: [{ fileName: xsd, contents: bytes(xsd).toString('utf8') }],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const SAMPLE = { REF: 'S1', ORDER: 'ABCD-EFGH', AMOUNT: '10.00', STATEMENT_ID: 'S-1' };
const SAMPLE_054 = { AMOUNT_1: '10.00', REF_1: 'N1', REF_2: 'N2', REASON_1: 'ABCD-EFGH' };

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
};

it('the files made for these tests are what the official schemas define, read as their bytes by xmllint (libxml2 decodes them itself)', async () => {
  for (const name of ['camt053-latin1.xml', 'camt053-multi.xml'])
    expect([name, await schemaErrors(fill(bytes(name), SAMPLE), 'camt.053.001.02.xsd')]).toEqual([name, []]);
  // xmllint-wasm's libxml2 is built without iconv: it knows UTF-8, UTF-16 and ISO-8859-1 only. The
  // windows-1252 file is checked as its text, declared UTF-8 (the structure is what the schema checks).
  const cp1252 = decodeStatement(fill(bytes('camt053-cp1252.xml'), SAMPLE));
  expect(cp1252).toContain('Miete 50 € – Straße 3');
  expect(
    await schemaErrors(cp1252.replace('encoding="windows-1252"', 'encoding="UTF-8"'), 'camt.053.001.02.xsd'),
  ).toEqual([]);
  expect(await schemaErrors(fill(bytes('camt053-utf16.xml'), SAMPLE, true), 'camt.053.001.02.xsd')).toEqual([]);
  expect(await schemaErrors(fill(bytes('camt054-v02.xml'), SAMPLE_054), 'camt.054.001.02.xsd')).toEqual([]);
  expect(await schemaErrors(fill(bytes('camt054-v08.xml'), SAMPLE_054), 'camt.054.001.08.xsd')).toEqual([]);
  // The check would see a notification that lacks its account.
  const broken = fill(bytes('camt054-v02.xml'), SAMPLE_054)
    .toString('utf8')
    .replace(/<Acct>[\s\S]*?<\/Acct>/, '');
  expect((await schemaErrors(broken, 'camt.054.001.02.xsd')).join()).toMatch(/Acct/);
});

describe('the file read in the encoding it declares', () => {
  const payer = (xml: string, index = 0) => readBankStatement(xml).statements[0]!.lines[index]!;

  it('ISO-8859-1, windows-1252 and UTF-16 (either byte order) give the names and reasons the bank wrote', () => {
    expect(payer(decodeStatement(fill(bytes('camt053-latin1.xml'), SAMPLE)))).toMatchObject({
      partyName: 'Jürgen Müller',
      reasons: ['Überweisung für Café Zürich', 'SEPA-Überweisung'],
    });
    // 0x80 is €, 0x96 the en dash: ISO-8859-1 has control characters there.
    expect(payer(decodeStatement(fill(bytes('camt053-cp1252.xml'), SAMPLE)))).toMatchObject({
      partyName: 'Weiß & Söhne GmbH',
      remittance: 'Miete 50 € – Straße 3',
    });
    const utf16 = fill(bytes('camt053-utf16.xml'), SAMPLE, true);
    expect(payer(decodeStatement(utf16))).toMatchObject({
      partyName: 'Zoë Łukasiewicz-Ångström',
      remittance: 'Zwrot – dziękuję',
    });
    const bigEndian = Buffer.from(utf16);
    bigEndian.swap16();
    expect(payer(decodeStatement(bigEndian)).partyName).toBe('Zoë Łukasiewicz-Ångström');
    // Without its byte order mark, UTF-16 still shows itself by how "<?" is written.
    expect(payer(decodeStatement(utf16.subarray(2))).partyName).toBe('Zoë Łukasiewicz-Ångström');
    expect(payer(decodeStatement(utf16, 'UTF-16')).partyName).toBe('Zoë Łukasiewicz-Ångström');
  });

  it('UTF-8 with or without a byte order mark, declared or not; ISO-8859-15 has its euro sign where ISO-8859-1 has ¤', () => {
    const utf8 = Buffer.from(
      decodeStatement(fill(bytes('camt053-latin1.xml'), SAMPLE)).replace('encoding="ISO-8859-1"', 'encoding="UTF-8"'),
      'utf8',
    );
    const undeclared = Buffer.from(utf8.toString('utf8').replace(' encoding="UTF-8"', ''), 'utf8');
    for (const file of [utf8, undeclared, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8])])
      expect(payer(decodeStatement(file)).partyName).toBe('Jürgen Müller');
    const latin9 = Buffer.from(
      fill(bytes('camt053-latin1.xml'), SAMPLE)
        .toString('latin1')
        .replace('encoding="ISO-8859-1"', 'encoding="ISO-8859-15"')
        .replace('Café', 'Caf\u00a4'),
      'latin1',
    );
    expect(payer(decodeStatement(latin9)).remittance).toContain('Caf€ Zürich');
  });

  it('refuses what it cannot read for certain: undeclared and not UTF-8, labelled two ways that read it differently, a label it does not know', () => {
    const latin1 = fill(bytes('camt053-latin1.xml'), SAMPLE);
    const undeclared = Buffer.from(latin1.toString('latin1').replace(' encoding="ISO-8859-1"', ''), 'latin1');
    expect(codeOf(() => decodeStatement(undeclared))).toBe('statement_encoding');
    // Declared UTF-8, written in ISO-8859-1.
    expect(
      codeOf(() => decodeStatement(Buffer.from(latin1.toString('latin1').replace('ISO-8859-1', 'UTF-8'), 'latin1'))),
    ).toBe('statement_encoding');
    // The file says ISO-8859-1, the upload says UTF-8: the umlauts read differently, so neither is guessed.
    expect(codeOf(() => decodeStatement(latin1, 'utf-8'))).toBe('statement_encoding');
    expect(codeOf(() => decodeStatement(latin1, 'windows-1251'))).toBe('statement_encoding');
    // Labels that read these bytes alike are no conflict: latin1 and windows-1252 share the umlauts;
    // an ASCII-only file reads the same in UTF-8 and ISO-8859-1.
    expect(payer(decodeStatement(latin1, 'windows-1252')).partyName).toBe('Jürgen Müller');
    expect(payer(decodeStatement(latin1, 'latin1')).partyName).toBe('Jürgen Müller');
    const ascii = fill(bytes('camt053-multi.xml'), SAMPLE);
    expect(
      readBankStatement(decodeStatement(Buffer.from(ascii.toString().replace('UTF-8', 'ISO-8859-1')), 'utf-8'))
        .statements,
    ).toHaveLength(3);
    // A byte order mark contradicted by a label.
    expect(codeOf(() => decodeStatement(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), latin1])))).toBe(
      'statement_encoding',
    );
    expect(codeOf(() => decodeStatement(fill(bytes('camt053-utf16.xml'), SAMPLE, true), 'iso-8859-1'))).toBe(
      'statement_encoding',
    );
    expect(
      codeOf(() =>
        decodeStatement(Buffer.from(latin1.toString('latin1').replace('ISO-8859-1', 'EBCDIC-NOPE'), 'latin1')),
      ),
    ).toBe('statement_encoding');
    expect(codeOf(() => decodeStatement(latin1, 'x-made-up'))).toBe('statement_encoding');
  });

  it('reads the charset from a Content-Type however it is written', () => {
    expect(charsetOf('application/xml; charset=ISO-8859-1')).toBe('ISO-8859-1');
    expect(charsetOf('text/xml;Charset="utf-16"')).toBe('utf-16');
    expect(charsetOf('application/xml')).toBeNull();
    expect(charsetOf(undefined)).toBeNull();
  });
});

describe('the reason where banks also put it', () => {
  it('structured references first, then the unstructured lines joined, then AddtlRmtInf, AddtlTxInf and the entry’s AddtlNtryInf; each text once', () => {
    const strd = readBankStatement(
      fill(bytes('camt054-v02.xml'), { ...SAMPLE_054, REASON_1: 'ABCD-EFGH' }).toString('utf8'),
    ).statements[0]!.lines[0]!;
    expect(strd).toMatchObject({
      reasons: ['ABCD-EFGH', 'SEPA-Gutschrift'],
      remittance: 'ABCD-EFGH SEPA-Gutschrift',
      partyName: 'Hanna Kowalska',
    });
    const addtlTx = readBankStatement(
      fill(bytes('camt054-v08.xml'), { ...SAMPLE_054, REASON_1: 'Muntly abcd efgh' }).toString('utf8'),
    ).statements[0]!.lines[0]!;
    expect(addtlTx).toMatchObject({
      reasons: ['Muntly abcd efgh'],
      remittance: 'Muntly abcd efgh',
      partyName: 'Joost de Vries',
    });
    // Every place at once, the reason repeated by the bank in AddtlNtryInf shown once.
    const all = fill(bytes('camt053-latin1.xml'), SAMPLE)
      .toString('latin1')
      .replace(
        '<Ustrd>Überweisung für Café Zürich</Ustrd>',
        '<Ustrd>Rechnung</Ustrd><Ustrd>4711</Ustrd><Strd><CdtrRefInf><Ref>RF18539007547034</Ref></CdtrRefInf><AddtlRmtInf>Kd-Nr 12</AddtlRmtInf><AddtlRmtInf>WXYZ-QRST</AddtlRmtInf></Strd>',
      )
      .replace(
        '</RmtInf>\n          </TxDtls>',
        '</RmtInf>\n            <AddtlTxInf>Dauerauftrag</AddtlTxInf>\n          </TxDtls>',
      )
      .replace('<AddtlNtryInf>SEPA-Überweisung</AddtlNtryInf>', '<AddtlNtryInf>Rechnung 4711</AddtlNtryInf>');
    expect(readBankStatement(decodeStatement(Buffer.from(all, 'latin1'))).statements[0]!.lines[0]).toMatchObject({
      reasons: ['RF18539007547034', 'Rechnung 4711', 'Kd-Nr 12 WXYZ-QRST', 'Dauerauftrag'],
      remittance: 'RF18539007547034 Rechnung 4711 Kd-Nr 12 WXYZ-QRST Dauerauftrag',
    });
  });
});

describe.each(databaseKinds())('statements in (%s)', (kind) => {
  let t: TestApp;
  const rates = fixedRates();
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
  }, 120_000);
  afterAll(() => t?.close());

  const buy = async (email: string, amount: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount,
        email,
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    if (res.statusCode >= 300) throw new Error(`placing an order: ${res.body}`);
    return res.json() as { reference: string; shortReference: string };
  };
  const lookup = async (email: string, reference: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload: { email, reference } })).json() as {
      status: string;
      amountReceived: string | null;
    };
  const post = (file: Buffer, contentType = 'application/xml', accept?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/ops/bank/statements',
      headers: { ...t.admin, 'content-type': contentType, ...(accept ? { accept } : {}) },
      payload: file,
    });
  const imported = async (file: Buffer, contentType?: string) => {
    const res = await post(file, contentType);
    expect([res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([200, '']);
    return res.json() as ImportStatementResponse;
  };
  const payments = async (status: string) =>
    (
      (await t.app.inject({ url: `/api/ops/bank/unmatched?status=${status}`, headers: t.admin })).json() as {
        payments: BankPayment[];
      }
    ).payments;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const outcome = (result: ImportStatementResponse, ref: string) =>
    result.lines.filter((l) => l.entryRef === ref).map((l) => l.outcome);

  it('ISO-8859-1, windows-1252 and UTF-16 statements: payers’ names stored as written, orders paid, and a refund’s pain.001 names the payer right', async () => {
    const files = [
      {
        name: 'camt053-latin1.xml',
        ref: 'LAT',
        payer: 'Jürgen Müller',
        written: 'Jurgen Muller',
        remittance: 'Überweisung für Café Zürich SEPA-Überweisung',
      },
      {
        name: 'camt053-cp1252.xml',
        ref: 'WIN',
        payer: 'Weiß & Söhne GmbH',
        written: 'Weiss Sohne GmbH',
        remittance: 'Miete 50 € – Straße 3',
      },
      {
        name: 'camt053-utf16.xml',
        ref: 'U16',
        payer: 'Zoë Łukasiewicz-Ångström',
        written: 'Zoe Lukasiewicz-Angstrom',
        remittance: 'Zwrot – dziękuję',
      },
    ];
    const refunds: string[] = [];
    for (const [i, file] of files.entries()) {
      const email = `enc-${i}-${kind}@muntly.test`;
      const order = await buy(email, '30');
      const xml = fill(
        bytes(file.name),
        { REF: file.ref, ORDER: order.shortReference, AMOUNT: '30.00', STATEMENT_ID: file.ref },
        file.name.includes('utf16'),
      );
      const result = await imported(xml);
      expect(outcome(result, `${file.ref}-2`)).toEqual(['booked']);
      expect(await lookup(email, order.reference)).toMatchObject({ status: 'processing', amountReceived: '30.00' });
      const queued = (await payments('open')).find((p) => p.entryRef === `${file.ref}-1`)!;
      expect(queued).toMatchObject({ payerName: file.payer, remittance: file.remittance });
      expect((await payments('matched')).find((p) => p.entryRef === `${file.ref}-2`)!.payerName).not.toMatch(/\uFFFD/);
      const refund = await t.app.inject({
        method: 'POST',
        url: `/api/ops/bank/unmatched/${queued.id}/refund`,
        headers: t.admin,
      });
      expect(refund.statusCode).toBe(200);
      refunds.push(file.written);
      // The same bytes again, said to be what they are: nothing twice.
      if (i === 0)
        expect((await imported(xml, 'application/xml; charset=ISO-8859-1')).counts).toMatchObject({
          booked: 0,
          unmatched: 0,
          duplicate: 2,
        });
    }
    const exported = (
      await t.app.inject({ method: 'POST', url: '/api/ops/bank/payouts-export', headers: t.admin })
    ).json() as ExportPayoutsResponse;
    expect(await schemaErrors(exported.xml!, 'pain.001.001.09.xsd')).toEqual([]);
    const names = new XMLParser({ isArray: (n) => n === 'CdtTrfTxInf' })
      .parse(exported.xml!)
      .Document.CstmrCdtTrfInitn.PmtInf.CdtTrfTxInf.map((tx: { Cdtr: { Nm: string } }) => tx.Cdtr.Nm);
    expect(names.sort()).toEqual(refunds.sort());
  });

  it('refuses a file it cannot read for certain, in the operator’s language, booking nothing', async () => {
    const before = await rows(sql`select count(*)::int as n from bank_payments`);
    const latin1 = fill(bytes('camt053-latin1.xml'), { ...SAMPLE, REF: 'BAD' });
    const undeclared = Buffer.from(latin1.toString('latin1').replace(' encoding="ISO-8859-1"', ''), 'latin1');
    for (const [file, contentType] of [
      [undeclared, 'application/xml'],
      [latin1, 'application/xml; charset=utf-8'],
      [latin1, 'text/xml; charset=nonsense'],
    ] as const) {
      const res = await post(file, contentType);
      expect([res.statusCode, res.json().error.code]).toEqual([400, 'statement_encoding']);
    }
    const german = await t.app.inject({
      method: 'POST',
      url: '/api/ops/bank/statements',
      headers: { ...t.admin, 'content-type': 'application/xml', 'accept-language': 'de' },
      payload: undeclared,
    });
    expect(german.json().error.code).toBe('statement_encoding');
    const de = JSON.parse(fs.readFileSync(path.join(__dirname, '../../locales/de/errors.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(de.statement_encoding).toMatch(/Zeichenkodierung/);
    expect(await rows(sql`select count(*)::int as n from bank_payments`)).toEqual(before);
  });

  it('several accounts in one file: Muntly’s statement is imported, the others are named (IBAN masked) and left alone; none of Muntly’s, refused', async () => {
    const email = `multi-${kind}@muntly.test`;
    const order = await buy(email, '42');
    const file = fill(bytes('camt053-multi.xml'), {
      REF: 'RABO',
      ORDER: order.shortReference,
      AMOUNT: '42.00',
      STATEMENT_ID: 'RABO-1',
    });
    const result = await imported(file);
    expect(result.statements).toEqual(['RABO-1']);
    expect(result.otherAccounts).toEqual([
      { statementId: 'RABO-1-SAVINGS', iban: 'NL91 … 4300', payments: 1 },
      { statementId: 'RABO-1-OTHER', iban: 'NL69 … 6789', payments: 2 },
    ]);
    expect(result.lines.map((l) => `${l.entryRef} ${l.outcome}`)).toEqual(['RABO-1 booked']);
    expect(await lookup(email, order.reference)).toMatchObject({ status: 'processing', amountReceived: '42.00' });
    expect(await rows(sql`select entry_ref from bank_payments where entry_ref like 'RABO-%'`)).toEqual([
      { entry_ref: 'RABO-1' },
    ]);

    const none = Buffer.from(
      file
        .toString('utf8')
        .replace(/DE89370400440532013000<\/IBAN>\s*<\/Id>\s*<\/Acct>/, 'BE68539007547034</IBAN></Id></Acct>'),
    );
    const refused = await post(none);
    expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'statement_wrong_account']);
    expect(refused.json().error.message).toContain('NL91 … 4300');
    expect(refused.json().error.message).not.toContain('0417164300');
  });

  it('camt.054 during the day and the evening’s camt.053 book a payment once, whichever comes first; the reason found in AddtlRmtInf and AddtlTxInf', async () => {
    const first = { email: `ntf-first-${kind}@muntly.test`, ...(await buy(`ntf-first-${kind}@muntly.test`, '25')) };
    const later = { email: `stmt-first-${kind}@muntly.test`, ...(await buy(`stmt-first-${kind}@muntly.test`, '35')) };

    // Notified at 11:05 (camt.054.001.02, the reason in AddtlRmtInf), stated in the evening.
    const notification = await imported(
      fill(bytes('camt054-v02.xml'), {
        AMOUNT_1: '25.00',
        REF_1: 'DAY1-2',
        REF_2: 'DAY1-9',
        REASON_1: first.shortReference,
      }),
    );
    expect(notification.version).toBe('camt.054.001.02');
    expect(notification.lines.map((l) => `${l.entryRef} ${l.outcome} ${l.reason ?? ''}`)).toEqual([
      `DAY1-2 booked `,
      'DAY1-9 skipped not_booked',
    ]);
    const evening = await imported(
      fill(bytes('camt053-latin1.xml'), {
        REF: 'DAY1',
        ORDER: first.shortReference,
        AMOUNT: '25.00',
        STATEMENT_ID: 'DAY1',
      }),
    );
    expect(outcome(evening, 'DAY1-2')).toEqual(['duplicate']);

    // The other way round: stated first, notified after (camt.054.001.08, the reason in AddtlTxInf).
    const stated = await imported(
      fill(bytes('camt053-cp1252.xml'), {
        REF: 'DAY2',
        ORDER: later.shortReference.toLowerCase(),
        AMOUNT: '35.00',
        STATEMENT_ID: 'DAY2',
      }),
    );
    expect(outcome(stated, 'DAY2-2')).toEqual(['booked']);
    const notified = await imported(
      fill(bytes('camt054-v08.xml'), {
        AMOUNT_1: '35.00',
        REF_1: 'DAY2-2',
        REF_2: 'unused',
        REASON_1: `${later.shortReference}`,
      }),
    );
    expect(notified.version).toBe('camt.054.001.08');
    expect(outcome(notified, 'DAY2-2')).toEqual(['duplicate']);

    for (const order of [first, later])
      expect(await lookup(order.email, order.reference)).toMatchObject({ status: 'processing' });
    expect(await lookup(first.email, first.reference)).toMatchObject({ amountReceived: '25.00' });
    expect(await lookup(later.email, later.reference)).toMatchObject({ amountReceived: '35.00' });
    expect(
      await rows(
        sql`select id from ledger_transfers where id in ('bank-payment:DAY1-2', 'bank-payment:DAY2-2') order by id`,
      ),
    ).toEqual([{ id: 'bank-payment:DAY1-2' }, { id: 'bank-payment:DAY2-2' }]);
    // Both at the same moment: still once.
    const third = { email: `ntf-race-${kind}@muntly.test`, ...(await buy(`ntf-race-${kind}@muntly.test`, '15')) };
    const raced = await Promise.all([
      imported(
        fill(bytes('camt054-v02.xml'), {
          AMOUNT_1: '15.00',
          REF_1: 'DAY3-2',
          REF_2: 'DAY3-9',
          REASON_1: third.shortReference,
        }),
      ),
      imported(
        fill(bytes('camt053-latin1.xml'), {
          REF: 'DAY3',
          ORDER: third.shortReference,
          AMOUNT: '15.00',
          STATEMENT_ID: 'DAY3',
        }),
      ),
    ]);
    expect(raced.flatMap((r) => outcome(r, 'DAY3-2')).sort()).toEqual(['booked', 'duplicate']);
    expect(await lookup(third.email, third.reference)).toMatchObject({ amountReceived: '15.00' });
  });

  it('a large file reports its progress as it goes (Accept: application/x-ndjson), then the result; refusals stay plain errors', async () => {
    const entries = (fill(bytes('camt053-multi.xml'), SAMPLE)
      .toString('utf8')
      .match(/<Ntry>[\s\S]*?<\/Ntry>/g) ?? [])[1]!;
    const many = Array.from({ length: 250 }, (_, i) =>
      entries
        .replace(/<AcctSvcrRef>[^<]*</, `<AcctSvcrRef>BULK-${i}<`)
        .replace(/<Ustrd>[^<]*</, `<Ustrd>Rechnung ${i}<`),
    ).join('\n');
    const file = Buffer.from(
      fill(bytes('camt053-multi.xml'), { ...SAMPLE, REF: 'BULK', STATEMENT_ID: 'BULK' })
        .toString('utf8')
        .replace(/(<Stmt>\s*<Id>BULK<\/Id>[\s\S]*?<\/Acct>)[\s\S]*?(<\/Stmt>)/, `$1\n${many}\n$2`),
    );
    const res = await post(file, 'application/xml', 'application/x-ndjson');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const stream = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ImportStreamLine);
    const progress = stream.flatMap((line) => ('progress' in line ? [line.progress] : []));
    expect(progress.length).toBeGreaterThanOrEqual(3); // at most 100 lines per batch
    expect(progress.map((p) => p.total)).toEqual(progress.map(() => 250));
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(progress.at(-1)!.done).toBe(250);
    const last = stream.at(-1)!;
    expect('result' in last && last.result.counts.unmatched).toBe(250);

    const refused = await post(Buffer.from('<Document/>'), 'application/xml', 'application/x-ndjson');
    expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'statement_invalid']);
  });

  it('taken in together as one by one: two payments naming one order pay it once (the other waits unmatched), each matched payment audited, the chain intact', async () => {
    const email = `twice-${kind}@muntly.test`;
    const order = await buy(email, '20');
    const template = fill(bytes('camt053-multi.xml'), {
      REF: 'TWICE',
      ORDER: order.shortReference,
      AMOUNT: '20.00',
      STATEMENT_ID: 'TWICE',
    }).toString('utf8');
    const entry = template.match(/<Ntry>[\s\S]*?<\/Ntry>/g)![1]!;
    const file = Buffer.from(
      template.replace(entry, `${entry}\n${entry.replace('<AcctSvcrRef>TWICE-1<', '<AcctSvcrRef>TWICE-2<')}`),
    );
    const result = await imported(file);
    expect(
      result.lines
        .filter((l) => l.entryRef.startsWith('TWICE-'))
        .map((l) => `${l.entryRef} ${l.outcome} ${l.reason ?? ''}`),
    ).toEqual(['TWICE-1 booked ', 'TWICE-2 unmatched not_found']);
    expect(await lookup(email, order.reference)).toMatchObject({ status: 'processing', amountReceived: '20.00' });
    expect(await rows(sql`select id from ledger_transfers where id like 'bank-payment:TWICE-%'`)).toEqual([
      { id: 'bank-payment:TWICE-1' },
    ]);
    expect(
      await rows(sql`select action, target from audit_log where after->>'entryRef' like 'TWICE-%' order by id`),
    ).toEqual([
      { action: 'bank.payment_matched', target: order.reference },
      { action: 'bank.payment_unmatched', target: expect.any(String) },
    ]);
    const chain = await t.app.inject({ url: '/api/ops/audit/verify', headers: t.admin });
    expect(chain.json()).toMatchObject({ ok: true });
  });

  it('npm run ops -- import-statement reads the file as bytes and names the accounts it skipped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-statements-'));
    const email = `cli-${kind}@muntly.test`;
    const order = await buy(email, '12');
    const multi = path.join(dir, 'rabobank.xml');
    fs.writeFileSync(
      multi,
      fill(bytes('camt053-multi.xml'), { REF: 'CLIM', ORDER: 'nothing', AMOUNT: '1.00', STATEMENT_ID: 'CLIM' }),
    );
    const latin1 = path.join(dir, 'fints.xml');
    fs.writeFileSync(
      latin1,
      fill(bytes('camt053-latin1.xml'), {
        REF: 'CLIL',
        ORDER: order.shortReference,
        AMOUNT: '12.00',
        STATEMENT_ID: 'CLIL',
      }),
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const printed = await opsCliOutput(url, t.admin, async (ops) => {
      await ops(['import-statement', multi]);
      await ops(['import-statement', latin1]);
      await ops(['unmatched']);
    });
    const text = printed.join('\n');
    expect(text).toContain(
      'Skipped: statement CLIM-SAVINGS of another account, NL91 … 4300, 1 payment (not BANK_IBAN).',
    );
    expect(text).toContain(
      'Skipped: statement CLIM-OTHER of another account, NL69 … 6789, 2 payments (not BANK_IBAN).',
    );
    expect(text).toContain('camt.053.001.02: 1 booked, 1 unmatched');
    expect(text).toMatch(/Jürgen Müller {2}DE02120300000000202051 {2}"Überweisung für Café Zürich SEPA-Überweisung"/);
    // (The public lookup is rate limited by now: the order as stored.)
    expect(
      await rows(sql`select status, amount_received::text as amount from orders where reference = ${order.reference}`),
    ).toEqual([{ status: 'processing', amount: '1200' }]);
  });
});
