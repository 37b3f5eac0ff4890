/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { expireUnpaidOrders } from '../src/modules/orders/intake';
import { processOrders } from '../src/modules/orders/settlement';
import {
  balanceOf,
  bearer,
  bookAddresses,
  confirmSendFromMail,
  confirmWalletOrder,
  databaseKinds,
  fixedRates,
  freshBtcAddress,
  mailedOrderCode,
  payOut,
  signToken,
  testApp,
  testUser,
  type TestApp,
  type TestUser,
} from './helpers';

/**
 * One gate where value is exchanged or leaves (issue 29): each attempt a determined user made
 * around a rule — through another entrance, in parts, in another spelling, in someone else's
 * name — made as a test. On PGlite and on PostgreSQL.
 */
jest.setTimeout(120_000);

const rates = fixedRates(); // BTC at 80,000 EUR, ETH at 3,000 EUR, XRP at 0.50 EUR
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const ETH_OUT = '0x52908400098527886E0F7030069857D2E4169EE7';

describe.each(databaseKinds())('the gates (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { SEND_SECOND_FACTOR_ABOVE_EUR: '500' }, { rates });
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
  const settle = () => processOrders(t.database.db, { ...t.app.workers.settlement, rates });
  const pay = (payload: { reason: string; amount: string; payerIban?: string }) =>
    t.app.inject({ method: 'POST', url: '/api/ops/payment-received', headers: t.admin, payload });
  /** Pays a buy by bank and runs the order and payout workers. */
  async function complete(order: { shortReference: string; amount: string }, payerIban?: string) {
    await pay({ reason: order.shortReference, amount: order.amount, ...(payerIban ? { payerIban } : {}) });
    await settle();
    await payOut(t);
  }
  const orderRow = async (reference: string) =>
    (
      (await t.database.db.execute(
        sql`select status, failure_reason, currency_to, conversion_refusal, review_hold from orders where reference = ${reference}`,
      )) as unknown as {
        rows: {
          status: string;
          failure_reason: string | null;
          currency_to: string;
          conversion_refusal: string | null;
          review_hold: boolean;
        }[];
      }
    ).rows[0]!;
  const mails = async (to: string) =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: t.admin })).json().messages as {
      subject: string;
      body: string;
    }[];
  /** A user's token with this login: `age` seconds since it happened, and its amr. */
  const login = async (u: TestUser, age: number, amr = ['pwd', 'otp']) =>
    bearer(
      await signToken(t.keys, {
        sub: `auth0|${u.email}`,
        email: u.email,
        authTime: Math.floor(Date.now() / 1000) - age,
        amr,
      }),
    );
  /** A known customer (one exchange of theirs completed): the first-order cap is not the point. */
  async function known(u: TestUser) {
    await complete((await place(buy(u.email, '20'), u.headers)).json());
  }

  describe('an order paid from the wallet to a destination outside it is a send', () => {
    const swap = (_u: TestUser, amount = '0.001', address = ETH_OUT) => ({
      type: 'swap',
      currencyFrom: 'BTC',
      currencyTo: 'ETH',
      amount,
      email: 'typed-elsewhere@example.com',
      useMyWallet: true,
      address,
    });

    it('passes allow-list mode and the hold: an address in no book, or still on hold, is refused before anything is placed', async () => {
      const u = await testUser(t, `own-book-${kind}@muntly.test`, { deposit: '0.1' });
      expect((await place(swap(u), u.headers)).json().error).toMatchObject({
        code: 'address_not_in_book',
        field: 'address',
      });
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/wallet/address-book',
            headers: u.headers,
            payload: { currency: 'ETH', address: ETH_OUT, label: 'cold wallet', ownWallet: true },
          })
        ).statusCode,
      ).toBe(201);
      const held = (await place(swap(u), u.headers)).json().error;
      expect(held).toMatchObject({ code: 'address_on_hold', field: 'address' });
      expect(held.retryAfter).toBeGreaterThan(23 * 3600);
      expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.10000000');
    });

    it('waits for the code mailed to the account (not to the email typed in the form), then takes the money', async () => {
      const u = await testUser(t, `own-code-${kind}@muntly.test`, {
        deposit: '0.1',
        book: [{ currency: 'ETH', address: ETH_OUT }],
      });
      const placed = await place(swap(u), u.headers);
      expect(placed.statusCode).toBe(201);
      const order = placed.json();
      expect(order).toMatchObject({ status: 'new', awaitingCode: true });
      // Nothing left the wallet yet; the owner was told, with the code and a freeze link.
      expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.10000000');
      expect(await mails('typed-elsewhere@example.com')).toEqual([]);
      const codeMail = (await mails(u.email)).find(
        (m) => m.subject.startsWith('Confirm your order') && m.subject.includes(order.reference),
      );
      expect(codeMail!.body).toContain(ETH_OUT);
      expect(codeMail!.body).toMatch(/freeze/i);
      // Someone else's token: the same answer as no order at all.
      const other = await testUser(t, `own-thief-${kind}@muntly.test`);
      const code = await mailedOrderCode(t, u.email, order.reference);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/orders/${order.reference}/confirm`,
            headers: other.headers,
            payload: { code },
          })
        ).statusCode,
      ).toBe(404);
      // A wrong code counts; the right one takes the money once.
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/orders/${order.reference}/confirm`,
            headers: u.headers,
            payload: { code: 'BBBB-BBBB-BBBB-BBBB' },
          })
        ).json().error.code,
      ).toBe('invalid_code');
      const confirmed = await confirmWalletOrder(t, u, order.reference);
      expect(confirmed.json()).toMatchObject({ status: 'processing', awaitingCode: false });
      expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.09900000');
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/orders/${order.reference}/confirm`,
            headers: u.headers,
            payload: { code },
          })
        ).json().error.code,
      ).toBe('order_not_open');
      // The order's own emails go to the account too.
      expect((await mails(u.email)).some((m) => m.subject.includes(order.reference) && !m.body.includes(code))).toBe(
        true,
      );
    });

    it('an order whose code expired unused expires with it: nothing taken, no mail saying it was unpaid', async () => {
      const u = await testUser(t, `own-late-${kind}@muntly.test`, {
        deposit: '0.1',
        book: [{ currency: 'ETH', address: ETH_OUT }],
      });
      const order = (await place(swap(u), u.headers)).json();
      const code = await mailedOrderCode(t, u.email, order.reference);
      await t.database.db.execute(
        sql`update orders set code_expires_at = now() - interval '1 second' where reference = ${order.reference}`,
      );
      const confirm = () =>
        t.app.inject({
          method: 'POST',
          url: `/api/orders/${order.reference}/confirm`,
          headers: u.headers,
          payload: { code },
        });
      expect((await confirm()).json().error.code).toBe('code_expired');
      const mailsBefore = (await mails(u.email)).length;
      expect(await expireUnpaidOrders(t.database.db, 7)).toBeGreaterThanOrEqual(1);
      expect(await orderRow(order.reference)).toMatchObject({ status: 'completed_failure', failure_reason: 'expired' });
      expect((await mails(u.email)).length).toBe(mailsBefore);
      expect((await confirm()).json().error.code).toBe('order_not_open');
      expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.10000000');
    });

    it('needs a recent login, and a second factor once the last 24 hours pass the limit', async () => {
      const u = await testUser(t, `own-login-${kind}@muntly.test`, {
        deposit: '0.1',
        book: [{ currency: 'ETH', address: ETH_OUT }],
      });
      await known(u);
      const order = (await place(swap(u, '0.004'), u.headers)).json(); // 320 EUR
      const code = await mailedOrderCode(t, u.email, order.reference);
      const confirm = (headers: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: `/api/orders/${order.reference}/confirm`, headers, payload: { code } });
      const stale = await confirm(await login(u, 3600));
      expect(stale.statusCode).toBe(401);
      expect(stale.json().error.code).toBe('login_required_recent');
      expect(stale.headers['www-authenticate']).toContain('max_age=');
      // A send of 240 EUR earlier today: with this order 560 EUR, past the 500 EUR limit.
      await bookAddresses(t, u, [EXTERNAL]);
      const send = (
        await t.app.inject({
          method: 'POST',
          url: '/api/wallet/sends',
          headers: u.headers,
          payload: { currency: 'BTC', address: EXTERNAL, amount: '0.003' },
        })
      ).json();
      expect((await confirmSendFromMail(t, u, send.id)).statusCode).toBe(200);
      expect((await confirm(await login(u, 10, ['pwd']))).json().error.code).toBe('second_factor_required');
      expect((await confirm(await login(u, 10, ['pwd', 'otp']))).json().status).toBe('processing');
    });

    it('stops while the account is frozen, and counts against the week like a send', async () => {
      const u = await testUser(t, `own-frozen-${kind}@muntly.test`, {
        deposit: '0.1',
        book: [{ currency: 'ETH', address: ETH_OUT }],
      });
      await known(u);
      const order = (await place(swap(u, '0.005'), u.headers)).json(); // 400 EUR
      await t.app.inject({
        method: 'POST',
        url: `/api/ops/accounts/${u.accountKey}/freeze`,
        headers: t.admin,
        payload: { reason: 'a report' },
      });
      expect((await confirmWalletOrder(t, u, order.reference)).json().error.code).toBe('account_frozen');
      expect((await place(swap(u, '0.001'), u.headers)).json().error.code).toBe('account_frozen');
      await t.app.inject({
        method: 'POST',
        url: `/api/ops/accounts/${u.accountKey}/unfreeze`,
        headers: t.admin,
        payload: { reason: 'the owner called' },
      });
      expect((await confirmWalletOrder(t, u, order.reference)).json().status).toBe('processing');
      await settle();
      // 20 + 400 exchanged; a send of 640 EUR passes 1,000 EUR.
      await bookAddresses(t, u, [EXTERNAL]);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/wallet/sends',
            headers: u.headers,
            payload: { currency: 'BTC', address: EXTERNAL, amount: '0.008' },
          })
        ).json().error.code,
      ).toBe('mobile_verification_required');
    });
  });

  describe('a deposit converted on arrival is a buy', () => {
    const depositOf = async (u: TestUser, currency: string, amount: string) => {
      const { depositReference } = (await t.app.inject({ url: '/api/me', headers: u.headers })).json();
      const paid = (await pay({ reason: `${depositReference} ${currency}`, amount })).json();
      await settle();
      return paid.reference as string;
    };

    it('past the week without a verified mobile: kept in euros, and the user is told why in their language', async () => {
      const u = await testUser(t, `dep-week-${kind}@muntly.test`);
      await known(u);
      // 20 EUR exchanged before; 990 EUR more passes 1,000 EUR (and stays within the 1,000 EUR deposit limit).
      const reference = await depositOf(u, 'BTC', '990');
      expect(await orderRow(reference)).toMatchObject({
        status: 'completed_success',
        currency_to: 'EUR',
        conversion_refusal: 'mobile_verification_required',
      });
      expect(await balanceOf(t, u.headers, 'EUR')).toBe('990.00');
      expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.00000000');
      const [mail] = (await mails(u.email)).filter((m) => m.subject.includes(reference));
      expect(mail!.body).toContain('needs a verified mobile number');
      const view = (await t.app.inject({ url: '/api/me/orders', headers: u.headers }))
        .json()
        .orders.find((o: { reference: string }) => o.reference === reference);
      expect(view).toMatchObject({ currencyTo: 'EUR', keptInEuros: 'mobile_verification_required' });
    });

    it('the first conversion is capped like a first order, even after euros kept before it', async () => {
      const u = await testUser(t, `dep-first-${kind}@muntly.test`);
      const kept = await depositOf(u, 'EUR', '500');
      expect(await orderRow(kept)).toMatchObject({ status: 'completed_success', conversion_refusal: null });
      const converted = await depositOf(u, 'BTC', '500');
      expect(await orderRow(converted)).toMatchObject({ currency_to: 'EUR', conversion_refusal: 'first_order_limit' });
      expect(await balanceOf(t, u.headers, 'EUR')).toBe('1000.00');
    });

    it('not while buying is switched off', async () => {
      const off = await testApp(kind, { BUY_SELL_ENABLED: 'false' }, { rates });
      try {
        const u = await testUser(off, `dep-off-${kind}@muntly.test`);
        const { depositReference } = (await off.app.inject({ url: '/api/me', headers: u.headers })).json();
        const { reference } = (
          await off.app.inject({
            method: 'POST',
            url: '/api/ops/payment-received',
            headers: off.admin,
            payload: { reason: `${depositReference} BTC`, amount: '50' },
          })
        ).json();
        await processOrders(off.database.db, { ...off.app.workers.settlement, rates });
        const row = (
          (await off.database.db.execute(
            sql`select currency_to, conversion_refusal from orders where reference = ${reference}`,
          )) as unknown as { rows: object[] }
        ).rows[0];
        expect(row).toEqual({ currency_to: 'EUR', conversion_refusal: 'buy_sell_disabled' });
        expect(await balanceOf(off, u.headers, 'EUR')).toBe('50.00');
      } finally {
        await off.close();
      }
    });

    it('an account without a verified bank account may hold neither the crypto nor the euros: the payment goes back', async () => {
      const u = await testUser(t, `dep-nobank-${kind}@muntly.test`, { verified: [], address: false });
      const reference = await depositOf(u, 'USDT', '50'); // a partially supported currency, wallet only
      expect(await orderRow(reference)).toMatchObject({
        status: 'completed_failure',
        failure_reason: 'bank_verification_required',
      });
      const lookup = (
        await t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload: { email: u.email, reference } })
      ).json();
      expect(lookup.failure).toEqual({ reason: 'bank_verification_required', refund: 'bank' });
    });
  });

  describe('customers are linked by who they are, not how they spell it', () => {
    it('one mailbox in many spellings is one week: +tag, Gmail dots, capitals, a Cyrillic е', async () => {
      const spellings = [
        'jane.doe@gmail.com',
        'Jane.Doe+1@gmail.com',
        'janedoe@googlemail.com',
        'j.a.n.e.d.o.e+x@GMAIL.com',
        'jan\u0435doe@gmail.com',
      ];
      await complete((await place(buy(spellings[0]!, '100'))).json());
      const results = [];
      for (const email of spellings.slice(1)) results.push(await place(buy(email, '300')));
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 403]); // 100 + 3 × 300 = 1,000; one more passes it
      expect(results[3]!.json().error.code).toBe('weekly_limit_login_required');
    });

    it('an XRP account is one customer whatever its tag, an ETH address whatever its case', async () => {
      // Each a new email (its first order, at most 100 EUR): ten make 1,000 EUR, the eleventh passes it.
      const xrp = (i: number) => ({
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'XRP',
        amount: '100',
        email: `x${i}-${kind}@example.com`,
        address: `rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh:${i + 1}`,
      });
      for (let i = 0; i < 10; i++) expect((await place(xrp(i))).statusCode).toBe(201);
      expect((await place(xrp(10))).json().error.code).toBe('weekly_limit_login_required');
      const fresh = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
      const spell = (i: number) => (i % 2 ? fresh.toLowerCase() : `0x${fresh.slice(2).toUpperCase()}`);
      const eth = (i: number) => ({
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'ETH',
        amount: '100',
        email: `e${i}-${kind}@example.com`,
        address: spell(i),
      });
      for (let i = 0; i < 10; i++) expect((await place(eth(i))).statusCode).toBe(201);
      expect((await place(eth(10))).json().error.code).toBe('weekly_limit_login_required');
    });

    it("the payer's IBAN links what was paid from it: past the cap the order waits for an operator, who converts or refunds it", async () => {
      const payer = 'DE89370400440532013000';
      // Ten customers (new emails, new addresses), each within every cap, all paid from one IBAN: 1,000 EUR.
      for (let i = 0; i < 10; i++) {
        const order = (await place(buy(`p${i}-${kind}@example.com`, '100'))).json();
        await complete(order, payer);
        expect(await orderRow(order.reference)).toMatchObject({ status: 'completed_success' });
      }
      const b = (await place(buy(`p10-${kind}@example.com`, '100'))).json();
      const c = (await place(buy(`p11-${kind}@example.com`, '100'))).json();
      // Paid from the same IBAN, spelt another way: it waits, funded and not converted.
      await complete(b, 'de89 3704 0044 0532 0130 00');
      expect(await orderRow(b.reference)).toMatchObject({ status: 'processing', review_hold: true });
      const held = (
        await t.app.inject({
          method: 'POST',
          url: '/api/orders/lookup',
          payload: { email: `p10-${kind}@example.com`, reference: b.reference },
        })
      ).json();
      expect(held).toMatchObject({ status: 'processing', reviewHold: true });
      await complete(c, payer);
      expect(await orderRow(c.reference)).toMatchObject({ status: 'processing', review_hold: true });
      const review = (reference: string, decision: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/ops/orders/review',
          headers: t.admin,
          payload: { reference, decision },
        });
      expect((await review(b.reference, 'convert')).json()).toMatchObject({ status: 'processing', reviewHold: false });
      await settle();
      await payOut(t);
      expect(await orderRow(b.reference)).toMatchObject({ status: 'completed_success' });
      expect((await review(c.reference, 'refund')).json()).toMatchObject({
        status: 'completed_failure',
        failureReason: 'weekly_limit_login_required',
      });
      expect((await review(c.reference, 'refund')).json().error.code).toBe('order_not_held');
      const audit = (await t.app.inject({ url: `/api/ops/audit?action=order.review`, headers: t.admin })).json();
      expect(JSON.stringify(audit)).toContain(b.reference);
    });
  });

  describe('strangers cannot spend someone else’s week', () => {
    it('unpaid orders placed in a victim’s email do not count against the victim’s account; refused requests use up no limit', async () => {
      const limited = await testApp(kind, { ORDER_LIMIT_PER_EMAIL_PER_HOUR: '10' }, { rates });
      try {
        const victim = await testUser(limited, `victim-${kind}@muntly.test`, { deposit: '0.1', book: [EXTERNAL] });
        const inject = (payload: object, remoteAddress: string) =>
          limited.app.inject({ method: 'POST', url: '/api/orders', payload, remoteAddress });
        // Ten refused requests in the victim's name (a bad address), from ten clients.
        for (let i = 0; i < 10; i++)
          expect(
            (await inject({ ...buy(victim.email, '100'), address: 'not-an-address' }, `10.9.0.${i}`)).statusCode,
          ).toBe(400);
        // The victim's own order still goes through: a refused request used up nothing.
        expect((await inject(buy(victim.email, '50'), '10.9.1.1')).statusCode).toBe(201);
        // Nine more unpaid orders by strangers (the anonymous cap counts them against more of the same).
        for (let i = 0; i < 9; i++) await inject(buy(victim.email, '100'), `10.9.2.${i}`);
        // The victim's 400 EUR send needs nothing more than the bank verification: nothing of it moved.
        const send = (
          await limited.app.inject({
            method: 'POST',
            url: '/api/wallet/sends',
            headers: victim.headers,
            payload: { currency: 'BTC', address: EXTERNAL, amount: '0.005' },
          })
        ).json();
        expect(send.status).toBe('awaiting_code');
        expect((await confirmSendFromMail(limited, victim, send.id)).json().status).toBe('processing');
      } finally {
        await limited.close();
      }
    });

    it('a logged-in first order is judged by the account, not by another customer’s email typed in the form', async () => {
      const someone = `old-customer-${kind}@example.com`;
      await complete((await place(buy(someone, '50'))).json());
      const newcomer = await testUser(t, `newcomer-${kind}@muntly.test`);
      expect((await place(buy(someone, '500'), newcomer.headers)).json().error.code).toBe('first_order_limit');
      // Anonymous, that email is the customer: known.
      expect((await place(buy(someone, '500'))).statusCode).toBe(201);
    });
  });

  describe('four eyes', () => {
    it('an operator never approves a payout of their own order or account', async () => {
      const customer = `operator-customer-${kind}@muntly.test`;
      // A payout above the approval limit (10,000 EUR): an order to an outside address, paid.
      await complete((await place(buy(customer, '50'))).json());
      await t.app.inject({
        method: 'POST',
        url: '/api/ops/verification/verify',
        headers: t.admin,
        payload: { email: customer, kind: 'id' },
      });
      const u = await testUser(t, customer, { verified: ['bank', 'mobile', 'id'] });
      const order = (await place(buy(customer, '12000'), u.headers)).json();
      await complete(order);
      const [payout] = (await t.app.inject({ url: '/api/ops/payouts?status=awaiting_approval', headers: t.admin }))
        .json()
        .payouts.filter(
          (p: { orderId?: string; reference?: string; id: string; destination: string }) =>
            p.destination === order.address,
        );
      // The same person with the admin permission on their own login, and locally under --as with their email.
      const self = bearer(
        await signToken(t.keys, { sub: `auth0|${customer}`, email: customer, scope: 'use:muntly admin:muntly' }),
      );
      const asEmail = bearer(
        await signToken(t.keys, { sub: `ops-cli:${customer.toUpperCase()}`, scope: 'use:muntly admin:muntly' }),
      );
      for (const headers of [self, asEmail]) {
        const refused = await t.app.inject({ method: 'POST', url: `/api/ops/payouts/${payout.id}/approve`, headers });
        expect(refused.json().error.code).toBe('approval_beneficiary');
      }
      const other = bearer(await signToken(t.keys, { sub: 'ops|someone-else', scope: 'use:muntly admin:muntly' }));
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/ops/payouts/${payout.id}/approve`, headers: other })).json()
          .released,
      ).toBe(false);
    });
  });
});
