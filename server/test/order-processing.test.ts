/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { simulatedAdapter } from '../src/dev/simulated-payouts';
import { processOrders } from '../src/modules/orders/settlement';
import { payOut, testApp, testUser, balanceOf, fixedRates, databaseKinds, type TestApp } from './helpers';
import type { PayoutAdapter } from '../src/modules/payouts/adapters';

const rates = fixedRates();
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const IBAN = 'NL91ABNA0417164300';

describe.each(databaseKinds())('order processing (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let chainAnswer: 'pay' | 'refuse' | 'unreachable' = 'pay';
  const chain: PayoutAdapter = {
    name: 'test chain',
    submit: async (input) => {
      if (chainAnswer === 'unreachable') throw new Error('node unreachable');
      // Refuses deliveries only, so the refund to the sender goes through.
      if (chainAnswer === 'refuse' && input.idempotencyKey.startsWith('order-delivery:'))
        return { status: 'failed', reason: 'address rejected by the signer' };
      return simulatedAdapter(t.app.db, 'chain').submit(input);
    },
  };
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates, payoutAdapters: { chain } });
    admin = t.admin;
  });
  afterAll(() => t.close());

  const place = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/orders', headers, payload });
  const pay = (reason: string, amount: string, txid?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/ops/payment-received',
      headers: admin,
      payload: { reason, amount, ...(txid ? { txid } : {}) },
    });
  const chainDeposit = (currency: string, address: string, amount: string, txid?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: admin,
      payload: { currency, address, amount, ...(txid ? { txid } : {}) },
    });
  const lookup = async (email: string, reference: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload: { email, reference } })).json();
  /** One run of the order worker, then of the payout worker; returns how many orders were converted. */
  const work = async () => {
    const settled = await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    await payOut(t);
    return settled;
  };
  const outbox = async (to: string) =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: admin })).json().messages as {
      subject: string;
      body: string;
      channel: string;
    }[];
  const payoutsOf = async (reference: string) =>
    (
      (await t.database.db.execute(
        sql`select p.id, p.purpose, p.status, p.currency, p.amount::text as amount, p.attempts, p.idempotency_key, p.failure_reason from payouts p join orders o on o.id = p.order_id where o.reference = ${reference} order by p.created_at`,
      )) as unknown as { rows: { id: string; idempotency_key: string }[] }
    ).rows;
  /** The payouts clearing account holds money only while a payout is open: none here. */
  const clearingBalances = async () =>
    (
      (await t.database.db.execute(
        sql`select a.currency, a.balance::text as balance from ledger_accounts a where a.system_code = 'payouts' and a.balance <> 0 and not exists (select 1 from payouts p where p.currency = a.currency and p.status not in ('completed', 'failed'))`,
      )) as unknown as { rows: unknown[] }
    ).rows;
  const ledgerOk = async () => (await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json().ok;

  const walletUser = (email: string) => testUser(t, email, { address: false });
  const balance = (headers: Record<string, string>, currency: string) => balanceOf(t, headers, currency);

  it('a buy: placed (email), paid by bank with its short reference, converted at the processing rate and paid out', async () => {
    const order = (
      await place(
        {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '100',
          email: 'Buyer@Example.com',
          address: BTC_ADDRESS,
        },
        { 'accept-language': 'de' },
      )
    ).json();
    expect(order.status).toBe('new');
    expect((await outbox('buyer@example.com'))[0]!.subject).toBe(`Ihre Muntly-Order ${order.reference}`);

    expect(await work()).toBe(0); // nothing paid yet
    // The bank delivers the reason in its own way: lower case, spaces.
    const paid = await pay(order.shortReference.toLowerCase().replace('-', ' '), '100.00', `bank-${kind}-1`);
    expect(paid.json()).toMatchObject({ reference: order.reference, status: 'processing', credited: true });
    expect((await pay(order.shortReference, '100.00', `bank-${kind}-1`)).json()).toMatchObject({ credited: false }); // reported twice

    expect(await work()).toBe(1);
    const done = await lookup('buyer@example.com', order.reference);
    expect(done).toMatchObject({
      status: 'completed_success',
      amountReceived: '100.00',
      actualRate: '0.00001250000000', // BTC per EUR: units of currencyTo per unit of currencyFrom
      actualFee: '2.00',
      actualNetworkFee: '0.00002000',
      actualAmountConverted: '0.00120500',
      payoutTxid: expect.stringMatching(/^[0-9a-f]{64}$/),
      failure: null,
    });
    expect((await outbox('buyer@example.com'))[0]!.subject).toBe(`Order ${order.reference} abgeschlossen`);
    expect(await work()).toBe(0); // settled once
    expect(await ledgerOk()).toBe(true);
  });

  it('a bank payment of another amount, or one nobody can match, is refunded — not kept', async () => {
    const order = (
      await place({
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'ETH',
        amount: '50',
        email: 'short@example.com',
        address: ETH_ADDRESS,
      })
    ).json();
    await pay(order.shortReference, '49.99');
    await work();
    const failed = await lookup('short@example.com', order.reference);
    expect(failed).toMatchObject({
      status: 'completed_failure',
      failure: { reason: 'amount_mismatch', refund: 'bank' },
      actualAmountConverted: null,
    });
    const mail = (await outbox('short@example.com'))[0]!;
    expect(mail.body).toContain('the amount we received differs from the amount ordered');
    expect(mail.body).toContain('we send it back to the bank account it came from (€49.99)');
    expect((await pay('ZZZZ-ZZZZ', '10')).json().error).toMatchObject({ code: 'not_found', field: 'reason' });
    expect((await pay(order.shortReference, '-1')).json().error.code).toBe('invalid_amount');
    expect(await ledgerOk()).toBe(true);
  });

  it('a sell: receiving address per order, crypto arrives, euros go to the IBAN by SEPA', async () => {
    expect(
      (
        await place({
          type: 'sell',
          currencyFrom: 'BTC',
          currencyTo: 'EUR',
          amount: '0.001',
          email: 's@example.com',
          address: 'NL00ABNA0000000000',
        })
      ).json().error,
    ).toMatchObject({
      code: 'invalid_iban',
      field: 'address',
    });
    const order = (
      await place({
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: '0.001',
        email: 'seller@example.com',
        address: 'nl91 abna 0417 1643 00',
        beneficiary: 'Saskia de Boer',
      })
    ).json();
    const other = (
      await place({
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: '0.001',
        email: 'seller2@example.com',
        address: IBAN,
        beneficiary: 'Pieter Jansen',
      })
    ).json();
    expect(order).toMatchObject({
      status: 'new',
      address: IBAN,
      paymentDetails: null,
      receiving: { currency: 'BTC', tag: null, amount: '0.00100000' },
    });
    expect(order.receiving.address).toMatch(/^bc1q/);
    expect(other.receiving.address).not.toBe(order.receiving.address);

    const arrived = await chainDeposit('BTC', order.receiving.address, '0.001', `tx-${kind}-sell`);
    expect(arrived.json()).toMatchObject({ credited: true, orderReference: order.reference });
    expect((await chainDeposit('BTC', order.receiving.address, '0.001', `tx-${kind}-sell-2`)).json().error.code).toBe(
      'order_not_open',
    );
    await work();
    const done = await lookup('seller@example.com', order.reference);
    // 0.001 BTC = 80 EUR, 1.50 % fee = 1.20 EUR.
    expect(done).toMatchObject({
      status: 'completed_success',
      actualFee: '1.20',
      actualAmountConverted: '78.80',
      actualNetworkFee: '0.00',
    });
    const sepa = (await outbox(IBAN)).find((m) => m.channel === 'bank');
    expect(sepa).toMatchObject({
      subject: 'SEPA transfer EUR 78.80',
      body: expect.stringContaining(`Payment reason: ${order.shortReference}`),
    });
  });

  it('a swap from XRP: the house address with a tag of its own', async () => {
    const order = (
      await place({
        type: 'swap',
        currencyFrom: 'XRP',
        currencyTo: 'BTC',
        amount: '150',
        email: 'xrp@example.com',
        address: BTC_ADDRESS,
      })
    ).json();
    expect(order.receiving).toMatchObject({
      currency: 'XRP',
      address: expect.stringMatching(/^r/),
      tag: expect.stringMatching(/^[1-9]\d*$/),
    });
    await chainDeposit('XRP', `${order.receiving.address}:${order.receiving.tag}`, '150');
    await work();
    expect((await lookup('xrp@example.com', order.reference)).status).toBe('completed_success');
  });

  it('a failed payout is refunded to the sender and the fee returned; the ledger still balances', async () => {
    const order = (
      await place({
        type: 'swap',
        currencyFrom: 'ETH',
        currencyTo: 'BTC',
        amount: '0.03',
        email: 'payout@example.com',
        address: BTC_ADDRESS,
      })
    ).json();
    await chainDeposit('ETH', order.receiving.address, '0.03');
    chainAnswer = 'refuse';
    try {
      await work();
    } finally {
      chainAnswer = 'pay';
    }
    expect(await lookup('payout@example.com', order.reference)).toMatchObject({
      status: 'completed_failure',
      failure: { reason: 'payout_failed', refund: 'sender' },
    });
    const [delivery, refund] = await payoutsOf(order.reference);
    expect(delivery).toMatchObject({
      purpose: 'order_delivery',
      status: 'failed',
      failure_reason: 'address rejected by the signer',
    });
    expect(refund).toMatchObject({
      purpose: 'order_refund',
      status: 'completed',
      currency: 'ETH',
      amount: '30000000000000000',
    });
    expect(await ledgerOk()).toBe(true);
    expect(await clearingBalances()).toEqual([]);
  });

  it('a payout whose chain cannot be reached stays processing and is paid later, once, with the same key', async () => {
    const order = (
      await place({
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '40',
        email: 'later@example.com',
        address: BTC_ADDRESS,
      })
    ).json();
    await pay(order.shortReference, '40');
    chainAnswer = 'unreachable';
    try {
      await work();
    } finally {
      chainAnswer = 'pay';
    }
    expect((await lookup('later@example.com', order.reference)).status).toBe('processing');
    const [waiting] = await payoutsOf(order.reference);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    await payOut(t); // still in its back-off: not taken again yet
    expect((await payoutsOf(order.reference))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    await t.database.db.execute(
      sql`update payouts set locked_until = now() - interval '1 second' where id = ${waiting!.id}`,
    );
    expect(await payOut(t)).toBe(1);
    expect(await lookup('later@example.com', order.reference)).toMatchObject({
      status: 'completed_success',
      payoutTxid: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await payoutsOf(order.reference))[0]).toMatchObject({
      status: 'completed',
      attempts: 2,
      idempotency_key: waiting!.idempotency_key,
    });
    expect(await clearingBalances()).toEqual([]);
  });

  it('own wallet: "use my wallet" pays at ordering (never beyond the balance), "send to my wallet" delivers into it', async () => {
    const u = await walletUser(`own-${kind}@example.com`);
    const email = `own-${kind}@example.com`;
    expect((await pay(`deposit ${u.accountKey.toLowerCase()}`, '80.00')).json()).toMatchObject({
      type: 'deposit',
      credited: true,
    });
    await work();
    expect(await balance(u.headers, 'EUR')).toBe('80.00');

    const tooMuch = await place(
      {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '80.01',
        email,
        useMyWallet: true,
        sendToMyWallet: true,
      },
      u.headers,
    );
    expect(tooMuch.json().error.code).toBe('insufficient_balance');
    expect((await t.app.inject({ url: '/api/me/orders', headers: u.headers })).json().orders).toHaveLength(1); // only the deposit

    const order = (
      await place(
        {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '80',
          email,
          useMyWallet: true,
          sendToMyWallet: true,
        },
        u.headers,
      )
    ).json();
    // What the wallet paid is the amount in cents, shown with EUR's decimals like every amount.
    expect(order).toMatchObject({
      status: 'processing',
      paymentDetails: null,
      receiving: null,
      estimatedNetworkFee: '0.00000000',
      amount: '80.00',
      amountReceived: '80.00',
    });
    expect(await balance(u.headers, 'EUR')).toBe('0.00');
    await work();
    // (80 − 2.00 minimum fee) / 80,000, no network fee into the wallet.
    expect(await balance(u.headers, 'BTC')).toBe('0.00097500');
    expect(await ledgerOk()).toBe(true);
  });

  it('deposits: DEPOSIT + key (+ currency) in any case with spaces, within the EUR deposit cap', async () => {
    const u = await walletUser(`dep-${kind}@example.com`);
    await pay(`Deposit ${u.accountKey.slice(0, 4)} ${u.accountKey.slice(4)} btc`, '100.00');
    await pay(`DEPOSIT${u.accountKey}`, '1000.01');
    await work();
    const { orders } = (await t.app.inject({ url: '/api/me/orders', headers: u.headers })).json();
    expect(
      orders.map((o: { type: string; currencyTo: string; status: string }) => [o.type, o.currencyTo, o.status]),
    ).toEqual([
      ['deposit', 'EUR', 'completed_failure'],
      ['deposit', 'BTC', 'completed_success'],
    ]);
    expect(orders[0].failure).toEqual({ reason: 'deposit_limit', refund: 'bank' });
    expect(await balance(u.headers, 'BTC')).toBe('0.00122500'); // (100 − 2.00) / 80,000
    expect((await pay('DEPOSITAAAAAAAA', '10')).json().error.code).toBe('not_found');
  });

  it('two workers racing over the same queue settle every order exactly once', async () => {
    const orders = [];
    for (let i = 0; i < 12; i++) {
      const order = (
        await place({
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '10',
          email: `race${i}@example.com`,
          address: BTC_ADDRESS,
        })
      ).json();
      await pay(order.shortReference, '10');
      orders.push(order);
    }
    const [a, b] = await Promise.all([work(), work()]);
    expect(a + b).toBe(12);
    await Promise.all([payOut(t), payOut(t)]);
    const paid = (await t.database.db.execute(
      sql`select count(*)::int as n from ledger_transfers t join payouts p on t.id = 'payout:' || p.id join orders o on o.id = p.order_id where o.reference in (${sql.join(
        orders.map((o) => sql`${o.reference}`),
        sql`, `,
      )})`,
    )) as unknown as { rows: { n: number }[] };
    expect(paid.rows[0]!.n).toBe(12);
    const { rows } = (await t.database.db.execute(
      sql`select count(*)::int as n from ledger_transfers where id like 'order-delivery:%' and metadata->>'reference' in (${sql.join(
        orders.map((o) => sql`${o.reference}`),
        sql`, `,
      )})`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows[0]!.n).toBe(12);
    expect(await ledgerOk()).toBe(true);
  });

  it('tells the site whether buying and selling are on and where to pay', async () => {
    expect((await t.app.inject({ url: '/api/exchange/config' })).json()).toEqual({
      buySellEnabled: true,
      // Local mode: the sample account, paid to the sample operator's legal name, marked as a sample.
      bank: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', beneficiary: 'Sample Operator Ltd', sample: true },
      explorers: {},
    });
  });
});

describe('block explorers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(
      'pglite',
      { EXPLORER_URL_BTC: 'https://mempool.space/tx/{txid}', EXPLORER_URL_ETH: 'https://etherscan.io/tx/{txid}' },
      { rates },
    );
  });
  afterAll(() => t.close());

  it('tells the site, per currency, where a transaction hash links to (from EXPLORER_URL_<CURRENCY>)', async () => {
    const config = (await t.app.inject({ url: '/api/exchange/config' })).json();
    expect(config.explorers).toEqual({ BTC: 'https://mempool.space/tx/{txid}', ETH: 'https://etherscan.io/tx/{txid}' });
  });
});
