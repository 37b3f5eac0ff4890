/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { readCamt053 } from '../src/modules/bank/camt';
import { processOrders } from '../src/modules/orders/settlement';
import { databaseKinds, fixedRates, testApp, testUser, type TestApp, type TestUser } from './helpers';
import type {
  BankPayment,
  ExportPayoutsResponse,
  ImportStatementResponse,
  PayoutReturnsAwaitingResponse,
} from '#domain/contracts/bank';
import type { OutboxResponse } from '#domain/contracts/ops';
import type { Order } from '#domain/contracts/orders';
import type { Payout } from '#domain/contracts/payouts';

/**
 * SEPA returns (server/src/modules/bank/returns.ts): a payout the payee's bank sends back arrives
 * as a credit with return information; it is booked against its payout once (the payout
 * `returned`, the money owed to the customer in the `returns` account), the customer reads the
 * bank's reason in their language and gives another IBAN — logged in, or through the emailed
 * link — and a new payout goes out in the next pain.001 file. The statements are in real bank
 * layout (fixtures/iso20022/camt053-return.xml, .001.02; camt053-v08-return.xml, .001.08),
 * checked against the official schemas.
 */
const FIXTURES = path.join(__dirname, 'fixtures/iso20022');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const RETURN_V02 = fixture('camt053-return.xml');
const RETURN_V08 = fixture('camt053-v08-return.xml');

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`no value for {{${key}}}`);
    return values[key]!;
  });
}

async function schemaErrors(xml: string, xsd: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'file.xml', contents: xml }],
    schema: [{ fileName: xsd, contents: fixture(xsd) }],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const SAMPLE_V02 = {
  STATEMENT_ID: '2026-11-27-0001',
  PAYOUT_AMOUNT: '79.20',
  DEBIT_REF: '2026112500007',
  PAYOUT_E2E: '0123456789abcdef0123456789abcdef',
  RETURN_AMOUNT: '79.20',
  RETURN_REF: '2026112700003',
  RETURN_E2E: '0123456789abcdef0123456789abcdef',
  REASON: 'AC04',
  REMITTANCE: 'ABCD-EFGH',
};
const SAMPLE_V08 = {
  RETURN_AMOUNT: '39.60',
  RETURN_REF: '2026112700101',
  RETURN_E2E: '0123456789abcdef0123456789abcdef',
  REASON: 'AC06',
};

const painReader = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => name === 'CdtTrfTxInf',
});
type WrittenTransfer = {
  PmtId: { EndToEndId: string };
  Amt: { InstdAmt: { '#text': string } };
  Cdtr: { Nm: string };
  CdtrAcct: { Id: { IBAN: string } };
};
const transfersOf = (xml: string) =>
  (painReader.parse(xml).Document.CstmrCdtTrfInitn.PmtInf.CdtTrfTxInf as WrittenTransfer[]).map((tx) => ({
    e2e: tx.PmtId.EndToEndId,
    amount: tx.Amt.InstdAmt['#text'],
    name: tx.Cdtr.Nm,
    iban: tx.CdtrAcct.Id.IBAN,
  }));

it('the return statements are camt.053 as the official schemas define it, and read as returns with their reason and end-to-end id', async () => {
  const v02 = fill(RETURN_V02, SAMPLE_V02);
  const v08 = fill(RETURN_V08, SAMPLE_V08);
  expect(await schemaErrors(v02, 'camt.053.001.02.xsd')).toEqual([]);
  expect(await schemaErrors(v08, 'camt.053.001.08.xsd')).toEqual([]);
  // A reason code is at most four characters of the ISO code list's form: the check says so.
  expect(
    (await schemaErrors(fill(RETURN_V02, { ...SAMPLE_V02, REASON: 'ACCOUNT CLOSED' }), 'camt.053.001.02.xsd')).join(),
  ).toMatch(/Cd/);

  const [debit, credit] = readCamt053(v02).statements[0]!.lines;
  expect(debit).toMatchObject({ direction: 'debit', returned: null });
  expect(credit).toMatchObject({
    direction: 'credit',
    amount: 7920n,
    endToEndId: SAMPLE_V02.RETURN_E2E,
    partyIban: 'BE68539007547034',
    returned: { reason: 'AC04', additional: 'KONTO AUFGELOEST' },
  });
  expect(readCamt053(v08).statements[0]!.lines[0]).toMatchObject({
    direction: 'credit',
    amount: 3960n,
    returned: { reason: 'AC06', additional: "Account blocked by the account holder's bank" },
  });
  // A bank that sends no RtrInf but the return's transaction code: still a return, without a reason.
  const codeOnly = v08.replace(/<RtrInf>[\s\S]*<\/RtrInf>/, '');
  expect(readCamt053(codeOnly).statements[0]!.lines[0]!.returned).toEqual({ reason: null, additional: null });
  // An ordinary credit is no return.
  expect(
    readCamt053(codeOnly.replace('<SubFmlyCd>RRTN</SubFmlyCd>', '<SubFmlyCd>ESCT</SubFmlyCd>')).statements[0]!.lines[0]!
      .returned,
  ).toBeNull();
});

describe.each(databaseKinds())('SEPA returns (%s)', (kind) => {
  let t: TestApp;
  const rates = fixedRates();
  beforeAll(async () => {
    // The link's routes share the lookups' limit per client: enough for this suite, which tries it at the end.
    t = await testApp(kind, { LOOKUP_LIMIT_PER_MINUTE: '25' }, { rates });
  }, 120_000);
  afterAll(() => t?.close());

  const json = <T>(res: { json(): unknown }) => res.json() as T;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const place = async (payload: object, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/orders', headers, payload });
    if (res.statusCode >= 300) throw new Error(`placing an order: ${res.body}`);
    return res.json() as { reference: string; shortReference: string; receiving: { address: string } | null };
  };
  const importStatement = async (xml: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/bank/statements',
      headers: { ...t.admin, 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as ImportStatementResponse;
  };
  const exportPayouts = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/bank/payouts-export', headers: t.admin });
    expect(res.statusCode).toBe(200);
    return res.json() as ExportPayoutsResponse;
  };
  const payout = async (id: string) =>
    json<{ payouts: Payout[] }>(
      await t.app.inject({ url: '/api/ops/payouts?rail=bank&limit=500', headers: t.admin }),
    ).payouts.find((p) => p.id === id)!;
  const payoutOf = async (reference: string) =>
    (
      await rows<{ id: string }>(
        sql`select p.id from payouts p join orders o on o.id = p.order_id where o.reference = ${reference} order by p.created_at`,
      )
    ).map((r) => r.id);
  const unmatched = async () =>
    json<{ payments: BankPayment[] }>(
      await t.app.inject({ url: '/api/ops/bank/unmatched?status=open', headers: t.admin }),
    ).payments;
  const mails = async (to: string) =>
    json<OutboxResponse>(await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: t.admin }))
      .messages;
  const ledgerHolds = async () => {
    const verified = json<{ ok: boolean; checks: { name: string; ok: boolean; problems: string[] }[] }>(
      await t.app.inject({ url: '/api/ops/ledger/verify', headers: t.admin }),
    );
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
  };
  const returnsBalance = async () =>
    (
      await rows<{ balance: string }>(
        sql`select balance::text as balance from ledger_accounts where system_code = 'returns' and currency = 'EUR'`,
      )
    )[0]?.balance ?? '0';
  const transfersNamed = async (prefix: string) =>
    rows<{ id: string; amount: string }>(
      sql`select id, amount::text as amount from ledger_transfers where id like ${`${prefix}%`} order by id`,
    );
  const e2eOf = (payoutId: string) => payoutId.replace(/-/g, '');
  const newIban = (reference: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/orders/${reference}/new-iban`, headers, payload });
  const awaiting = async () =>
    json<PayoutReturnsAwaitingResponse>(await t.app.inject({ url: '/api/ops/bank/returns', headers: t.admin })).returns;

  /** A sell of BTC for euros to `iban`, paid in, converted, and its payout exported in a pain.001 file (submitted). */
  async function soldAndExported(input: {
    email: string;
    iban: string;
    amount: string;
    headers?: Record<string, string>;
  }) {
    const sell = await place(
      {
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: input.amount,
        email: input.email,
        address: input.iban,
        beneficiary: 'Ada Lovelace',
      },
      input.headers,
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: t.admin,
      payload: { currency: 'BTC', address: sell.receiving!.address, amount: input.amount },
    });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    const [id] = await payoutOf(sell.reference);
    const exported = await exportPayouts();
    expect(transfersOf(exported.xml!).map((tx) => tx.e2e)).toContain(e2eOf(id!));
    expect((await payout(id!)).status).toBe('submitted');
    return { ...sell, payoutId: id!, amount: (await payout(id!)).amount };
  }

  let seller: TestUser;
  let sold: Awaited<ReturnType<typeof soldAndExported>>;

  it('a payout the bank paid and the payee’s bank returned (AC04): returned once — imported twice at once, and again — the money owed again, the customer told why in their language', async () => {
    seller = await testUser(t, `return-seller-${kind}@muntly.test`, { verified: [], address: false });
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/enable',
      headers: t.admin,
      payload: { email: seller.email, kind: 'bank' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/identity/bank',
      headers: seller.headers,
      payload: { iban: 'BE68 5390 0754 7034', beneficiary: 'Sophie Martin-Lefèvre' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/verify',
      headers: t.admin,
      payload: { email: seller.email, kind: 'bank' },
    });
    sold = await soldAndExported({
      email: seller.email,
      iban: 'BE68539007547034',
      amount: '0.001',
      headers: seller.headers,
    });
    const xml = fill(RETURN_V02, {
      ...SAMPLE_V02,
      STATEMENT_ID: `returns-${kind}`,
      PAYOUT_AMOUNT: sold.amount,
      DEBIT_REF: `D-${kind}-1`,
      PAYOUT_E2E: e2eOf(sold.payoutId),
      RETURN_AMOUNT: sold.amount,
      RETURN_REF: `R-${kind}-1`,
      RETURN_E2E: e2eOf(sold.payoutId),
      REMITTANCE: sold.shortReference,
    });
    expect(await schemaErrors(xml, 'camt.053.001.02.xsd')).toEqual([]);

    const both = await Promise.all([importStatement(xml), importStatement(xml)]);
    const again = await importStatement(xml);
    const outcomes = [...both, again].map((r) => r.lines.map((l) => l.outcome).join(','));
    // The debit completed it, then the return returned it — in one of the imports only.
    expect(outcomes.filter((o) => o === 'payout_completed,payout_returned')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate,duplicate')).toHaveLength(2);
    const booked = [...both, again].find((r) => r.lines[1]!.outcome === 'payout_returned')!;
    expect(booked.lines[1]).toMatchObject({ reference: sold.payoutId, reason: 'AC04' });

    expect(await payout(sold.payoutId)).toMatchObject({
      status: 'returned',
      failureReason: expect.stringContaining('AC04'),
    });
    // Once in the ledger: from the bank into the returns account, where the customer is owed it.
    expect(await transfersNamed(`payout-returned:${sold.payoutId}`)).toEqual([
      { id: `payout-returned:${sold.payoutId}`, amount: sold.amount.replace('.', '').replace(/^0+/, '') },
    ]);
    expect(await returnsBalance()).toBe(sold.amount.replace('.', '').replace(/^0+/, ''));
    await ledgerHolds();
    // The same return under another bank reference (a bank whose camt.054 and camt.053 name it
    // differently): the payout is returned already, so it waits for an operator, booking nothing.
    const twice = fill(RETURN_V02, {
      ...SAMPLE_V02,
      STATEMENT_ID: `returns-${kind}-b`,
      PAYOUT_AMOUNT: '1.00',
      DEBIT_REF: `D-${kind}-1b`,
      PAYOUT_E2E: 'NOTPROVIDED',
      RETURN_AMOUNT: sold.amount,
      RETURN_REF: `R-${kind}-1b`,
      RETURN_E2E: e2eOf(sold.payoutId),
      REMITTANCE: sold.shortReference,
    });
    expect((await importStatement(twice)).lines[1]).toMatchObject({
      outcome: 'unmatched',
      reason: 'return_already_booked',
    });
    expect(await transfersNamed(`payout-returned:${sold.payoutId}`)).toHaveLength(1);
    // The statement's payment is booked as the return, not waiting in the unmatched queue.
    expect((await unmatched()).filter((p) => p.entryRef === `R-${kind}-1`)).toEqual([]);
    expect((await unmatched()).find((p) => p.entryRef === `R-${kind}-1b`)).toMatchObject({
      unmatchedReason: 'return_already_booked',
      returned: { reason: 'AC04' },
    });

    // The order page shows it, with the bank's code for the site to put into words.
    const mine = json<{ orders: Order[] }>(
      await t.app.inject({ url: '/api/me/orders', headers: seller.headers }),
    ).orders.find((o) => o.reference === sold.reference)!;
    expect(mine.status).toBe('completed_success');
    expect(mine.payoutReturn).toMatchObject({
      reason: 'AC04',
      amount: sold.amount,
      iban: 'BE68539007547034',
      state: 'awaiting_iban',
      newIban: null,
    });
    // The email, in the order's language, says why in plain words; an account holder gives the IBAN on the order page.
    const [mail] = (await mails(seller.email)).filter((m) => m.subject.includes('came back'));
    expect(mail!.body).toContain('The account is closed.');
    expect(mail!.body).toContain('sign in, open the order');
    expect(mail!.body).not.toContain('newIban=');
    expect(await awaiting()).toContainEqual(
      expect.objectContaining({ orderReference: sold.reference, reason: 'AC04', anonymous: false }),
    );
  });

  it('the account holder gives another IBAN on the order page: not the returned one, not Muntly’s, not for someone else’s order; a new payout goes out in the next file, once, and completes', async () => {
    expect(
      json<{ error: { code: string } }>(await newIban(sold.reference, { iban: 'BE68 5390 0754 7034' }, seller.headers))
        .error.code,
    ).toBe('iban_returned');
    expect(
      json<{ error: { code: string } }>(
        await newIban(sold.reference, { iban: 'de89 3704 0044 0532 0130 00' }, seller.headers),
      ).error.code,
    ).toBe('muntly_iban');
    expect(
      json<{ error: { code: string } }>(
        await newIban(sold.reference, { iban: 'DE89370400440532013001' }, seller.headers),
      ).error.code,
    ).toBe('invalid_iban');
    const stranger = await testUser(t, `return-stranger-${kind}@muntly.test`, { address: false });
    expect((await newIban(sold.reference, { iban: 'FR1420041010050500013M02606' }, stranger.headers)).statusCode).toBe(
      404,
    );
    expect((await newIban(sold.reference, { iban: 'FR1420041010050500013M02606' })).statusCode).toBe(401);

    // Twice at once: one new payout.
    const answers = await Promise.all(
      [0, 1].map(() =>
        newIban(
          sold.reference,
          { iban: 'FR14 2004 1010 0505 0001 3M02 606', holderName: 'Sophie Martin' },
          seller.headers,
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const order = json<Order>(answers.find((a) => a.statusCode === 200)!);
    expect(order.payoutReturn).toMatchObject({ state: 'new_payout_pending', newIban: 'FR1420041010050500013M02606' });
    const [, reissued] = await payoutOf(sold.reference);
    expect(await payout(reissued!)).toMatchObject({
      status: 'pending',
      amount: sold.amount,
      destination: 'FR1420041010050500013M02606',
    });
    expect(await returnsBalance()).toBe('0');
    expect(await awaiting()).not.toContainEqual(expect.objectContaining({ orderReference: sold.reference }));

    const exported = await exportPayouts();
    expect(await schemaErrors(exported.xml!, 'pain.001.001.09.xsd')).toEqual([]);
    expect(transfersOf(exported.xml!)).toEqual([
      { e2e: e2eOf(reissued!), amount: sold.amount, name: 'Sophie Martin', iban: 'FR1420041010050500013M02606' },
    ]);
    // The bank pays it: the statement's debit completes it.
    const debit = fill(RETURN_V02, {
      ...SAMPLE_V02,
      STATEMENT_ID: `returns-${kind}-2`,
      PAYOUT_AMOUNT: sold.amount,
      DEBIT_REF: `D-${kind}-2`,
      PAYOUT_E2E: e2eOf(reissued!),
      RETURN_REF: `R-${kind}-2`,
      RETURN_E2E: 'NOTPROVIDED',
      REMITTANCE: 'x',
    });
    const result = await importStatement(debit);
    expect(result.lines[0]).toMatchObject({ outcome: 'payout_completed', reference: reissued });
    const mine = json<{ orders: Order[] }>(
      await t.app.inject({ url: '/api/me/orders', headers: seller.headers }),
    ).orders.find((o) => o.reference === sold.reference)!;
    expect(mine.payoutReturn).toMatchObject({ state: 'new_payout_completed', newIban: 'FR1420041010050500013M02606' });
    expect(
      json<{ error: { code: string } }>(
        await newIban(sold.reference, { iban: 'ES9121000418450200051332' }, seller.headers),
      ).error.code,
    ).toBe('payout_return_not_waiting');
    await ledgerHolds();
  });

  it('returns that do not fit wait in the unmatched queue marked as returns, and are never refunded to the IBAN they came from', async () => {
    const anonymous = await soldAndExported({
      email: `return-anonymous-${kind}@muntly.test`,
      iban: 'NL91ABNA0417164300',
      amount: '0.0005',
      headers: { 'accept-language': 'de' },
    });
    const more = (Number(anonymous.amount.replace('.', '')) + 1).toString();
    const larger = fill(RETURN_V08, {
      ...SAMPLE_V08,
      RETURN_AMOUNT: `${more.slice(0, -2)}.${more.slice(-2)}`,
      RETURN_REF: `L-${kind}`,
      RETURN_E2E: e2eOf(anonymous.payoutId),
    });
    const unknown = fill(RETURN_V08, {
      ...SAMPLE_V08,
      RETURN_REF: `U-${kind}`,
      RETURN_E2E: 'ffffffffffffffffffffffffffffffff',
    });
    expect(await schemaErrors(larger, 'camt.053.001.08.xsd')).toEqual([]);
    expect((await importStatement(larger)).lines[0]).toMatchObject({
      outcome: 'unmatched',
      reason: 'return_amount_differs',
    });
    expect((await importStatement(unknown)).lines[0]).toMatchObject({
      outcome: 'unmatched',
      reason: 'return_unknown_payout',
    });
    expect((await payout(anonymous.payoutId)).status).toBe('submitted');
    const queue = await unmatched();
    for (const ref of [`L-${kind}`, `U-${kind}`]) {
      const payment = queue.find((p) => p.entryRef === ref)!;
      expect(payment.returned).toEqual({ reason: 'AC06', info: "Account blocked by the account holder's bank" });
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/ops/bank/unmatched/${payment.id}/refund`,
        headers: t.admin,
      });
      expect(refused.statusCode).toBe(409);
      expect(json<{ error: { code: string } }>(refused).error.code).toBe('bank_payment_is_return');
    }
    await ledgerHolds();
  });

  let anonymousSale: Awaited<ReturnType<typeof soldAndExported>>;
  let link: string;

  it('a return of a payout not yet seen debited (camt.053.001.08): completed, then returned; the anonymous seller is emailed, in German, a link', async () => {
    anonymousSale = await soldAndExported({
      email: `return-link-${kind}@muntly.test`,
      iban: 'NL91ABNA0417164300',
      amount: '0.0005',
      headers: { 'accept-language': 'de' },
    });
    const xml = fill(RETURN_V08, {
      ...SAMPLE_V08,
      RETURN_AMOUNT: anonymousSale.amount,
      RETURN_REF: `A-${kind}`,
      RETURN_E2E: e2eOf(anonymousSale.payoutId).toUpperCase(),
    });
    expect((await importStatement(xml)).lines[0]).toMatchObject({
      outcome: 'payout_returned',
      reference: anonymousSale.payoutId,
      reason: 'AC06',
    });
    expect(await payout(anonymousSale.payoutId)).toMatchObject({ status: 'returned', txid: `bank-return:A-${kind}` });
    // The debit, reported after the return: nothing more is booked.
    const debit = fill(RETURN_V02, {
      ...SAMPLE_V02,
      STATEMENT_ID: `late-${kind}`,
      PAYOUT_AMOUNT: anonymousSale.amount,
      DEBIT_REF: `LD-${kind}`,
      PAYOUT_E2E: e2eOf(anonymousSale.payoutId),
      RETURN_REF: `LR-${kind}`,
      RETURN_E2E: 'NOTPROVIDED',
    });
    expect((await importStatement(debit)).lines[0]).toMatchObject({ outcome: 'duplicate', reason: 'payout_returned' });
    await ledgerHolds();

    const [mail] = (await mails(`return-link-${kind}@muntly.test`)).filter((m) => m.subject.includes('Auszahlung kam'));
    expect(mail!.body).toContain('Das Konto ist gesperrt.');
    link = /(https?:\/\/\S*newIban=\S+)/.exec(mail!.body)![1]!;
    expect(new URL(link).pathname).toBe('/de/exchange/order-history/');
    expect(await awaiting()).toContainEqual(
      expect.objectContaining({ orderReference: anonymousSale.reference, anonymous: true }),
    );
  });

  it('the link: checked, for its own order only, expiring, used once; it opens the order and takes a new IBAN with the holder’s name', async () => {
    let token = new URL(link).searchParams.get('newIban')!;
    const open = (value: string) =>
      t.app.inject({ method: 'POST', url: '/api/orders/return-link', payload: { token: value } });
    const code = (res: { json(): unknown }) => json<{ error: { code: string } }>(res).error.code;
    const opened = json<Order>(await open(token));
    expect(opened).toMatchObject({
      reference: anonymousSale.reference,
      payoutReturn: { state: 'awaiting_iban', reason: 'AC06' },
    });
    // Tampered with: one character changed in the MAC, in the nonce, or a made-up one.
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect(code(await open(flip(token, token.length - 2)))).toBe('link_invalid');
    expect(code(await open(flip(token, 30)))).toBe('link_invalid');
    expect(code(await open('nonsense'))).toBe('link_invalid');
    // For another order: refused.
    expect(
      code(await newIban(sold.reference, { token, iban: 'ES9121000418450200051332', holderName: 'Jan de Vries' })),
    ).toBe('link_invalid');
    // The name is required with a link.
    expect(code(await newIban(anonymousSale.reference, { token, iban: 'ES9121000418450200051332' }))).toBe(
      'validation_failed',
    );
    // Expired: refused, with its own message.
    await t.database.db.execute(
      sql`update payout_returns set link_expires_at = now() - interval '1 minute' where order_id = (select id from orders where reference = ${anonymousSale.reference})`,
    );
    expect(
      code(
        await newIban(anonymousSale.reference, { token, iban: 'ES9121000418450200051332', holderName: 'Jan de Vries' }),
      ),
    ).toBe('return_link_expired');
    // The operator mails a new link (npm run ops -- return-link): it works, the old one no more.
    const waiting = await awaiting();
    const resend = (reference: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/ops/bank/returns/${waiting.find((r) => r.orderReference === reference)?.id ?? 'x'}/link`,
        headers: t.admin,
      });
    expect((await resend(anonymousSale.reference)).statusCode).toBe(200);
    expect(code(await open(token))).toBe('link_invalid');
    const [newest] = (await mails(`return-link-${kind}@muntly.test`)).filter((m) =>
      m.subject.includes('Auszahlung kam'),
    );
    token = new URL(/(https?:\/\/\S*newIban=\S+)/.exec(newest!.body)![1]!).searchParams.get('newIban')!;
    expect(json<Order>(await open(token)).reference).toBe(anonymousSale.reference);

    const given = await newIban(anonymousSale.reference.toLowerCase(), {
      token,
      iban: 'ES91 2100 0418 4502 0005 1332',
      holderName: '  Jan   de Vries ',
    });
    expect(given.statusCode).toBe(200);
    expect(json<Order>(given).payoutReturn).toMatchObject({
      state: 'new_payout_pending',
      newIban: 'ES9121000418450200051332',
    });
    // Used: the link works no more.
    expect(
      code(
        await newIban(anonymousSale.reference, {
          token,
          iban: 'FR1420041010050500013M02606',
          holderName: 'Jan de Vries',
        }),
      ),
    ).toBe('link_used');
    expect(code(await open(token))).toBe('link_used');
    // Nothing waits any more: no new link either.
    expect(code(await resend(anonymousSale.reference))).toBe('payout_return_not_waiting');

    const [, reissued] = await payoutOf(anonymousSale.reference);
    const exported = await exportPayouts();
    expect(transfersOf(exported.xml!)).toEqual([
      { e2e: e2eOf(reissued!), amount: anonymousSale.amount, name: 'Jan de Vries', iban: 'ES9121000418450200051332' },
    ]);
    await ledgerHolds();
  });

  it('the link routes are rate-limited per client: guessing tokens ends in try_again_soon', async () => {
    const answers = [];
    for (let i = 0; i < 30; i++)
      answers.push(
        (await t.app.inject({ method: 'POST', url: '/api/orders/return-link', payload: { token: `guess-${i}` } }))
          .statusCode,
      );
    expect(answers).toContain(400);
    expect(answers.at(-1)).toBe(429);
  });
});
