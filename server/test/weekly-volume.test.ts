/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { expireUnpaidOrders } from '../src/modules/orders/intake';
import { processOrders } from '../src/modules/orders/settlement';
import {
  balanceOf,
  confirmSendFromMail,
  confirmWalletOrder,
  databaseKinds,
  fixedRates,
  freshBtcAddress,
  payOut,
  testApp,
  testUser,
  type TestApp,
  type TestUser,
} from './helpers';

const rates = fixedRates(); // BTC at 80,000 EUR
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
/** A payout address nobody used before: orders to one address count as one customer's. */

/**
 * Thresholds and caps that cannot be walked around (issue 15, class 2): the weekly volume counts
 * every send and order when the value leaves, and a customer stays new until an order of theirs
 * has completed.
 */
describe.each(databaseKinds())('weekly volume and the first-order cap (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
  });
  afterAll(() => t.close());

  const place = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/orders', headers, payload });
  const buy = (email: string, amount: string, address = freshBtcAddress()) => ({
    type: 'buy',
    currencyFrom: 'EUR',
    currencyTo: 'BTC',
    amount,
    email,
    address,
  });
  const startSend = (u: TestUser, amount: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      headers: u.headers,
      payload: { currency: 'BTC', address: EXTERNAL, amount },
    });
  const confirmSend = (u: TestUser, sendId: string, language = 'en') =>
    confirmSendFromMail(t, u, sendId, { 'accept-language': language });
  /** Pays a buy by bank and runs the order and payout workers: the order completes successfully. */
  async function complete(order: { shortReference: string; amount: string; reference: string }) {
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/payment-received',
      headers: t.admin,
      payload: { reason: order.shortReference, amount: order.amount },
    });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    await payOut(t);
  }
  const statusOf = async (reference: string) =>
    (
      (await t.database.db.execute(
        sql`select status, failure_reason from orders where reference = ${reference}`,
      )) as unknown as { rows: { status: string; failure_reason: string | null }[] }
    ).rows[0];

  it('sends created first and confirmed afterwards are counted when they leave: together they cannot pass 1,000 EUR', async () => {
    const u = await testUser(t, `later-${kind}@muntly.test`, { deposit: '0.1', book: [EXTERNAL] }); // 8,000 EUR, bank verified only
    // Five sends of 970 EUR (0.012125 BTC): each alone is under the threshold, so each is created.
    const sends = [];
    for (let i = 0; i < 5; i++) {
      const res = await startSend(u, '0.012125');
      expect(res.statusCode).toBe(201);
      sends.push(res.json().id as string);
    }
    expect((await confirmSend(u, sends[0]!)).json().status).toBe('processing');
    for (const id of sends.slice(1)) {
      const refused = await confirmSend(u, id, 'de');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('mobile_verification_required');
    }
    // One send and its fee left the wallet, nothing more.
    expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.08785500');
  });

  it('sends confirmed at the same instant cannot together pass the threshold', async () => {
    const u = await testUser(t, `race-${kind}@muntly.test`, { deposit: '0.1', book: [EXTERNAL] });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await startSend(u, '0.004')).json().id); // 320 EUR each
    const results = await Promise.all(ids.map((id) => confirmSend(u, id)));
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(ok).toBe(3); // 960 EUR; a fourth would make 1,280
    expect(
      results.filter((r) => r.statusCode === 403).every((r) => r.json().error.code === 'mobile_verification_required'),
    ).toBe(true);
  });

  it("a user's sends count the orders paid without logging in under their email; an unpaid one moved nothing", async () => {
    const u = await testUser(t, `mixed-${kind}@muntly.test`, { deposit: '0.1', book: [EXTERNAL] });
    // Logged out, under the same email (spelt in capitals): 60 EUR, then 850 EUR once known.
    const first = (await place(buy(u.email.toUpperCase(), '60'))).json();
    await complete(first);
    const second = (await place(buy(u.email, '850'))).json();
    expect(second.status).toBe('new');
    // Logged in, a send of 160 EUR: the unpaid order is nothing that moved (60 + 160).
    expect((await startSend(u, '0.002')).statusCode).toBe(201);
    await complete(second);
    // Paid and converted, it counts: 60 + 850 + 160 passes 1,000 EUR.
    expect((await startSend(u, '0.002')).json().error.code).toBe('mobile_verification_required');
  });

  it("euros deposited into one's own wallet are no exchange: they do not count; a deposit bought into crypto does", async () => {
    const u = await testUser(t, `saver-${kind}@muntly.test`, { deposit: '0.1', book: [EXTERNAL] });
    await complete((await place(buy(u.email, '50'), u.headers)).json()); // a known customer: the first-order cap is not the point here
    const { depositReference } = (await t.app.inject({ url: '/api/me', headers: u.headers })).json();
    const deposit = (reason: string, amount: string) =>
      t.app.inject({ method: 'POST', url: '/api/ops/payment-received', headers: t.admin, payload: { reason, amount } });
    expect((await deposit(depositReference, '900')).statusCode).toBe(200);
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    // 900 EUR kept as euros, then a send of 320 EUR: 50 + 320, since the deposit is not volume.
    const send = await startSend(u, '0.004');
    expect(send.statusCode).toBe(201);
    expect((await confirmSend(u, send.json().id)).statusCode).toBe(200);
    // 600 EUR bought into BTC on arrival is a buy: 970 EUR; 80 EUR more passes 1,000 EUR.
    expect((await deposit(`${depositReference} BTC`, '600')).statusCode).toBe(200);
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    expect(await balanceOf(t, u.headers, 'EUR')).toBe('900.00');
    expect((await startSend(u, '0.001')).json().error.code).toBe('mobile_verification_required');
  });

  it('sending more than the balance says so, before any verification', async () => {
    const u = await testUser(t, `poor-${kind}@muntly.test`, { deposit: '0.01', book: [EXTERNAL] });
    expect((await startSend(u, '0.05')).json().error).toMatchObject({ code: 'insufficient_balance', field: 'amount' }); // 4,000 EUR
  });

  it('own-wallet orders count: a swap from the wallet and a send together need the mobile verification', async () => {
    const ETH_OUT = '0x52908400098527886E0F7030069857D2E4169EE7';
    const u = await testUser(t, `own-${kind}@muntly.test`, {
      deposit: '0.1',
      book: [EXTERNAL, { currency: 'ETH', address: ETH_OUT }],
    });
    // A first completed order makes the customer known (the first-order cap is not the point here).
    await complete((await place(buy(u.email, '50'), u.headers)).json());
    const swap = await place(
      {
        type: 'swap',
        currencyFrom: 'BTC',
        currencyTo: 'ETH',
        amount: '0.01',
        email: u.email,
        useMyWallet: true,
        address: ETH_OUT,
      },
      u.headers,
    ); // 800 EUR
    expect(swap.statusCode).toBe(201);
    expect(swap.json()).toMatchObject({ status: 'new', awaitingCode: true });
    expect((await confirmWalletOrder(t, u, swap.json().reference)).json()).toMatchObject({
      status: 'processing',
      awaitingCode: false,
    });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    const send = await startSend(u, '0.003'); // 240 EUR: 50 + 800 + 240 > 1,000
    expect(send.json().error.code).toBe('mobile_verification_required');
  });

  it('exchange orders count by account: a bank-verified user cannot exchange past 1,000 EUR a week without mobile', async () => {
    const u = await testUser(t, `trader-${kind}@muntly.test`);
    await complete((await place(buy(u.email, '100'), u.headers)).json());
    const second = await place(buy(u.email, '850'), u.headers);
    expect(second.statusCode).toBe(201);
    await complete(second.json()); // 950
    const over = await place(buy(u.email, '100'), u.headers); // 1,050
    expect(over.statusCode).toBe(403);
    expect(over.json().error.code).toBe('mobile_verification_required');
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/verify',
      headers: t.admin,
      payload: { email: u.email, kind: 'mobile' },
    });
    expect((await place(buy(u.email, '100'), u.headers)).statusCode).toBe(201);
    // Above 3,000 EUR the ID document too.
    expect((await place(buy(u.email, '2500'), u.headers)).json().error.code).toBe('id_verification_required');
  });

  it('orders placed together and paid later are judged when each is converted: the one that passes the week is refunded, told why', async () => {
    const u = await testUser(t, `later-orders-${kind}@muntly.test`);
    await complete((await place(buy(u.email, '100'), u.headers)).json());
    // Unpaid, neither counts when the other is placed: each alone stays within 1,000 EUR.
    const a = (await place(buy(u.email, '500'), u.headers)).json();
    const b = (await place(buy(u.email, '500'), u.headers)).json();
    await complete(a);
    await complete(b);
    expect(await statusOf(a.reference)).toEqual({ status: 'completed_success', failure_reason: null });
    expect(await statusOf(b.reference)).toEqual({
      status: 'completed_failure',
      failure_reason: 'mobile_verification_required',
    });
    const { messages } = (await t.app.inject({ url: `/api/ops/outbox?to=${u.email}`, headers: t.admin })).json();
    expect(messages[0]).toMatchObject({
      subject: `Order ${b.reference} could not be completed`,
      body: expect.stringContaining('needs a verified mobile number'),
    });
  });

  it('anonymous orders count by email and by payout address: a new email does not start a new week', async () => {
    const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const first = (await place(buy(`anon-${kind}@example.com`, '100', address))).json();
    await complete(first);
    expect((await place(buy(`anon-${kind}@example.com`, '850', address))).statusCode).toBe(201); // 950
    const sameEmail = await place(buy(`anon-${kind}@example.com`, '100'));
    expect(sameEmail.json().error).toMatchObject({
      code: 'weekly_limit_login_required',
      message: expect.stringContaining('€1,000.00'),
    });
    // Another email, same address: the same customer. (It is also a first order: the cap says so first.)
    expect((await place(buy(`anon2-${kind}@example.com`, '60', address))).json().error.code).toBe(
      'weekly_limit_login_required',
    );
  });

  it('anonymous sells count by the payout IBAN, however it is written: another email with the same IBAN is the same customer', async () => {
    const iban = 'DE02120300000000202051';
    const sell = (email: string, amount: string, address: string) => ({
      type: 'sell',
      currencyFrom: 'BTC',
      currencyTo: 'EUR',
      amount,
      email,
      address,
      beneficiary: 'Wilma Woche',
    });
    const first = (await place(sell(`seller-${kind}@example.com`, '0.001', iban))).json(); // 80 EUR
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: t.admin,
      payload: { currency: 'BTC', address: first.receiving.address, amount: first.amount },
    });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    await payOut(t);
    expect((await statusOf(first.reference))!.status).toBe('completed_success');
    expect((await place(sell(`seller-${kind}@example.com`, '0.011', iban))).statusCode).toBe(201); // 960 EUR this week
    // A new email and the IBAN in lower case with spaces: still the same IBAN, the week goes past 1,000 EUR.
    const respelled = iban.toLowerCase().replace(/(.{4})/g, '$1 ');
    expect((await place(sell(`seller2-${kind}@example.com`, '0.001', respelled))).json().error.code).toBe(
      'weekly_limit_login_required',
    );
    // Another IBAN: another customer, whose first order this is.
    expect((await place(sell(`seller2-${kind}@example.com`, '0.001', 'NL91ABNA0417164300'))).statusCode).toBe(201);
  });

  it('a customer stays new until an order completes successfully; the cap is checked again when the money arrives', async () => {
    const email = `new-${kind}@example.com`;
    const small = (await place(buy(email, '20'))).json();
    expect((await place(buy(email, '29000'))).json().error.code).toBe('first_order_limit');
    // An order that got past the cap when it was placed (by the rule before this one) is refused
    // at settlement and refunded whole.
    await t.database.db.execute(
      sql`update orders set amount = 50000, amount_eur = 50000 where reference = ${small.reference}`,
    );
    await complete({ ...small, amount: '500.00' });
    expect(await statusOf(small.reference)).toEqual({
      status: 'completed_failure',
      failure_reason: 'first_order_limit',
    });
    expect((await place(buy(email, '500'))).json().error.code).toBe('first_order_limit');
    // Once one order has completed, the customer is no longer new.
    const ok = (await place(buy(email, '90'))).json();
    await complete(ok);
    expect(await statusOf(ok.reference)).toEqual({ status: 'completed_success', failure_reason: null });
    expect((await place(buy(email, '500'))).statusCode).toBe(201);
  });

  it('an unpaid order expires after the configured days, is mailed and shown so, and a payment that still arrives is refunded whole', async () => {
    const email = `late-${kind}@example.com`;
    const order = (await place(buy(email, '40'))).json();
    const fresh = (await place(buy(`early-${kind}@example.com`, '40'))).json();
    await t.database.db.execute(
      sql`update orders set created_at = now() - interval '8 days' where reference = ${order.reference}`,
    );
    expect(await expireUnpaidOrders(t.database.db, 7)).toBeGreaterThanOrEqual(1);
    expect(await statusOf(order.reference)).toEqual({ status: 'completed_failure', failure_reason: 'expired' });
    expect((await statusOf(fresh.reference))!.status).toBe('new'); // younger than 7 days
    const lookup = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/orders/lookup',
          payload: { email, reference: order.reference },
        })
      ).json();
    expect(await lookup()).toMatchObject({ status: 'completed_failure', failure: { reason: 'expired', refund: null } });
    const { messages } = (await t.app.inject({ url: `/api/ops/outbox?to=${email}`, headers: t.admin })).json();
    expect(messages[0]).toMatchObject({
      subject: `Order ${order.reference} has expired`,
      body: expect.stringContaining('within 7 days'),
    });
    // The customer pays anyway: the payment is taken in and goes back whole, nothing converted.
    await complete(order);
    expect(await lookup()).toMatchObject({
      status: 'completed_failure',
      amountReceived: '40.00',
      failure: { reason: 'expired', refund: 'bank' },
      actualAmountConverted: null,
    });
  });

  it('business verification: a buy paid from a business account needs a login and a verified business', async () => {
    const business = (email: string) => ({ ...buy(email, '50'), fromBusinessAccount: true });
    expect((await place(business(`biz-anon-${kind}@example.com`))).json().error).toMatchObject({
      code: 'login_required',
      field: 'fromBusinessAccount',
    });
    const u = await testUser(t, `biz-${kind}@muntly.test`);
    expect((await place(business(u.email), u.headers)).json().error.code).toBe('business_verification_required');
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/verify',
      headers: t.admin,
      payload: { email: u.email, kind: 'business' },
    });
    const placed = await place(business(u.email), u.headers);
    expect(placed.statusCode).toBe(201);
    expect(placed.json().businessHold).toBe(false);
  });

  it('an operator marks a paid buy as paid from a business account: it waits until a business behind it is verified', async () => {
    const email = `biz-later-${kind}@muntly.test`;
    const order = (await place(buy(email, '60'))).json();
    const mark = (reference: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/ops/orders/business-payment',
        headers: t.admin,
        payload: { reference },
      });
    const marked = await mark(order.reference);
    expect(marked.json()).toMatchObject({ reference: order.reference, businessHold: true });
    await complete(order); // paid; the worker runs
    expect((await statusOf(order.reference))!.status).toBe('processing'); // held, not converted
    const lookup = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/orders/lookup',
          payload: { email, reference: order.reference },
        })
      ).json();
    expect(await lookup()).toMatchObject({ status: 'processing', businessHold: true });
    // The customer logs in with that email and their business is verified: the order goes on.
    await testUser(t, email, { verified: ['business'], address: false });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    await payOut(t);
    expect(await lookup()).toMatchObject({ status: 'completed_success', businessHold: false });
    expect((await mark('AAAA-BBBB-CCCC-DDDD')).json().error.code).toBe('not_found');
    expect((await mark(order.reference)).json().error.code).toBe('order_not_open');
  });

  it('the operator reports a payment from a business account with the payment: the buy is held at once, before the worker can convert it', async () => {
    const email = `biz-paid-${kind}@muntly.test`;
    const order = (await place(buy(email, '70'))).json();
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/ops/payment-received',
      headers: t.admin,
      payload: { reason: order.shortReference, amount: '70', fromBusinessAccount: true },
    });
    expect(paid.json()).toMatchObject({ reference: order.reference, status: 'processing', businessHold: true });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    expect((await statusOf(order.reference))!.status).toBe('processing'); // held, not converted
    await testUser(t, email, { verified: ['business'], address: false });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    await payOut(t);
    expect((await statusOf(order.reference))!.status).toBe('completed_success');
  });
});
