/**
 * @jest-environment node
 */
import { ORDER_LINK_TTL_MS, orderLinks } from '../src/modules/orders/links';
import { linkSecret } from '../src/modules/protection/links';
import { testApp, signToken, bearer, fixedRates, databaseKinds, UUID, type TestApp } from './helpers';

const rates = fixedRates();
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

describe.each(databaseKinds())('orders (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
  });
  afterAll(() => t.close());
  const order = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/orders', headers, payload });
  const buy = (email: string, amount: string, extra: object = {}) => ({
    type: 'buy',
    currencyFrom: 'EUR',
    currencyTo: 'BTC',
    amount,
    email,
    address: BTC_ADDRESS,
    ...extra,
  });

  it('places a buy paid by bank: reference, payment details and the EPC (GiroCode) payload', async () => {
    const res = await order(buy('Buyer@Example.com', '100'));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      reference: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/),
      type: 'buy',
      status: 'new',
      amount: '100.00', // stored in cents: shown with the currency's decimals, however it was typed
      amountEur: '100.00',
      fee: '2.00',
      estimatedNetworkFee: '0.00002000',
      estimatedAmountConverted: '0.00120500',
      address: BTC_ADDRESS,
      rateType: 'floating',
      paymentMethod: 'sepa',
    });
    expect(body.shortReference).toBe(body.reference.slice(0, 9));
    expect(body.paymentDetails).toMatchObject({
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      beneficiary: 'Sample Operator Ltd',
      sample: true,
      amount: '100.00',
      reason: body.shortReference,
      methods: ['sepa', 'sepa_instant'],
    });
    expect(body.paymentDetails.epcPayload.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      'COBADEFFXXX',
      'Sample Operator Ltd',
      'DE89370400440532013000',
      'EUR100.00',
      '',
      '',
      body.shortReference,
    ]); // no line feed after the last element (EPC069-12)
  });

  /** The emails to one address, newest first: subject, text and HTML part. */
  const mailsOf = async (email: string): Promise<{ subject: string; body: string; html: string | null }[]> =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(email)}`, headers: t.admin })).json().messages;
  /** What an HTML part reads as text, so that a value split by markup still counts. */
  const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&');

  it('emails how to pay a bank buy, in text and HTML, in the language of the order (placed anonymously, in one round trip)', async () => {
    const placed = (await order(buy(`pay-de-${kind}@example.com`, '87.5'), { 'accept-language': 'de' })).json();
    const [mail] = await mailsOf(`pay-de-${kind}@example.com`);
    expect(mail!.subject).toBe(`Ihre Muntly-Order ${placed.reference}`);
    for (const text of [mail!.body, textOf(mail!.html!)]) {
      expect(text).toContain('87,50\u00a0€'); // the amount as German writes it
      expect(text).toContain('DE89 3704 0044 0532 0130 00');
      expect(text).toContain('Muntly');
      expect(text).toContain('COBADEFFXXX');
      expect(text).toContain(placed.shortReference);
      expect(text).not.toMatch(UUID);
    }
    expect(mail!.body).toContain(
      `Empfänger: Sample Operator Ltd\nIBAN: DE89 3704 0044 0532 0130 00\nBIC: COBADEFFXXX\nBetrag: 87,50\u00a0€\nVerwendungszweck: ${placed.shortReference}`,
    );
    // The HTML part: the brand in its header, the details as label and value.
    expect(mail!.html).toMatch(/^<!DOCTYPE html><html lang="de" dir="ltr">/);
    expect(mail!.html).toMatch(/<td[^>]*>Muntly<\/td>/);
    expect(mail!.html).toMatch(/<div[^>]*>Verwendungszweck<\/div><div[^>]*>[A-Z]{4}-[A-Z]{4}<\/div>/);
    expect(mail!.html).toMatch(/<div[^>]*>IBAN<\/div><div[^>]*>DE89 3704 0044 0532 0130 00<\/div>/);
  });

  it('emails the same payment details to a logged-in buyer, and to a seller the address to send the crypto to', async () => {
    const headers = bearer(await signToken(t.keys, { sub: `auth0|payer-${kind}`, email: `payer-${kind}@example.com` }));
    const placed = (
      await order(buy(`payer-${kind}@example.com`, '40'), { ...headers, 'accept-language': 'ru' })
    ).json();
    const [mail] = await mailsOf(`payer-${kind}@example.com`);
    for (const text of [mail!.body, textOf(mail!.html!)]) {
      expect(text).toContain('40,00\u00a0€');
      expect(text).toContain('DE89 3704 0044 0532 0130 00');
      expect(text).toContain(placed.shortReference);
      expect(text).not.toMatch(UUID);
    }
    expect(mail!.body).toContain(
      `Получатель: Sample Operator Ltd\nIBAN: DE89 3704 0044 0532 0130 00\nBIC: COBADEFFXXX\nСумма: 40,00\u00a0€\nНазначение платежа: ${placed.shortReference}`,
    );

    const sold = (
      await order({
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: '0.001',
        email: `seller-${kind}@example.com`,
        address: 'DE02120300000000202051',
        beneficiary: 'Sina Verkauf',
      })
    ).json();
    expect(sold.receiving).toMatchObject({ currency: 'BTC', amount: '0.00100000' });
    const [sellMail] = await mailsOf(`seller-${kind}@example.com`);
    for (const text of [sellMail!.body, textOf(sellMail!.html!)]) {
      expect(text).toContain('0.001 BTC');
      expect(text).toContain(sold.receiving.address);
      expect(text).not.toContain('DE89 3704 0044 0532 0130 00'); // nothing to transfer to Muntly's bank
      expect(text).not.toMatch(UUID);
    }
    // Coins are sent, not paid: the deadline says so.
    expect(sellMail!.body).toMatch(/Send within 7 days, by \d{1,2} \w+ \d{4}/);
    expect(sellMail!.body).not.toContain('Pay within');
  });

  it('limits the first order of a new customer to 100 EUR and any order to 30,000 EUR', async () => {
    expect((await order(buy('new@example.com', '100.01'))).json().error).toMatchObject({
      code: 'first_order_limit',
      field: 'amount',
    });
    expect((await order(buy('new@example.com', '100'))).statusCode).toBe(201);
    // An order placed but not paid does not make an old customer (weekly-volume.test.ts completes one).
    expect((await order(buy('new@example.com', '500'))).json().error.code).toBe('first_order_limit');
    expect((await order(buy('new@example.com', '30000.01'))).json().error.code).toBe('order_limit');
  });

  it('answers each rule with its code and field', async () => {
    expect((await order(buy('not-an-email', '10'))).json().error).toMatchObject({
      code: 'invalid_email',
      field: 'email',
    });
    expect((await order(buy('x@example.com', '10', { address: 'bc1qbad' }))).json().error).toMatchObject({
      code: 'invalid_address',
      field: 'address',
    });
    expect((await order(buy('x@example.com', '3'))).json().error).toMatchObject({
      code: 'network_fee_exceeds_amount',
      field: 'amount',
    });
    // At or below the 2.00 EUR minimum fee nothing is left to convert: said as such.
    expect((await order(buy('x@example.com', '2'))).json().error).toMatchObject({
      code: 'amount_below_minimum_fee',
      field: 'amount',
      message: expect.stringContaining('€2.00'),
    });
    expect(
      (
        await order({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'USDT', amount: '10', email: 'x@example.com' })
      ).json().error.code,
    ).toBe('own_wallet_only');
    expect((await order(buy('x@example.com', '10', { sendToMyWallet: true }))).json().error.code).toBe(
      'login_required',
    );
    const user = bearer(await signToken(t.keys, { email: 'wallet@example.com' }));
    expect((await order(buy('wallet@example.com', '10', { sendToMyWallet: true }), user)).json().error.code).toBe(
      'bank_verification_required',
    );
    expect((await order(buy('x@example.com', '10'), { authorization: 'Bearer garbage' })).statusCode).toBe(401);
  });

  it('stores XRP addresses as address:tag (tag 0 when none is needed) and takes only standard ETH addresses', async () => {
    const xrp = await order({
      type: 'buy',
      currencyFrom: 'EUR',
      currencyTo: 'XRP',
      amount: '20',
      email: 'xrp-buyer@example.com',
      address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
    });
    expect(xrp.json().address).toBe('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh:0');
    const tagged = await order({
      type: 'buy',
      currencyFrom: 'EUR',
      currencyTo: 'XRP',
      amount: '20',
      email: 'xrp-buyer@example.com',
      address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh:12345',
    });
    expect(tagged.json().address).toBe('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh:12345');
    const eth = (address: string) =>
      order({
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'ETH',
        amount: '20',
        email: 'eth-buyer@example.com',
        address,
      });
    expect((await eth('0x52908400098527886E0F7030069857D2E4169EE7')).statusCode).toBe(201);
    // A wrong EIP-55 checksum (one letter's case changed) and an ENS name are not standard addresses.
    expect((await eth('0x52908400098527886E0F7030069857D2E4169Ee7')).json().error).toMatchObject({
      code: 'invalid_address',
      field: 'address',
    });
    expect((await eth('vitalik.eth')).json().error.code).toBe('invalid_address');
  });

  it('keeps a customer new while none of their orders has completed, under any email or login', async () => {
    const headers = bearer(
      await signToken(t.keys, { sub: `auth0|returning-${kind}`, email: `returning-${kind}@example.com` }),
    );
    expect((await order(buy(`first-${kind}@example.com`, '90'), headers)).statusCode).toBe(201);
    expect((await order(buy(`second-${kind}@example.com`, '500'), headers)).json().error.code).toBe(
      'first_order_limit',
    );
    expect((await order(buy(`third-${kind}@example.com`, '500'))).json().error.code).toBe('first_order_limit');
  });

  it("lists a logged-in user's own orders only", async () => {
    const me = bearer(await signToken(t.keys, { sub: `auth0|mine-${kind}`, email: `mine-${kind}@example.com` }));
    const other = bearer(await signToken(t.keys, { sub: `auth0|theirs-${kind}` }));
    const placed = (await order(buy(`mine-${kind}@example.com`, '30'), me)).json();
    await order(buy('anonymous@example.com', '30'));
    const mine = (await t.app.inject({ url: '/api/me/orders', headers: me })).json().orders;
    expect(mine.map((o: { reference: string }) => o.reference)).toEqual([placed.reference]);
    // The owner's list carries the order's email, which opens its live events.
    expect(mine[0].email).toBe(`mine-${kind}@example.com`);
    // Placing while logged in, the answer says which address the order's emails go to; anonymously it does not.
    expect(placed.email).toBe(`mine-${kind}@example.com`);
    expect((await order(buy('anonymous@example.com', '30'))).json().email).toBeUndefined();
    expect((await t.app.inject({ url: '/api/me/orders', headers: other })).json().orders).toEqual([]);
    expect((await t.app.inject({ url: '/api/me/orders' })).statusCode).toBe(401);
  });

  it('places one order per Idempotency-Key', async () => {
    const headers = { 'idempotency-key': `key-${kind}` };
    const first = await order(buy('idem@example.com', '50'), headers);
    const again = await order(buy('idem@example.com', '50'), headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json().reference).toBe(first.json().reference);
  });

  it('finds an order by email and full reference only, with one uniform not-found', async () => {
    const placed = (await order(buy('lookup@example.com', '20'))).json();
    const lookup = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload, remoteAddress: `10.0.${kind.length}.1` });
    const found = await lookup({
      email: 'LOOKUP@example.com',
      reference: placed.reference.toLowerCase().replace(/-/g, ''),
    });
    expect(found.json().reference).toBe(placed.reference);
    const wrongEmail = await lookup({ email: 'other@example.com', reference: placed.reference });
    const wrongReference = await lookup({ email: 'lookup@example.com', reference: 'AAAA-AAAA-AAAA-AAAA' });
    expect(wrongEmail.statusCode).toBe(404);
    expect(wrongEmail.json()).toEqual(wrongReference.json());
    expect((await lookup({ email: 'lookup@example.com', reference: placed.shortReference })).statusCode).toBe(404);
  });

  it("opens an order with its signed link, in the email and the placement's answer; a tampered, forged or expired link, or one order's link for another, opens nothing", async () => {
    const placed = (await order(buy(`link-${kind}@example.com`, '30'), { 'accept-language': 'de' })).json();
    const other = (await order(buy(`link-other-${kind}@example.com`, '31'))).json();
    expect(placed.link).toMatch(/^[A-Z]{16}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    expect(placed.payBy).toBe(new Date(Date.parse(placed.date) + 7 * 86_400_000).toISOString());
    const open = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/orders/open',
        payload: { token },
        remoteAddress: `10.7.${kind.length}.1`,
      });
    // The link opens the order, with its email (the live events need it): a reload keeps the order.
    const opened = await open(placed.link);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({
      reference: placed.reference,
      email: `link-${kind}@example.com`,
      status: 'new',
      payBy: placed.payBy,
      link: placed.link,
    });
    // The email carries the same kind of link, to the order history page in the order's language.
    const [mail] = await mailsOf(`link-${kind}@example.com`);
    const emailed = /\/de\/exchange\/order-history\/\?order=([A-Za-z0-9._-]+)/.exec(mail!.body);
    expect(emailed).not.toBeNull();
    expect((await open(emailed![1]!)).json().reference).toBe(placed.reference);
    expect(mail!.body).toMatch(/bis zum \d{1,2}\. \w+ \d{4}/);
    // Local mode's sample account is said to be one, as the page marks it.
    expect(mail!.body).toContain('Beispieldaten – lokaler Modus: Dieses Konto und sein Inhaber sind Beispiele');
    // Another order's reference under this order's signature, a changed expiry or signature: refused alike.
    const [, expires, mac] = placed.link.split('.');
    const otherLetters = other.reference.replace(/-/g, '');
    for (const forged of [
      `${otherLetters}.${expires}.${mac}`,
      `${placed.link.split('.')[0]}.${(parseInt(expires, 36) + 86_400).toString(36)}.${mac}`,
      `${placed.link.slice(0, -2)}AA`,
      'not-a-link',
    ]) {
      const refused = await open(forged);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'link_invalid' });
    }
    // A link made with another key (a forger's) is refused; a genuine one past its lifetime says so.
    const forger = orderLinks({ origin: 'http://x', secret: Buffer.from('not the server key') });
    expect((await open(forger.token(placed.reference))).json().error.code).toBe('link_invalid');
    const server = orderLinks({ origin: t.config.siteOrigin, secret: linkSecret(t.config) });
    const stale = server.token(placed.reference, new Date(Date.now() - ORDER_LINK_TTL_MS - 1000));
    expect((await open(stale)).json().error.code).toBe('order_link_expired');
    expect((await open(server.token(placed.reference))).json().reference).toBe(placed.reference);
  });

  it('rate-limits lookups: guessing references gets "Try again soon!"', async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/orders/lookup',
            payload: { email: 'a@example.com', reference: 'AAAA-AAAA-AAAA-AAAA' },
            remoteAddress: `10.9.${kind.length}.9`,
          })
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await t.app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: { email: 'a@example.com', reference: 'AAAA-AAAA-AAAA-AAAA' },
      remoteAddress: `10.9.${kind.length}.9`,
    });
    expect(limited.json().error).toMatchObject({ code: 'try_again_soon', message: 'Try again soon!' });
  });
});

describe('buying and selling switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite', { BUY_SELL_ENABLED: 'false' }, { rates });
  });
  afterAll(() => t.close());

  it('answers buy_sell_disabled for buy and sell, and still swaps', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '10',
        email: 'a@example.com',
        address: BTC_ADDRESS,
      },
    });
    expect(res.json().error).toMatchObject({
      code: 'buy_sell_disabled',
      message: 'Buying and selling have been disabled since June 2022.',
    });
    const swap = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'swap',
        currencyFrom: 'ETH',
        currencyTo: 'BTC',
        amount: '0.01',
        email: 'a@example.com',
        address: BTC_ADDRESS,
      },
    });
    expect(swap.statusCode).toBe(201);
  });
});

describe("placement limits (issue 16): nobody fills a stranger's mailbox or places orders without end", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(
      'pglite',
      { ORDER_LIMIT_PER_EMAIL_PER_HOUR: '3', ORDER_LIMIT_PER_CLIENT_PER_HOUR: '5' },
      { rates },
    );
  });
  afterAll(() => t.close());
  const place = (email: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/orders',
      remoteAddress,
      payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '10', email, address: BTC_ADDRESS },
    });
  const mailsTo = async (email: string) =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${email}`, headers: t.admin })).json().messages.length;

  it('takes a few orders per email from anywhere, however the address is written; then 429 with the time to wait', async () => {
    // Three clients, one victim, the address re-spelled each time: one counter.
    const answers = [];
    for (const [i, email] of [
      'victim@example.com',
      'VICTIM@Example.com',
      ' victim@example.COM ',
      'Victim@example.com',
    ].entries())
      answers.push(await place(email, `10.1.0.${i}`));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 429]);
    const refused = answers[3]!;
    expect(refused.json().error).toMatchObject({ code: 'try_again_soon' });
    const wait = refused.json().error.retryAfter;
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(refused.headers['retry-after']).toBe(String(wait));
    expect(await mailsTo('victim@example.com')).toBe(3);
  });

  it('takes a few orders per client address, whatever the emails', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await place(`spray-${i}@example.com`, '10.2.0.1')).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // Another client is not affected.
    expect((await place('someone-else@example.com', '10.2.0.2')).statusCode).toBe(201);
  });
});
