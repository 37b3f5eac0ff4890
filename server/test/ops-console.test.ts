/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { processOrders } from '../src/modules/orders/settlement';
import { camt053Statement, type StatementCredit } from './fixtures/camt053';
import {
  bearer,
  bookAddresses,
  databaseKinds,
  fixedRates,
  loggedIn,
  opsCliOutput,
  payOut,
  signToken,
  testApp,
  testUser,
  type TestApp,
} from './helpers';
import type { AuditEntry } from '#domain/contracts/audit';
import type { BankPayment, ImportStatementResponse } from '#domain/contracts/bank';
import type {
  OpsAccountResponse,
  OpsAccountsResponse,
  OpsOrderResponse,
  OpsOrdersResponse,
  OpsQueues,
  VerificationDocumentsResponse,
} from '#domain/contracts/console';
import type { IdentityKind } from '#domain/contracts/identity';
import type { Payout } from '#domain/contracts/payouts';
import type { AddressInfo } from 'node:net';

/**
 * What the operator console reads and the actions it adds (server/src/modules/ops/console.ts,
 * console-routes.ts; the rejection of a verification in identity/service.ts): the queues' counts,
 * orders and accounts by search with their history, documents waiting for a check, rejecting
 * details with a reason the customer reads in their language; four eyes on payouts in the audit
 * trail. Only operators (admin:muntly) may; every read of personal data is in the audit trail.
 */
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
/** An address outside Muntly (BTC_ADDRESS is the first a user's wallet gets). */
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const person = {
  salutation: 'ms',
  firstName: 'Anna',
  lastName: 'Weber',
  birthdate: '1990-04-12',
  nationality: 'DE',
  email: 'anna.weber@example.com',
  mobile: '+49 151 23456789',
  street: 'Hauptstraße 1',
  zip: '10115',
  city: 'Berlin',
  country: 'DE',
};

it('the statements the console tests and journey build are camt.053.001.02 as the official schema defines it', async () => {
  const xml = camt053Statement({
    iban: 'DE89370400440532013000',
    day: '2026-11-24',
    statementId: 'STMT-1',
    credits: [
      {
        bankReference: 'B-1',
        amount: '90.00',
        payer: 'Jürgen Müller & Söhne',
        payerIban: 'DE02120300000000202051',
        reason: 'ABCD-EFGH',
      },
    ],
  });
  const xsd = 'camt.053.001.02.xsd';
  const result = await validateXML({
    xml: [{ fileName: 'statement.xml', contents: xml }],
    schema: [{ fileName: xsd, contents: fs.readFileSync(path.join(__dirname, 'fixtures/iso20022', xsd), 'utf8') }],
  });
  expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
});

describe.each(databaseKinds())('the operator console (%s)', (kind) => {
  let t: TestApp;
  const rates = fixedRates();
  const operators: Record<'anna' | 'ben', Record<string, string>> = { anna: {}, ben: {} };
  beforeAll(async () => {
    // Payouts worth more than 50 EUR wait for four eyes here, so small orders show it.
    t = await testApp(kind, { PAYOUT_APPROVAL_ABOVE_EUR: '50' }, { rates });
    for (const name of ['anna', 'ben'] as const)
      operators[name] = bearer(await signToken(t.keys, { sub: `ops|${name}`, scope: 'use:muntly admin:muntly' }));
  }, 120_000);
  afterAll(() => t?.close());

  const get = async <T>(url: string, headers = t.admin) => {
    const res = await t.app.inject({ url, headers });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };
  const post = (url: string, payload?: object, headers = t.admin) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  const queues = () => get<OpsQueues>('/api/ops/queues');
  const audit = async (query: string) => (await get<{ entries: AuditEntry[] }>(`/api/ops/audit?${query}`)).entries;
  const buy = async (email: string, amount: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount, email, address: BTC_ADDRESS },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { reference: string; shortReference: string };
  };
  let day = 0;
  const importCredits = async (credits: StatementCredit[]) => {
    day += 1;
    const xml = camt053Statement({
      iban: t.config.BANK_IBAN,
      day: `2026-11-${String(day).padStart(2, '0')}`,
      statementId: `STMT-${kind}-${day}`,
      credits,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/bank/statements',
      headers: { ...t.admin, 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as ImportStatementResponse;
  };

  it('answers only operators: 401 without a token, 403 with a customer’s token', async () => {
    const customer = await loggedIn(t, `not-an-operator-${kind}@muntly.test`);
    const reads = [
      '/api/ops/queues',
      '/api/ops/verification-documents',
      '/api/ops/orders?q=ABCD-EFGH',
      '/api/ops/orders/ABCD-EFGH-IJKL-MNOP',
      '/api/ops/accounts?q=muntly',
      '/api/ops/accounts/ABCD2345',
    ];
    for (const url of reads) {
      expect((await t.app.inject({ url })).statusCode).toBe(401);
      const refused = await t.app.inject({ url, headers: customer });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('insufficient_scope');
    }
    const reject = await post(
      '/api/ops/verification/reject',
      { email: `not-an-operator-${kind}@muntly.test`, kind: 'id', reason: 'expired' },
      customer,
    );
    expect(reject.statusCode).toBe(403);
  });

  it('counts what waits in each queue, and lists the ID documents to check', async () => {
    const before = await queues();
    // A customer asks for mobile verification with one click; another sends their ID details (the document follows by email).
    const asker = await loggedIn(t, `asker-${kind}@muntly.test`);
    expect((await post('/api/identity/mobile/request', undefined, asker)).statusCode).toBe(200);
    const idHolder = await testUser(t, `id-holder-${kind}@muntly.test`, { verified: [], address: false });
    expect((await post('/api/ops/verification/enable', { email: idHolder.email, kind: 'id' })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/identity/id', headers: idHolder.headers, payload: person }))
        .statusCode,
    ).toBe(200);
    // A payment whose reason names nothing waits unmatched.
    await importCredits([
      {
        bankReference: `Q-${kind}-1`,
        amount: '12.00',
        payer: 'Erika Mustermann',
        payerIban: 'DE02120300000000202051',
        reason: 'Rechnung 4711',
      },
    ]);

    const after = await queues();
    expect(after).toEqual({
      verificationRequests: before.verificationRequests + 1,
      documents: before.documents + 1,
      unmatchedPayments: before.unmatchedPayments + 1,
      payoutsAwaitingApproval: before.payoutsAwaitingApproval,
      chainAlerts: 0,
      chainUnmatched: 0,
    });
    // The unmatched queue names payers and their IBANs: who read it is in the audit trail.
    const { payments } = await get<{ payments: BankPayment[] }>('/api/ops/bank/unmatched');
    expect((await audit('action=personal.read&actor=operator'))[0]!.after).toEqual({
      view: 'bank-payments',
      rows: payments.length,
    });
    const { documents } = await get<VerificationDocumentsResponse>('/api/ops/verification-documents');
    expect(documents).toContainEqual(
      expect.objectContaining({ email: idHolder.email, accountKey: idHolder.accountKey, kind: 'id' }),
    );
    // The list shows emails: its read is in the audit trail, by the operator who read it.
    expect((await audit('action=personal.read&actor=operator'))[0]!.after).toEqual({
      view: 'verification-documents',
      rows: documents.length,
    });
  });

  it('rejects submitted details with a reason the customer reads in their language, and takes a new submission', async () => {
    const user = await testUser(t, `rejected-${kind}@muntly.test`, { verified: [], address: false });
    await post('/api/ops/verification/enable', { email: user.email, kind: 'id' });
    // Nothing submitted yet: nothing to reject.
    const early = await post('/api/ops/verification/reject', { email: user.email, kind: 'id', reason: 'expired' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('verification_not_submitted');
    // The customer sends their details from the German page.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/identity/id',
          headers: { ...user.headers, 'accept-language': 'de' },
          payload: person,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await post('/api/ops/verification/reject', { email: user.email, kind: 'id', reason: 'no-such-reason' }))
        .statusCode,
    ).toBe(400);

    const rejected = await post(
      '/api/ops/verification/reject',
      { email: user.email, kind: 'id', reason: 'expired' },
      operators.anna,
    );
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toEqual({ email: user.email, kind: 'id', phase: 'step_1', reason: 'expired' });
    const idOf = async () =>
      (await get<{ kinds: IdentityKind[] }>('/api/identity', user.headers)).kinds.find((k) => k.kind === 'id')!;
    const sentBack = await idOf();
    expect(sentBack.phase).toBe('step_1');
    expect(sentBack.rejection).toEqual({ reason: 'expired', at: expect.any(String) });
    expect(sentBack.data).toEqual(expect.objectContaining({ firstName: 'Anna' }));
    // The email is in German, with the reason written out.
    const { messages } = await get<{ messages: { subject: string; body: string }[] }>(
      `/api/ops/outbox?to=${encodeURIComponent(user.email)}`,
    );
    expect(messages[0]!.subject).toBe('Ihre Verifizierung (Ausweis): Bitte prüfen Sie Ihre Angaben');
    expect(messages[0]!.body).toContain(
      'Ihr Dokument ist abgelaufen. Bitte senden Sie eine Kopie eines gültigen Dokuments.',
    );
    const [row] = await audit(`action=verification.reject&target=${user.accountKey}`);
    expect(row).toEqual(
      expect.objectContaining({
        actor: 'ops|anna',
        before: { kind: 'id', phase: 'step_2' },
        after: { kind: 'id', phase: 'step_1', reason: 'expired' },
      }),
    );
    // Sent back, it is no longer waiting for a check; sent again, the rejection is no longer shown.
    const again = await post('/api/ops/verification/reject', { email: user.email, kind: 'id', reason: 'expired' });
    expect(again.json().error.code).toBe('verification_not_submitted');
    await t.app.inject({
      method: 'POST',
      url: '/api/identity/id',
      headers: user.headers,
      payload: { ...person, lastName: 'Weber-Schmidt' },
    });
    expect(await idOf()).toEqual(expect.objectContaining({ phase: 'step_2', rejection: null }));
    expect((await post('/api/ops/verification/verify', { email: user.email, kind: 'id' })).statusCode).toBe(200);
    expect((await idOf()).phase).toBe('verified');
  });

  it('finds orders by reference in any spelling, by email, status and day, and tells an order’s whole history', async () => {
    const email = `history-${kind}@muntly.test`;
    const paid = await buy(email, '90');
    const unpaid = await buy(email, '20');
    const other = await buy(`someone-else-${kind}@muntly.test`, '20');

    const search = async (query: string) =>
      (await get<OpsOrdersResponse>(`/api/ops/orders?${query}`)).orders.map((o) => o.reference);
    expect(await search(`q=${paid.shortReference.toLowerCase().replace('-', ' ')}`)).toEqual([paid.reference]);
    expect(await search(`q=${paid.reference.replace(/-/g, '').toLowerCase()}`)).toEqual([paid.reference]);
    expect(await search(`q=${encodeURIComponent(`HISTORY-${kind}@`)}`)).toEqual([unpaid.reference, paid.reference]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await search(`q=${encodeURIComponent(email)}&from=${today}&to=${today}&type=buy`)).toEqual([
      unpaid.reference,
      paid.reference,
    ]);
    expect(await search(`q=${encodeURIComponent(email)}&to=2020-01-01`)).toEqual([]);
    expect((await t.app.inject({ url: '/api/ops/orders?from=yesterday', headers: t.admin })).statusCode).toBe(400);
    expect(await search('q=ZZZZ-ZZZZ')).toEqual([]);
    expect(await search(`q=${encodeURIComponent(`someone-else-${kind}`)}&status=new`)).toEqual([other.reference]);

    // Paid by the statement; its BTC delivery (90 EUR > 50) waits for two operators, who release it.
    await importCredits([
      {
        bankReference: `H-${kind}-1`,
        amount: '90.00',
        payer: 'Jürgen Müller',
        payerIban: 'DE02120300000000202051',
        reason: paid.shortReference,
      },
    ]);
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    const { payouts } = await get<{ payouts: Payout[] }>('/api/ops/payouts?status=awaiting_approval');
    const delivery = payouts.find(
      (p) => p.reference === null && p.purpose === 'order_delivery' && p.amount && p.destination === BTC_ADDRESS,
    )!;
    expect((await post(`/api/ops/payouts/${delivery.id}/approve`, undefined, operators.anna)).json().released).toBe(
      false,
    );
    expect((await post(`/api/ops/payouts/${delivery.id}/approve`, undefined, operators.anna)).json().error.code).toBe(
      'approval_same_operator',
    );
    expect((await post(`/api/ops/payouts/${delivery.id}/approve`, undefined, operators.ben)).json().released).toBe(
      true,
    );
    await payOut(t);

    const detail = await get<OpsOrderResponse>(`/api/ops/orders/${paid.reference.toLowerCase()}`);
    expect(detail.order).toEqual(
      expect.objectContaining({
        reference: paid.reference,
        status: 'completed_success',
        email,
        amount: '90.00',
        address: BTC_ADDRESS,
        payoutAwaitingApproval: false,
      }),
    );
    const steps = detail.history.map((e) => (e.kind === 'audit' ? `${e.action} by ${e.actor}` : e.kind));
    expect(steps).toEqual([
      'placed',
      'funded',
      'bank.payment_matched by operator',
      // Settling requests the payout in the same transaction; the payout row is dated by the database at its start.
      'payout_requested',
      'settled',
      'payout.review by ops|anna',
      'payout.approve by ops|ben',
      'payout_submitted',
      'payout_completed',
      'completed',
    ]);
    expect(detail.history.find((e) => e.kind === 'payout_requested')).toEqual(
      expect.objectContaining({ status: 'awaiting_approval', currency: 'BTC', detail: 'order_delivery · above_limit' }),
    );
    expect(detail.history.find((e) => e.action === 'bank.payment_matched')).toEqual(
      expect.objectContaining({ amount: '90.00', currency: 'EUR', detail: `H-${kind}-1` }),
    );
    const times = detail.history.map((e) => e.at);
    expect([...times].sort()).toEqual(times);
    // The operator who read the order (an email, an address) is in the audit trail.
    expect((await audit(`action=personal.read&target=${paid.reference}`))[0]).toEqual(
      expect.objectContaining({ actor: 'operator', after: { view: 'order', rows: 1 } }),
    );
    // Four eyes in the trail: who reviewed, who released, the payout's state before and after.
    const [approved] = await audit(`action=payout.approve&target=${delivery.id}`);
    expect(approved).toEqual(expect.objectContaining({ actor: 'ops|ben' }));
    expect(approved!.before).toEqual(
      expect.objectContaining({ status: 'awaiting_approval', reviewedBy: 'ops|anna', approvedBy: null }),
    );
    expect(approved!.after).toEqual(
      expect.objectContaining({
        status: 'pending',
        reviewedBy: 'ops|anna',
        approvedBy: 'ops|ben',
        approvalReason: 'above_limit',
      }),
    );

    expect((await t.app.inject({ url: '/api/ops/orders/ABCD-EFGH-IJKL-MNOP', headers: t.admin })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/ops/orders/not-a-reference', headers: t.admin })).statusCode).toBe(404);
  });

  it('records a rejected payout with its reason, by whom', async () => {
    const order = await buy(`rejected-payout-${kind}@muntly.test`, '80');
    await importCredits([
      {
        bankReference: `R-${kind}-1`,
        amount: '80.00',
        payer: 'Erika Mustermann',
        payerIban: 'DE02120300000000202051',
        reason: order.shortReference,
      },
    ]);
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    const { order: shown } = await get<OpsOrderResponse>(`/api/ops/orders/${order.reference}`);
    expect(shown.payoutAwaitingApproval).toBe(true);
    const { payouts } = await get<{ payouts: Payout[] }>('/api/ops/payouts?status=awaiting_approval');
    const held = payouts.find((p) => p.purpose === 'order_delivery' && p.status === 'awaiting_approval')!;
    expect(
      (await post(`/api/ops/payouts/${held.id}/reject`, { reason: 'Address on a sanctions list' }, operators.ben))
        .statusCode,
    ).toBe(200);
    const [row] = await audit(`action=payout.reject&target=${held.id}`);
    expect(row).toEqual(
      expect.objectContaining({
        actor: 'ops|ben',
        after: expect.objectContaining({ status: 'failed', reason: 'Address on a sanctions list' }),
      }),
    );
  });

  it('finds accounts by email or key and shows one: balances, verifications, recent orders and sends', async () => {
    const user = await testUser(t, `Account.Holder-${kind}@Muntly.test`, { deposit: '0.01' });
    const email = user.email.toLowerCase();
    const order = await buy(email, '30');
    await bookAddresses(t, user, [EXTERNAL]);
    const send = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      headers: user.headers,
      payload: { currency: 'BTC', address: EXTERNAL, amount: '0.001' },
    });
    expect(send.statusCode).toBe(201);

    const found = async (q: string) =>
      (await get<OpsAccountsResponse>(`/api/ops/accounts?q=${encodeURIComponent(q)}`)).accounts.map(
        (a) => a.accountKey,
      );
    expect(await found(`account.holder-${kind}`)).toEqual([user.accountKey]);
    expect(await found(user.accountKey.toLowerCase())).toEqual([user.accountKey]);
    expect(await found('nobody-has-this')).toEqual([]);
    expect((await t.app.inject({ url: '/api/ops/accounts?q=', headers: t.admin })).statusCode).toBe(400);

    const detail = await get<OpsAccountResponse>(`/api/ops/accounts/${user.accountKey}`);
    expect(detail.account).toEqual(expect.objectContaining({ accountKey: user.accountKey, email }));
    expect(detail.balances.balances.find((b) => b.currency === 'BTC')?.balance).toBe('0.01000000');
    expect(detail.verifications.find((v) => v.kind === 'bank')).toEqual(
      expect.objectContaining({ phase: 'verified', rejection: null }),
    );
    expect(detail.verifications.find((v) => v.kind === 'id')?.phase).toBe('not_enabled');
    expect(detail.orders.map((o) => o.reference)).toEqual([order.reference]);
    expect(detail.sends).toEqual([
      expect.objectContaining({
        id: send.json().id,
        status: 'awaiting_code',
        amount: '0.00100000',
        currency: 'BTC',
        address: EXTERNAL,
        internal: false,
      }),
    ]);
    expect(detail.sendsFrozen).toBe(false);
    expect(detail.audit.map((e) => e.action)).toEqual(expect.arrayContaining(['verification.verify', 'personal.read']));
    expect((await audit(`action=personal.read&target=${user.accountKey}`))[0]!.after).toEqual({
      view: 'account',
      rows: 1,
    });
    expect((await t.app.inject({ url: '/api/ops/accounts/NOSUCHKY', headers: t.admin })).statusCode).toBe(404);

    // An operator's freeze (account protection) shows on the account at once.
    const freeze = await t.app.inject({
      method: 'POST',
      url: `/api/ops/accounts/${user.accountKey}/freeze`,
      headers: t.admin,
      payload: { reason: 'suspected takeover, ticket 7' },
    });
    expect(freeze.statusCode).toBe(200);
    expect((await get<OpsAccountResponse>(`/api/ops/accounts/${user.accountKey}`)).sendsFrozen).toBe(true);
  });

  it('has every console read and the rejection in npm run ops', async () => {
    const listening = await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(listening).toBeTruthy();
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const user = await testUser(t, `cli-${kind}@muntly.test`, { verified: [], address: false });
    await post('/api/ops/verification/enable', { email: user.email, kind: 'id' });
    await t.app.inject({
      method: 'POST',
      url: '/api/identity/id',
      headers: { ...user.headers, 'accept-language': 'fr' },
      payload: person,
    });
    const order = await buy(user.email, '25');
    const [unmatched] = (await get<{ payments: BankPayment[] }>('/api/ops/bank/unmatched')).payments;

    const printed = await opsCliOutput(url, t.admin, async (ops) => {
      await ops(['queues']);
      await ops(['verification-documents']);
      await ops(['orders', user.email]);
      await ops(['order', order.reference]);
      await ops(['accounts', user.accountKey]);
      await ops(['account', user.accountKey]);
      await ops(['reject-verification', user.email, 'id', 'unreadable']);
    });
    const out = printed.join('\n');
    const counts = await queues();
    expect(out).toContain(`Documents to check: ${counts.documents + 1}`);
    expect(out).toContain(`Unmatched bank payments: ${counts.unmatchedPayments}`);
    expect(unmatched).toBeDefined();
    expect(out).toMatch(new RegExp(`${user.accountKey}  ${user.email}  id +verify or reject-verification`));
    expect(out).toMatch(new RegExp(`${order.reference} .* buy +new +25.00 EUR → BTC \\(EUR 25.00\\)  ${user.email}`));
    expect(out).toMatch(/ {2}\S+ {2}placed {2}new {2}25\.00 EUR/);
    expect(out).toContain(
      `Verifications: address not_enabled, bank not_enabled, business not_enabled, id step_2, mobile not_enabled`,
    );
    expect(out).toContain(
      `${user.email}: id verification sent back to step_1 (unreadable); the customer was told why.`,
    );
    const { messages } = await get<{ messages: { subject: string }[] }>(
      `/api/ops/outbox?to=${encodeURIComponent(user.email)}`,
    );
    expect(messages[0]!.subject).toBe('Votre vérification (pièce d’identité) : veuillez vérifier vos informations');
  });
});
