/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { SEPA_IBAN_COUNTRIES, SEPA_NON_EEA_COUNTRIES, leavesEea } from '#domain/sepa';
import { loadConfig } from '../src/config';
import { buildPain001, type Pain001Input } from '../src/modules/bank/pain';
import { writeWaitingEmails } from '../src/modules/notify/outbox-writer';
import { processOrders } from '../src/modules/orders/settlement';
import { databaseKinds, fixedRates, testApp, testUser, type TestApp } from './helpers';
import type { ExportPayoutsResponse } from '#domain/contracts/bank';
import type { Order } from '#domain/contracts/orders';

/**
 * Payouts out as banks of 2026 take them (issue 33): pain.001.001.09 by default (.03 by
 * BANK_PAIN_VERSION), Muntly's structured address as the payer (transfers leaving the EEA must
 * carry it, and the EPC takes it only structured from November 2026), the payee's name the
 * customer gave — in Latin letters, since the payee's bank checks it (verification of payee) —
 * and never Muntly's own account as a customer's. Every file is checked against the ISO 20022
 * schema of its version and, for .09, against the EPC's schema of its 2023 guidelines
 * (fixtures/iso20022/README.md says where each comes from).
 */
const FIXTURES = path.join(__dirname, 'fixtures/iso20022');
const RA_09 = 'pain.001.001.09.xsd';
const EPC_09 = 'EPC132-08_2023_V1.0_SCT_C2PSP.xsd';
const RA_03 = 'pain.001.001.03.xsd';
const schemas = new Map<string, string>();
async function schemaErrors(xml: string, xsd: string): Promise<string[]> {
  if (!schemas.has(xsd)) schemas.set(xsd, fs.readFileSync(path.join(FIXTURES, xsd), 'utf8'));
  const result = await validateXML({
    xml: [{ fileName: 'payouts.xml', contents: xml }],
    schema: [{ fileName: xsd, contents: schemas.get(xsd)! }],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}
/** A file of a version: valid against every schema of that version. */
async function expectValid(xml: string, version: '09' | '03') {
  for (const xsd of version === '09' ? [RA_09, EPC_09] : [RA_03])
    expect({ xsd, errors: await schemaErrors(xml, xsd) }).toEqual({ xsd, errors: [] });
}

const reader = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => name === 'CdtTrfTxInf' || name === 'AdrLine',
});
type Written = {
  PmtId: { EndToEndId: string };
  Amt: { InstdAmt: { '#text': string } };
  Cdtr: { Nm: string };
  CdtrAcct: { Id: { IBAN: string } };
};
function read(xml: string) {
  const document = reader.parse(xml).Document;
  const info = document.CstmrCdtTrfInitn.PmtInf;
  return {
    namespace: document['@_xmlns'] as string,
    executionDate: info.ReqdExctnDt as unknown,
    debtor: info.Dbtr as { Nm: string; PstlAdr?: Record<string, unknown> },
    debtorAgent: info.DbtrAgt.FinInstnId as Record<string, unknown>,
    transfers: (info.CdtTrfTxInf as Written[]).map((tx) => ({
      e2e: tx.PmtId.EndToEndId,
      amount: tx.Amt.InstdAmt['#text'],
      name: tx.Cdtr.Nm,
      iban: tx.CdtrAcct.Id.IBAN,
    })),
  };
}

const ADDRESS = { street: 'Chausseestraße', building: '1a', postcode: '10115', town: 'Berlin', country: 'DE' };
const input = (version: '09' | '03', changes: Partial<Pain001Input> = {}): Pain001Input => ({
  version,
  messageId: 'MUNTLY-20261128-TEST',
  created: new Date('2026-11-28T09:00:00Z'),
  executionDate: new Date('2026-11-28T09:00:00Z'),
  debtor: { name: 'Muntly GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', address: ADDRESS },
  transfers: [
    {
      endToEndId: '0123456789abcdef0123456789abcdef',
      amount: 12_345n,
      creditorName: 'Юлия Коваленко',
      creditorIban: 'GB82WEST12345698765432',
      remittance: 'ABCD-EFGH',
    },
    {
      endToEndId: 'fedcba9876543210fedcba9876543210',
      amount: 1n,
      creditorName: 'Urs Müller',
      creditorIban: 'CH9300762011623852957',
      remittance: 'IJKL-MNOP',
    },
  ],
  ...changes,
});

describe('the payouts file as the library writes it, checked against the official schemas', () => {
  it('.09: BICFI, the execution date as ReqdExctnDt/Dt, the payer address structured (no address line), valid for ISO and the EPC', async () => {
    const xml = buildPain001(input('09'));
    await expectValid(xml, '09');
    const file = read(xml);
    expect(file.namespace).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(file.executionDate).toEqual({ Dt: '2026-11-28' });
    expect(file.debtorAgent).toEqual({ BICFI: 'COBADEFFXXX' });
    expect(file.debtor).toEqual({
      Nm: 'Muntly GmbH',
      PstlAdr: { StrtNm: 'Chausseestrasse', BldgNb: '1a', PstCd: '10115', TwnNm: 'Berlin', Ctry: 'DE' },
    });
    expect(file.transfers.map((t) => t.name)).toEqual(['Yuliya Kovalenko', 'Urs Muller']);
    // It is a .09 file: the .03 schema refuses it, so the check can tell them apart.
    expect((await schemaErrors(xml, RA_03)).join()).toMatch(/pain\.001\.001\.09|No matching global declaration/);
  });

  it('.03: BIC, the execution date as a date, the payer address as the .03 guidelines allow (country and two lines)', async () => {
    const xml = buildPain001(input('03'));
    await expectValid(xml, '03');
    const file = read(xml);
    expect(file.namespace).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.03');
    expect(file.executionDate).toBe('2026-11-28');
    expect(file.debtorAgent).toEqual({ BIC: 'COBADEFFXXX' });
    expect(file.debtor).toEqual({
      Nm: 'Muntly GmbH',
      PstlAdr: { Ctry: 'DE', AdrLine: ['Chausseestrasse 1a', '10115 Berlin'] },
    });
    expect((await schemaErrors(xml, RA_09)).length).toBeGreaterThan(0);
  });

  it('holds against odd input: no BIC, a town alone, names in other scripts, XML specials, names too long, in both versions', async () => {
    const names = [
      '张伟',
      'Γιώργος Παπαδόπουλος',
      'O\'Brien & <Söhne> "GmbH"',
      '🙂🙂',
      'X'.repeat(200),
      'Олександр Їжаченко',
    ];
    for (const version of ['09', '03'] as const) {
      const xml = buildPain001(
        input(version, {
          debtor: {
            name: 'Muntly & Co',
            iban: 'DE89370400440532013000',
            bic: '',
            address: { town: 'Berlin', country: 'DE' },
          },
          transfers: names.map((name, i) => ({
            endToEndId: `e2e${i}`,
            amount: BigInt(100 + i),
            creditorName: name,
            creditorIban: 'NL91ABNA0417164300',
            remittance: `Ref ${name}`,
          })),
        }),
      );
      await expectValid(xml, version);
      const file = read(xml);
      expect(file.transfers.map((t) => t.name)).toEqual([
        'Zhang Wei',
        'Giorgos Papadopoylos',
        "O'Brien Sohne GmbH",
        'NOTPROVIDED',
        'X'.repeat(70),
        'Oleksandr Yizhachenko',
      ]);
      expect(file.debtorAgent).toEqual({ Othr: { Id: 'NOTPROVIDED' } });
      expect(file.debtor.PstlAdr).toEqual(
        version === '09' ? { TwnNm: 'Berlin', Ctry: 'DE' } : { Ctry: 'DE', AdrLine: ['Berlin'] },
      );
    }
  });
});

describe('SEPA countries outside the EEA (the payer address must travel with the transfer)', () => {
  it('are SEPA countries, told by the IBAN, in any case; an EEA IBAN is not', () => {
    for (const country of SEPA_NON_EEA_COUNTRIES.filter((c) => !['JE', 'GG', 'IM'].includes(c)))
      expect(SEPA_IBAN_COUNTRIES).toContain(country);
    expect(leavesEea('GB82WEST12345698765432')).toBe(true);
    expect(leavesEea('ch9300762011623852957')).toBe(true);
    expect(leavesEea('DE89370400440532013000')).toBe(false);
    expect(leavesEea('LI21088100002324013AA')).toBe(false); // Liechtenstein is in the EEA
  });
});

describe("the payer's address settings", () => {
  const production = {
    AUTH0_DOMAIN: 'muntly.eu.auth0.com',
    AUTH0_CLIENT_ID: 'c',
    AUTH0_AUDIENCE: 'https://api.muntly.eu',
    DATABASE_URL: 'postgres://db/muntly',
    CHAIN_PAYOUTS: 'signer',
    BANK_PAYOUTS: 'external',
    OPERATOR_NAME: 'Muntly GmbH',
    OPERATOR_ADDRESS: 'Chausseestraße 1, 10115 Berlin, Germany',
    OPERATOR_EMAIL: 'legal@muntly.eu',
    SECURITY_LINK_SECRET: 'a-production-secret-of-at-least-32-characters',
  };
  it('local mode writes .09 with a sample address; production needs the real one, with its town and country', () => {
    expect(loadConfig({})).toMatchObject({
      BANK_PAIN_VERSION: '09',
      bankDebtorAddress: { town: 'Berlin', country: 'DE' },
    });
    expect(loadConfig({ BANK_PAIN_VERSION: '03' }).BANK_PAIN_VERSION).toBe('03');
    expect(() => loadConfig({ BANK_PAIN_VERSION: '08' })).toThrow(/BANK_PAIN_VERSION/);
    expect(() => loadConfig(production)).toThrow(/BANK_DEBTOR_TOWN: is required when AUTH0_DOMAIN is set/);
    expect(() => loadConfig({ ...production, BANK_DEBTOR_STREET: 'Chausseestraße' })).toThrow(
      /BANK_DEBTOR_TOWN[\s\S]*BANK_DEBTOR_COUNTRY/,
    );
    expect(() => loadConfig({ ...production, BANK_DEBTOR_TOWN: 'Berlin', BANK_DEBTOR_COUNTRY: 'Germany' })).toThrow(
      /BANK_DEBTOR_COUNTRY: must be an ISO 3166 country code/,
    );
    expect(() => loadConfig({ ...production, BANK_DEBTOR_TOWN: 'B'.repeat(36), BANK_DEBTOR_COUNTRY: 'DE' })).toThrow(
      /BANK_DEBTOR_TOWN: must be at most 35/,
    );
    expect(
      loadConfig({ ...production, BANK_DEBTOR_TOWN: 'Wien', BANK_DEBTOR_COUNTRY: 'AT', BANK_DEBTOR_POSTCODE: '1010' })
        .bankDebtorAddress,
    ).toEqual({
      town: 'Wien',
      country: 'AT',
      postcode: '1010',
    });
  });
});

const MUNTLY_IBAN = 'DE89370400440532013000';
/** Muntly's IBAN as people may write or paste it. */
const MUNTLY_SPELLINGS = [
  MUNTLY_IBAN,
  'de89370400440532013000',
  'DE89 3704 0044 0532 0130 00',
  'de89 3704 0044 0532 0130 00',
  'DE89-3704-0044-0532-0130-00',
  ' DE89 3704\t0044 0532\n0130 00 ',
  'DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000', // no-break spaces, as banking apps copy it
  'DE89\u202f3704\u200b0044\u20090532 0130 00', // narrow, zero-width and thin spaces
  'ＤＥ８９ ３７０４ ００４４ ０５３２ ０１３０ ００', // full-width, as a phone keyboard may type it
];

describe.each(databaseKinds())('payouts out (%s)', (kind) => {
  const rates = fixedRates();
  let t: TestApp;
  let old: TestApp;
  const ADDRESS_ENV = {
    BANK_DEBTOR_STREET: 'Chausseestraße',
    BANK_DEBTOR_BUILDING: '1',
    BANK_DEBTOR_POSTCODE: '10115',
    BANK_DEBTOR_TOWN: 'Berlin',
    BANK_DEBTOR_COUNTRY: 'DE',
  };
  beforeAll(async () => {
    t = await testApp(kind, ADDRESS_ENV, { rates });
    old = await testApp(kind, { ...ADDRESS_ENV, BANK_PAIN_VERSION: '03' }, { rates });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await old?.close();
  });

  let n = 0;
  const sell = (app: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers,
      payload: {
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: '0.001',
        email: `seller-${kind}-${++n}@example.com`,
        ...body,
      },
    });
  const placed = async (app: TestApp, body: Record<string, unknown>) => {
    const res = await sell(app, body);
    expect({ status: res.statusCode, body: res.statusCode === 201 ? null : res.json() }).toEqual({
      status: 201,
      body: null,
    });
    return res.json() as Order & { receiving: { address: string } };
  };
  /** The crypto arrives, the worker converts: the order's bank payout is due. */
  const settle = async (app: TestApp, orders: Order[]) => {
    for (const order of orders)
      await app.app.inject({
        method: 'POST',
        url: '/api/ops/chain-deposit',
        headers: app.admin,
        payload: { currency: 'BTC', address: order.receiving!.address, amount: order.amount },
      });
    await processOrders(app.database.db, { ...app.app.workers.settlement, rates });
  };
  const exportFile = async (app: TestApp) => {
    const res = await app.app.inject({ method: 'POST', url: '/api/ops/bank/payouts-export', headers: app.admin });
    expect(res.statusCode).toBe(200);
    return res.json() as ExportPayoutsResponse;
  };
  const payoutOf = async (app: TestApp, reference: string) =>
    (
      (await app.database.db.execute(
        sql`select p.id from payouts p join orders o on o.id = p.order_id where o.reference = ${reference}`,
      )) as unknown as { rows: { id: string }[] }
    ).rows[0]!.id;
  const e2e = (id: string) => id.replace(/-/g, '');

  it("Muntly's own IBAN is refused as a sell's payout account in every spelling, next to the IBAN, and nothing is placed", async () => {
    const orderCount = async () =>
      (
        (await t.database.db.execute(sql`select count(*)::int as n from orders`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    const before = await orderCount();
    for (const address of MUNTLY_SPELLINGS) {
      const res = await sell(t, { address, beneficiary: 'Ada Lovelace' }, { 'accept-language': 'de' });
      expect({ address, status: res.statusCode, error: res.json().error }).toMatchObject({
        address,
        status: 400,
        error: { code: 'muntly_iban', field: 'address' },
      });
    }
    // The message is the page's text (errors.json), in English here.
    expect((await sell(t, { address: MUNTLY_IBAN, beneficiary: 'Ada Lovelace' })).json().error.message).toMatch(
      /Muntly's own bank account/,
    );
    expect(await orderCount()).toBe(before);
    // A sell paid from the wallet to an IBAN takes the same way.
    const user = await testUser(t, `wallet-seller-${kind}@example.com`);
    const fromWallet = await sell(
      t,
      { address: 'de89 3704 0044 0532 0130 00', beneficiary: 'Ada Lovelace', useMyWallet: true },
      user.headers,
    );
    expect(fromWallet.json().error).toMatchObject({ code: 'muntly_iban', field: 'address' });
    // Another account with the same bank and almost the same digits is someone else's.
    expect((await sell(t, { address: 'DE02120300000000202051', beneficiary: 'Ada Lovelace' })).statusCode).toBe(201);
  });

  it("Muntly's own IBAN is refused as the account of a bank verification, in any spelling", async () => {
    const user = await testUser(t, `verifier-${kind}@example.com`, { verified: [] });
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/enable',
      headers: t.admin,
      payload: { email: user.email, kind: 'bank' },
    });
    for (const iban of MUNTLY_SPELLINGS.slice(0, 7)) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/identity/bank',
        headers: user.headers,
        payload: { iban, beneficiary: 'Vera Verify' },
      });
      expect({ iban, status: res.statusCode, error: res.json().error }).toMatchObject({
        iban,
        status: 400,
        error: { code: 'muntly_iban', field: 'iban' },
      });
    }
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/identity/bank',
      headers: user.headers,
      payload: { iban: 'NL91 ABNA 0417 1643 00', beneficiary: 'Vera Verify' },
    });
    expect(own.statusCode).toBe(200);
  });

  it("a sell to an IBAN needs the account holder's name: 2–70 Latin characters once transliterated, refused next to the field", async () => {
    const refused = async (beneficiary: unknown, code: string) => {
      const res = await sell(t, {
        address: 'NL91ABNA0417164300',
        ...(beneficiary === undefined ? {} : { beneficiary }),
      });
      expect({ beneficiary, status: res.statusCode, error: res.json().error }).toMatchObject({
        beneficiary,
        status: 400,
        error: { code, field: 'beneficiary' },
      });
    };
    await refused(undefined, 'required');
    await refused('', 'required');
    await refused('   \t ', 'required');
    await refused('J', 'invalid_beneficiary');
    await refused('Л', 'invalid_beneficiary'); // one letter in Latin too
    await refused('🙂🙂🙂', 'invalid_beneficiary'); // nothing left in SEPA's characters
    await refused('---', 'invalid_beneficiary');
    await refused('A'.repeat(71), 'invalid_beneficiary');
    await refused('Щ'.repeat(20), 'invalid_beneficiary'); // 20 letters, 80 in Latin (Shch)
    expect((await sell(t, { address: 'NL91ABNA0417164300', beneficiary: 'A'.repeat(70) })).statusCode).toBe(201);
    // Into the wallet, no bank account: no name either.
    const user = await testUser(t, `kept-${kind}@example.com`);
    expect(
      (await sell(t, { sendToMyWallet: true, useMyWallet: true, amount: '0.0001' }, user.headers)).statusCode,
    ).not.toBe(400);
  });

  it('the .09 file: GB and CH payees with the structured payer address, a Cyrillic holder written in Latin letters, valid for ISO and the EPC', async () => {
    const gb = await placed(t, { address: 'GB82 WEST 1234 5698 7654 32', beneficiary: 'Oliver Smith' });
    const ch = await placed(t, { address: 'CH93 0076 2011 6238 5295 7', beneficiary: 'Urs Müller' });
    const yulia = await placed(t, { address: 'DE02 1203 0000 0000 2020 51', beneficiary: 'Юлия Коваленко' });
    // The form showed the Latin spelling and Yulia corrected it: the API takes it as sent.
    const corrected = await placed(t, { address: 'FR14 2004 1010 0505 0001 3M02 606', beneficiary: 'Yulia Kovalenko' });
    expect([gb, ch, yulia, corrected].map((o) => o.beneficiary)).toEqual([
      'Oliver Smith',
      'Urs Muller',
      'Yuliya Kovalenko',
      'Yulia Kovalenko',
    ]);
    // The order shows it, looked up later too, and the confirmation email names it beside the IBAN.
    const lookedUp = await t.app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: { email: `seller-${kind}-${n - 1}@example.com`, reference: yulia.reference },
    });
    expect(lookedUp.json()).toMatchObject({ beneficiary: 'Yuliya Kovalenko', address: 'DE02120300000000202051' });
    // The confirmation is written after the placement (notify/outbox-writer.ts), by the time anything reads it.
    await writeWaitingEmails(t.database.db);
    const [mail] = (
      (await t.database.db.execute(
        sql`select body from outbox where recipient = ${`seller-${kind}-${n - 1}@example.com`}`,
      )) as unknown as { rows: { body: string }[] }
    ).rows;
    expect(mail!.body).toContain(
      'We pay the euros by SEPA transfer to this account:\n\nAccount holder: Yuliya Kovalenko\nIBAN: DE02 1203 0000 0000 2020 51',
    );

    await settle(t, [gb, ch, yulia, corrected]);
    const exported = await exportFile(t);
    expect(exported.skipped).toEqual([]);
    await expectValid(exported.xml!, '09');
    const file = read(exported.xml!);
    expect(file.namespace).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(file.debtor).toEqual({
      Nm: 'Sample Operator Ltd',
      PstlAdr: { StrtNm: 'Chausseestrasse', BldgNb: '1', PstCd: '10115', TwnNm: 'Berlin', Ctry: 'DE' },
    });
    const ids = await Promise.all([gb, ch, yulia, corrected].map((o) => payoutOf(t, o.reference)));
    expect(
      file.transfers
        .filter((tx) => ids.map(e2e).includes(tx.e2e))
        .map(({ e2e: id, name, iban }) => ({ id, name, iban }))
        .sort((a, b) => a.iban.localeCompare(b.iban)),
    ).toEqual(
      [
        { id: e2e(ids[0]!), name: 'Oliver Smith', iban: 'GB82WEST12345698765432' },
        { id: e2e(ids[1]!), name: 'Urs Muller', iban: 'CH9300762011623852957' },
        { id: e2e(ids[2]!), name: 'Yuliya Kovalenko', iban: 'DE02120300000000202051' },
        { id: e2e(ids[3]!), name: 'Yulia Kovalenko', iban: 'FR1420041010050500013M02606' },
      ].sort((a, b) => a.iban.localeCompare(b.iban)),
    );
    // The audit trail says which message the file was.
    const [audit] = (
      (await t.database.db.execute(
        sql`select after from audit_log where action = 'bank.payouts_exported' order by id desc limit 1`,
      )) as unknown as { rows: { after: { format: string } }[] }
    ).rows;
    expect(audit!.after.format).toBe('pain.001.001.09');
  });

  it("an order that names Muntly's IBAN from before the rule stays out of the file, listed for the operator", async () => {
    const order = await placed(t, { address: 'NL91ABNA0417164300', beneficiary: 'Olga Older' });
    await t.database.db.execute(sql`update orders set address = ${MUNTLY_IBAN} where reference = ${order.reference}`);
    await settle(t, [order]);
    const id = await payoutOf(t, order.reference);
    const exported = await exportFile(t);
    expect(exported.skipped).toContainEqual({ payoutId: id, reason: 'muntly_iban' });
    if (exported.xml) expect(exported.xml).not.toContain(`<IBAN>${MUNTLY_IBAN}</IBAN></Id></CdtrAcct>`);
  });

  it('the .03 file (BANK_PAIN_VERSION=03): the EEA payees in it, valid for .03; a GB or CH payee waits for a .09 file, which .03 cannot give a structured address', async () => {
    const de = await placed(old, { address: 'DE02120300000000202051', beneficiary: 'Юлия Коваленко' });
    const gb = await placed(old, { address: 'GB82WEST12345698765432', beneficiary: 'Oliver Smith' });
    const ch = await placed(old, { address: 'CH9300762011623852957', beneficiary: 'Urs Keller' });
    await settle(old, [de, gb, ch]);
    const exported = await exportFile(old);
    await expectValid(exported.xml!, '03');
    const file = read(exported.xml!);
    expect(file.debtor).toEqual({
      Nm: 'Sample Operator Ltd',
      PstlAdr: { Ctry: 'DE', AdrLine: ['Chausseestrasse 1', '10115 Berlin'] },
    });
    expect(file.transfers.map(({ name, iban }) => ({ name, iban }))).toEqual([
      { name: 'Yuliya Kovalenko', iban: 'DE02120300000000202051' },
    ]);
    expect(exported.skipped.sort((a, b) => a.payoutId.localeCompare(b.payoutId))).toEqual(
      [
        { payoutId: await payoutOf(old, gb.reference), reason: 'payer_address_unstructured' },
        { payoutId: await payoutOf(old, ch.reference), reason: 'payer_address_unstructured' },
      ].sort((a, b) => a.payoutId.localeCompare(b.payoutId)),
    );
  });
});
