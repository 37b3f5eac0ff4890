/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import { systemAccount, transfer, userAccount } from '../src/modules/ledger/service';
import { processOrders } from '../src/modules/orders/settlement';
import { ERASED_IBAN, ERASED_NAME, pseudonymizePain } from '../src/modules/retention/pseudonymize';
import { applyRetention } from '../src/modules/retention/service';
import {
  ageSentCodes,
  ONE_TIME_CODE,
  testApp,
  fixedRates,
  databaseKinds,
  loggedIn,
  opsCliOutput,
  type TestApp,
} from './helpers';
import type { IdentityResponse } from '#domain/contracts/identity';

/**
 * The privacy and AML policies' retention promises: identity data and the personal fields of the
 * money records five years after the END of the business relationship (an active customer keeps
 * theirs), support messages after two years. Every run takes its clock as an argument.
 */
const rates = fixedRates();
const DAY = 86_400_000;
const yearsAfter = (from: Date, years: number, days = 0) => {
  const date = new Date(from);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return new Date(date.getTime() + days * DAY);
};
const yearsFromNow = (years: number, days = 0) => yearsAfter(new Date(), years, days);
const FIXTURES = path.join(__dirname, 'fixtures/iso20022');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
/** What xmllint says about a document against the official schema: no messages, valid. */
async function schemaErrors(xml: string, xsd: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'file.xml', contents: xml }],
    schema: [{ fileName: xsd, contents: fixture(xsd) }],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

describe.each(databaseKinds())('retention (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let address = 0;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
    admin = t.admin;
  }, 120_000);
  afterAll(() => t.close());

  const user = (email: string) => loggedIn(t, email);
  const view = async (headers: Record<string, string>, k: string) =>
    ((await t.app.inject({ url: '/api/identity', headers })).json() as IdentityResponse).kinds.find(
      (x) => x.kind === k,
    )!;
  const enable = (email: string, k: string) =>
    t.app.inject({ method: 'POST', url: '/api/ops/verification/enable', headers: admin, payload: { email, kind: k } });
  const submit = (headers: Record<string, string>, k: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/identity/${k}`, headers, payload });
  const confirm = (headers: Record<string, string>, k: string, code: string) =>
    t.app.inject({ method: 'POST', url: `/api/identity/${k}/confirm`, headers, payload: { code } });
  const lastBody = async (to: string) =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: admin })).json().messages[0]
      .body as string;
  const outboxCount = async (recipient: string) =>
    Number(
      (
        (await t.app.db.execute(
          sql`select count(*) as n from outbox where lower(recipient) = lower(${recipient})`,
        )) as unknown as { rows: { n: string }[] }
      ).rows[0]!.n,
    );
  const auditCount = async (action: string) =>
    Number(
      (
        (await t.app.db.execute(sql`select count(*) as n from audit_log where action = ${action}`)) as unknown as {
          rows: { n: string }[];
        }
      ).rows[0]!.n,
    );
  const support = (email: string, orderReference = '') =>
    t.app.inject({
      method: 'POST',
      url: '/api/support',
      remoteAddress: `10.1.0.${++address}`,
      payload: {
        name: 'Anna',
        email,
        topic: 'order',
        message: 'Where is my order? It has been two days already.',
        orderReference,
      },
    });

  it('keeps verified identity data until its retention date, then deletes it; the account stays verified and the deletion is audited', async () => {
    const u = await user('kept@muntly.test');
    await enable('kept@muntly.test', 'mobile');
    await submit(u, 'mobile', { mobile: '+31 6 44444444' });
    expect((await confirm(u, 'mobile', ONE_TIME_CODE.exec(await lastBody('+31644444444'))![0])).statusCode).toBe(200);
    const verified = await view(u, 'mobile');
    expect(verified).toMatchObject({ phase: 'verified', data: { mobile: '+31644444444' }, dataDeletedAt: null });
    // Five years after the verification, to the day.
    expect(new Date(verified.retainUntil!).getTime()).toBeGreaterThan(yearsFromNow(5, -1).getTime());

    expect((await applyRetention(t.app.db, yearsFromNow(5, -1))).identityDataDeleted).toBe(0);
    expect((await view(u, 'mobile')).data).toEqual({ mobile: '+31644444444' });

    const afterRetention = yearsFromNow(5, 1);
    expect(await outboxCount('+31644444444')).toBe(1);
    expect((await applyRetention(t.app.db, afterRetention)).identityDataDeleted).toBeGreaterThanOrEqual(1);
    // The SMS that carried the number goes with it.
    expect(await outboxCount('+31644444444')).toBe(0);
    expect(await view(u, 'mobile')).toMatchObject({
      phase: 'verified',
      verifiedAt: verified.verifiedAt,
      data: null,
      retainUntil: null,
      dataDeletedAt: afterRetention.toISOString(),
    });
    const audited = await auditCount('identity.data_deleted');
    expect(audited).toBeGreaterThanOrEqual(1);

    // A second run, or another replica's, finds nothing left to delete.
    expect((await applyRetention(t.app.db, afterRetention)).identityDataDeleted).toBe(0);
    expect(await auditCount('identity.data_deleted')).toBe(audited);
  });

  it('sends a verification still waiting for its code back to step 1: the old code dies, new details can be sent', async () => {
    const u = await user('waiting@muntly.test');
    await enable('waiting@muntly.test', 'mobile');
    await submit(u, 'mobile', { mobile: '+31 6 55555555' });
    const code = ONE_TIME_CODE.exec(await lastBody('+31655555555'))![0];

    await applyRetention(t.app.db, yearsFromNow(5, 1));
    expect(await view(u, 'mobile')).toMatchObject({ phase: 'step_1', data: null });
    const refused = await confirm(u, 'mobile', code);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('no_code_pending');

    await ageSentCodes(t, 61_000); // a new code only after a minute
    expect((await submit(u, 'mobile', { mobile: '+31 6 55555555' })).statusCode).toBe(200);
    expect(await view(u, 'mobile')).toMatchObject({
      phase: 'step_2',
      data: { mobile: '+31655555555' },
      dataDeletedAt: null,
    });
  });

  it('deletes support messages and their confirmations after two years; those about an order are kept with its records (five years)', async () => {
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '50',
        email: 'customer@muntly.test',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    expect(placed.statusCode).toBe(201);
    expect((await support('plain@muntly.test')).statusCode).toBe(201);
    expect((await support('customer@muntly.test', placed.json().reference)).statusCode).toBe(201);
    expect((await support('unknown-order@muntly.test', 'AAAA-BBBB-CCCC-DDDD')).statusCode).toBe(201);
    const supportMailbox = await outboxCount('support@muntly.example');

    expect((await applyRetention(t.app.db, yearsFromNow(2, -1))).messagesDeleted).toBe(0);
    // Two years on: the plain request and the one naming no real order go, each with its confirmation.
    expect((await applyRetention(t.app.db, yearsFromNow(2, 1))).messagesDeleted).toBe(4);
    expect(await outboxCount('plain@muntly.test')).toBe(0);
    expect(await outboxCount('unknown-order@muntly.test')).toBe(0);
    expect(await outboxCount('support@muntly.example')).toBe(supportMailbox - 2);
    // The customer's order confirmation and their support request about it stay.
    expect(await outboxCount('customer@muntly.test')).toBe(2);

    // (Verification messages of the tests before may go in the same run: they live five years too.)
    expect((await applyRetention(t.app.db, yearsFromNow(5, 1))).messagesDeleted).toBeGreaterThanOrEqual(2);
    // The order's own confirmation email belongs to the AML records and has no end date here.
    expect(await outboxCount('customer@muntly.test')).toBe(1);
    expect(await outboxCount('support@muntly.example')).toBe(supportMailbox - 3);
  });

  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await t.app.db.execute(query)) as unknown as { rows: T[] }).rows;
  const accountIdOf = async (email: string) =>
    (await rows<{ id: string }>(sql`select id from accounts where subject = ${`auth0|${email}`}`))[0]!.id;
  const ledgerOk = async () =>
    (await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json().ok as boolean;
  const auditOk = async () =>
    (await t.app.inject({ url: '/api/ops/audit/verify', headers: admin })).json().ok as boolean;

  /** A customer whose verified mobile number was last changed six years ago (the clock moved back by SQL, as if it had been). */
  const customerVerifiedSixYearsAgo = async (email: string, mobile: string) => {
    const u = await user(email);
    await enable(email, 'mobile');
    await submit(u, 'mobile', { mobile });
    expect(
      (await confirm(u, 'mobile', ONE_TIME_CODE.exec(await lastBody(mobile.replace(/ /g, '')))![0])).statusCode,
    ).toBe(200);
    const id = await accountIdOf(email);
    await t.app.db.execute(sql`update accounts set created_at = now() - interval '6 years' where id = ${id}`);
    await t.app.db
      .execute(sql`update verifications set updated_at = now() - interval '6 years', verified_at = now() - interval '6 years',
      retain_until = now() - interval '1 year' where account_id = ${id} and kind = 'mobile'`);
    await t.app.db.execute(
      sql`update outbox set created_at = now() - interval '6 years', retain_until = now() - interval '1 year' where account_id = ${id}`,
    );
    return { headers: u, id };
  };
  /** A trade now: euros in and out of the customer's wallet (two ledger movements; the balance is zero again). */
  const tradeNow = (accountId: string, tag: string) =>
    t.app.db.transaction(async (tx) => {
      const mine = await userAccount(tx, accountId, 'EUR');
      const bank = await systemAccount(tx, 'bank', 'EUR');
      await transfer(tx, {
        id: `retention-in:${tag}`,
        currency: 'EUR',
        debitAccountId: bank.id,
        creditAccountId: mine.id,
        amount: 5000n,
        code: 'deposit',
      });
      await transfer(tx, {
        id: `retention-out:${tag}`,
        currency: 'EUR',
        debitAccountId: mine.id,
        creditAccountId: bank.id,
        amount: 5000n,
        code: 'send',
      });
    });

  it("keeps an active customer's identity data though it changed six years ago: they traded last month", async () => {
    const { headers, id } = await customerVerifiedSixYearsAgo('active@muntly.test', '+31 6 12121212');
    await tradeNow(id, 'active');
    // A month after the trade: the data's own date passed long ago, the relationship goes on.
    const run = await applyRetention(t.app.db, new Date(Date.now() + 30 * DAY));
    expect(await view(headers, 'mobile')).toMatchObject({
      phase: 'verified',
      data: { mobile: '+31612121212' },
      dataDeletedAt: null,
    });
    // The code message that carried the number stays with it.
    expect(await outboxCount('+31612121212')).toBe(1);
    expect(run.identityDataDeleted).toBe(0);
  });

  it('keeps the identity data of a customer who still holds money, however long ago they last acted', async () => {
    const { headers, id } = await customerVerifiedSixYearsAgo('holder@muntly.test', '+31 6 13131313');
    await t.app.db.transaction(async (tx) =>
      transfer(tx, {
        id: 'retention-held',
        currency: 'EUR',
        debitAccountId: (await systemAccount(tx, 'bank', 'EUR')).id,
        creditAccountId: (await userAccount(tx, id, 'EUR')).id,
        amount: 1n,
        code: 'deposit',
      }),
    );
    await applyRetention(t.app.db, yearsFromNow(30));
    expect((await view(headers, 'mobile')).data).toEqual({ mobile: '+31613131313' });
  });

  it('deletes the identity data of a customer inactive for five years and a day, not a day earlier; logins do not count', async () => {
    const { headers, id } = await customerVerifiedSixYearsAgo('dormant@muntly.test', '+31 6 14141414');
    // A send to an outside address, completed (its money already left: the balance is zero again).
    await t.app.db
      .execute(sql`insert into wallet_sends (owner_id, currency, address, amount, network_fee, label, status, code_hash, code_expires_at, completed_at)
      values (${id}, 'BTC', 'bc1qdormantxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 1000, 10, 'My old exchange', 'completed', 'x', now(), now())`);
    await tradeNow(id, 'dormant');
    const traded = new Date();
    // Signing in (and looking at the page) years later is not activity.
    await user('dormant@muntly.test');

    await applyRetention(t.app.db, yearsAfter(traded, 5, -1));
    expect((await view(headers, 'mobile')).data).toEqual({ mobile: '+31614141414' });
    expect(await rows(sql`select address, label from wallet_sends where owner_id = ${id}`)).toEqual([
      { address: 'bc1qdormantxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', label: 'My old exchange' },
    ]);
    expect(await outboxCount('+31614141414')).toBe(1);

    const later = yearsAfter(traded, 5, 1);
    expect((await applyRetention(t.app.db, later)).identityDataDeleted).toBeGreaterThanOrEqual(1);
    expect(await view(headers, 'mobile')).toMatchObject({
      phase: 'verified',
      data: null,
      dataDeletedAt: later.toISOString(),
    });
    // The address they sent to and its label go with it; the amount stays.
    expect(await rows(sql`select address, label, amount::text from wallet_sends where owner_id = ${id}`)).toEqual([
      { address: '', label: null, amount: '1000' },
    ]);
    expect(await outboxCount('+31614141414')).toBe(0);
    expect(await ledgerOk()).toBe(true);
  });

  it("erases an anonymous order's email and IBAN, its bank payment's payer and its payouts file's creditors five years and a day after it completed; amounts stay", async () => {
    // An anonymous sell paid out to an IBAN, its payout written into a payouts file.
    const sell = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: '0.001',
        email: 'Seller.Retained@muntly.test',
        address: 'NL91ABNA0417164300',
        beneficiary: 'Sanne de Vries',
      },
    });
    expect(sell.statusCode).toBe(201);
    const sold = sell.json() as { reference: string; receiving: { address: string } };
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: admin,
      payload: { currency: 'BTC', address: sold.receiving.address, amount: '0.001' },
    });
    await processOrders(t.app.db, { ...t.app.workers.settlement, rates });
    const exported = await t.app.inject({ method: 'POST', url: '/api/ops/bank/payouts-export', headers: admin });
    const file = exported.json().export as { id: string; payouts: number };
    expect(file).toMatchObject({ payouts: 1 });

    // An anonymous buy paid by a bank transfer that a camt.053 statement brought in, with the payer's name and IBAN.
    const buy = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '90',
        email: 'buyer.retained@muntly.test',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    const bought = buy.json() as { reference: string; shortReference: string };
    const statement = fixture('camt053-day.xml').replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, key: string) =>
      key === 'ORDER_A' ? bought.shortReference : key === 'DEPOSIT_ODD' ? 'deposit zzzz zzzz' : 'nothing here',
    );
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/bank/statements',
          headers: { ...admin, 'content-type': 'application/xml' },
          payload: statement,
        })
      ).statusCode,
    ).toBe(200);
    const [payment] = await rows<{ id: string; payer_name: string; amount: string }>(
      sql`select p.id, p.payer_name, p.amount::text from bank_payments p join orders o on o.id = p.order_id where o.reference = ${bought.reference}`,
    );
    expect(payment!.payer_name).toBe('Jürgen Müller');

    // Both orders complete (the payout confirmed by the bank, the buy's coins sent) at the same moment.
    await t.app.db.execute(
      sql`update payouts set status = 'completed', txid = coalesce(txid, 'bank'), completed_at = now() where bank_export_id = ${file.id}`,
    );
    await t.app.db.execute(
      sql`update orders set status = 'completed_success', completed_at = now() where reference in (${sold.reference}, ${bought.reference})`,
    );
    const completed = new Date();
    const orderRows = () =>
      rows<{
        reference: string;
        email: string;
        address: string | null;
        payer_key: string | null;
        beneficiary: string | null;
        amount: string;
        amount_received: string | null;
        fee: string;
        erased: Date | null;
      }>(
        sql`select reference, email, address, payer_key, beneficiary, amount::text, amount_received::text, fee::text, personal_data_erased_at as erased from orders where reference in (${sold.reference}, ${bought.reference}) order by reference`,
      );
    const fileXml = async () =>
      (
        await rows<{ xml: string; total: string }>(sql`select xml, total::text from bank_exports where id = ${file.id}`)
      )[0]!;
    const before = {
      orders: await orderRows(),
      file: await fileXml(),
      ledger: await rows<{ n: string; s: string }>(
        sql`select count(*)::text as n, sum(amount)::text as s from ledger_transfers`,
      ),
    };
    expect(before.file.xml).toContain('NL91ABNA0417164300');
    expect(before.file.xml).toContain('Sanne de Vries');
    expect(before.orders.find((o) => o.reference === sold.reference)!.beneficiary).toBe('Sanne de Vries');
    expect(await outboxCount('Seller.Retained@muntly.test')).toBeGreaterThanOrEqual(1);

    // A day early: nothing goes.
    await applyRetention(t.app.db, yearsAfter(completed, 5, -1));
    expect(await orderRows()).toEqual(before.orders);
    expect((await fileXml()).xml).toBe(before.file.xml);
    expect(
      (
        await rows<{ payer_iban: string | null }>(sql`select payer_iban from bank_payments where id = ${payment!.id}`)
      )[0]!.payer_iban,
    ).toBe('DE02120300000000202051');

    // Five years and a day after completion: the personal fields go, each once.
    const run = await applyRetention(t.app.db, yearsAfter(completed, 5, 1));
    expect(run.recordsErased.orders).toBeGreaterThanOrEqual(2);
    expect(run.recordsErased.payoutFiles).toBeGreaterThanOrEqual(1);
    const after = await orderRows();
    for (const [i, order] of after.entries()) {
      const was = before.orders[i]!;
      expect(order).toMatchObject({
        reference: was.reference,
        email: '',
        address: null,
        payer_key: null,
        beneficiary: null,
        amount: was.amount,
        amount_received: was.amount_received,
        fee: was.fee,
      });
      expect(order.erased).not.toBeNull();
    }
    // The emails about them went to the customer's address: they go too.
    expect(await outboxCount('Seller.Retained@muntly.test')).toBe(0);
    expect(await outboxCount('buyer.retained@muntly.test')).toBe(0);
    expect(
      (
        await rows<{ payer_name: string | null; payer_iban: string | null; remittance: string; amount: string }>(
          sql`select payer_name, payer_iban, remittance, amount::text from bank_payments where id = ${payment!.id}`,
        )
      )[0],
    ).toEqual({
      payer_name: null,
      payer_iban: null,
      remittance: '',
      amount: payment!.amount,
    });
    expect(
      (
        await rows<{ destination: string | null; amount: string }>(
          sql`select destination, amount::text from payouts where bank_export_id = ${file.id}`,
        )
      )[0]!.destination,
    ).toBeNull();
    const erasedFile = await fileXml();
    expect(erasedFile.total).toBe(before.file.total);
    expect(erasedFile.xml).not.toContain('NL91ABNA0417164300');
    expect(erasedFile.xml).toContain(`<IBAN>${ERASED_IBAN}</IBAN>`);
    expect(erasedFile.xml).toContain(`<Nm>${ERASED_NAME}</Nm>`);
    // Muntly's own account (the debtor) and the amounts stay; the file is still a pain.001 by the official schema.
    expect(erasedFile.xml).toContain('<CtrlSum>');
    expect(await schemaErrors(erasedFile.xml, 'pain.001.001.09.xsd')).toEqual([]);
    // Muntly's own structured address (the payer's, required for payees outside the EEA) stays.
    expect(erasedFile.xml).toContain('<TwnNm>');
    // The money records themselves are untouched: the ledger and the audit trail verify.
    expect(await rows(sql`select count(*)::text as n, sum(amount)::text as s from ledger_transfers`)).toEqual(
      before.ledger,
    );
    expect(await ledgerOk()).toBe(true);
    expect(await auditOk()).toBe(true);

    // A second run (another replica's) finds nothing of theirs left.
    const again = await applyRetention(t.app.db, yearsAfter(completed, 5, 2));
    expect(again.recordsErased).toEqual({ orders: 0, bankPayments: 0, payouts: 0, payoutFiles: 0, sends: 0 });
    expect((await fileXml()).xml).toBe(erasedFile.xml);
  });

  it("two runs at once (two replicas) erase an order's personal data once", async () => {
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '60',
        email: 'twice@muntly.test',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    const { reference } = placed.json() as { reference: string };
    await t.app.db.execute(
      sql`update orders set status = 'completed_failure', failure_reason = 'expired', completed_at = now() where reference = ${reference}`,
    );
    const when = yearsFromNow(5, 1);
    const runs = await Promise.all([applyRetention(t.app.db, when), applyRetention(t.app.db, when)]);
    expect(runs.reduce((sum, run) => sum + run.recordsErased.orders, 0)).toBe(1);
    expect(
      (await rows<{ email: string }>(sql`select email from orders where reference = ${reference}`))[0]!.email,
    ).toBe('');
  });

  it("keeps an account's order, and an order still open, while the relationship goes on", async () => {
    const u = await user('orders-active@muntly.test');
    const id = await accountIdOf('orders-active@muntly.test');
    const open = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '50',
        email: 'still-open@muntly.test',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    const openRef = (open.json() as { reference: string }).reference;
    await t.app.db.execute(sql`update orders set created_at = now() - interval '6 years' where reference = ${openRef}`);
    await t.app.db
      .execute(sql`update orders set account_id = ${id}, status = 'completed_success', completed_at = now() - interval '6 years'
      where id = (select id from orders where account_id is null and email = 'customer@muntly.test' limit 1)`);
    await tradeNow(id, 'orders-active');
    await applyRetention(t.app.db, new Date(Date.now() + 30 * DAY));
    expect((await rows<{ email: string }>(sql`select email from orders where account_id = ${id}`))[0]!.email).toBe(
      'customer@muntly.test',
    );
    await applyRetention(t.app.db, yearsFromNow(30));
    // Never completed: nothing ended, however old.
    expect((await rows<{ email: string }>(sql`select email from orders where reference = ${openRef}`))[0]!.email).toBe(
      'still-open@muntly.test',
    );
    expect(u).toBeDefined();
  });

  it('runs from the ops command, for operators only, and two runs at once delete each item once', async () => {
    const u = await user('raced@muntly.test');
    await enable('raced@muntly.test', 'bank');
    await submit(u, 'bank', { iban: 'NL91ABNA0417164300', beneficiary: 'Raced' });
    await support('raced@muntly.test');
    await t.app.db.execute(
      sql`update verifications set retain_until = now() - interval '1 day' where kind = 'bank' and data->>'beneficiary' = 'Raced'`,
    );
    // …and the customer, who never moved money, signed up more than five years ago.
    await t.app.db.execute(
      sql`update accounts set created_at = now() - interval '6 years' where subject = 'auth0|raced@muntly.test'`,
    );
    await t.app.db.execute(
      sql`update outbox set retain_until = now() - interval '1 day' where recipient = 'raced@muntly.test' and retain_until is not null`,
    );
    const before = await auditCount('identity.data_deleted');

    expect((await t.app.inject({ method: 'POST', url: '/api/ops/retention', headers: u })).statusCode).toBe(403);
    const runs = await Promise.all(
      [1, 2].map(() => t.app.inject({ method: 'POST', url: '/api/ops/retention', headers: admin })),
    );
    expect(runs.map((r) => r.statusCode)).toEqual([200, 200]);
    const totals = runs.map((r) => r.json() as { identityDataDeleted: number; messagesDeleted: number });
    expect(totals.reduce((sum, r) => sum + r.identityDataDeleted, 0)).toBe(1);
    expect(totals.reduce((sum, r) => sum + r.messagesDeleted, 0)).toBe(1);
    expect(await auditCount('identity.data_deleted')).toBe(before + 1);
    expect(await view(u, 'bank')).toMatchObject({ phase: 'step_1', data: null });
  });

  it('npm run ops -- retention prints what it deleted', async () => {
    await support('printed@muntly.test');
    await t.app.db.execute(
      sql`update outbox set retain_until = now() - interval '1 day' where recipient = 'printed@muntly.test'`,
    );
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const printed = await opsCliOutput(address, admin, (run) => run(['retention']));
    expect(printed).toEqual(['Deleted the identity data of 0 verification(s) and 1 support message(s).']);
  });

  it('runs by itself in every replica, every RETENTION_INTERVAL_MS', async () => {
    const replica = await testApp(kind, { RETENTION_INTERVAL_MS: '50' });
    try {
      await replica.app.db.execute(
        sql`insert into outbox (channel, recipient, subject, body, retain_until) values ('email', 'old@muntly.test', 'Old', 'An old support message', now() - interval '1 day')`,
      );
      const left = async () =>
        Number(
          (
            (await replica.app.db.execute(
              sql`select count(*) as n from outbox where recipient = 'old@muntly.test'`,
            )) as unknown as { rows: { n: string }[] }
          ).rows[0]!.n,
        );
      for (let i = 0; i < 100 && (await left()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await left()).toBe(0);
    } finally {
      await replica.close();
    }
  });
});

describe('pseudonymizePain', () => {
  it('replaces the creditors of a pain.001 file, keeps the debtor and the amounts, and stays valid', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn><GrpHdr><MsgId>M-1</MsgId><CreDtTm>2026-01-01T10:00:00</CreDtTm><NbOfTxs>1</NbOfTxs><CtrlSum>12.34</CtrlSum><InitgPty><Nm>Muntly</Nm></InitgPty></GrpHdr><PmtInf><PmtInfId>P-1</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>1</NbOfTxs><CtrlSum>12.34</CtrlSum><PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf><ReqdExctnDt>2026-01-02</ReqdExctnDt><Dbtr><Nm>Muntly</Nm></Dbtr><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct><DbtrAgt><FinInstnId><BIC>COBADEFFXXX</BIC></FinInstnId></DbtrAgt><CdtTrfTxInf><PmtId><EndToEndId>E2E1</EndToEndId></PmtId><Amt><InstdAmt Ccy="EUR">12.34</InstdAmt></Amt><Cdtr><Nm>Zoë &amp; Jürgen &lt;Müller&gt;</Nm><PstlAdr><Ctry>DE</Ctry><AdrLine>Hauptstraße 1</AdrLine></PstlAdr></Cdtr><CdtrAcct><Id><IBAN>DE02120300000000202051</IBAN></Id></CdtrAcct><RmtInf><Ustrd>ABCD-EFGH</Ustrd></RmtInf></CdtTrfTxInf></PmtInf></CstmrCdtTrfInitn></Document>`;
    expect(await schemaErrors(xml, 'pain.001.001.03.xsd')).toEqual([]);
    const erased = pseudonymizePain(xml);
    expect(await schemaErrors(erased, 'pain.001.001.03.xsd')).toEqual([]);
    expect(erased).not.toMatch(/Jürgen|Müller|Zoë|Hauptstraße|DE02120300000000202051/);
    expect(erased).toContain('<IBAN>DE89370400440532013000</IBAN>');
    expect(erased).toContain('<InstdAmt Ccy="EUR">12.34</InstdAmt>');
    expect(erased).toContain('<Ustrd>ABCD-EFGH</Ustrd>');
    // Twice is the same as once.
    expect(pseudonymizePain(erased)).toBe(erased);
  });
});
