/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import {
  bookAddresses,
  mailedSendCode,
  payOut,
  UUID,
  testApp,
  testUser,
  balanceOf,
  fixedRates,
  databaseKinds,
  type TestApp,
} from './helpers';
import type { VerificationKind } from '#domain/verification';

const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

describe.each(databaseKinds())('wallet sends (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
    admin = t.admin;
  });
  afterAll(() => t.close());

  /** A user with a BTC address holding `btc`, and EXTERNAL in their address book (past its hold). */
  const user = async (email: string, btc = '0', verified: VerificationKind[] = ['bank']) => {
    const u = await testUser(t, email, { verified, deposit: btc === '0' ? undefined : btc });
    if (verified.includes('bank')) await bookAddresses(t, u, [EXTERNAL]);
    return u;
  };
  const start = (headers: Record<string, string>, payload: object, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/wallet/sends', headers: { ...headers, ...extra }, payload });
  const confirm = (headers: Record<string, string>, id: string, code: string) =>
    t.app.inject({ method: 'POST', url: `/api/wallet/sends/${id}/confirm`, headers, payload: { code } });
  const btcBalance = (headers: Record<string, string>) => balanceOf(t, headers, 'BTC');
  const codeFor = (email: string, sendId: string) => mailedSendCode(t, email, sendId);

  it('sends to an external address: fee shown, code emailed naming the send by amount and address, processing, then completed', async () => {
    const a = await user('ext@muntly.test', '0.01');
    const res = await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.005', label: 'Rent' });
    expect(res.statusCode).toBe(201);
    const send = res.json();
    expect(send).toMatchObject({
      status: 'awaiting_code',
      amount: '0.00500000',
      networkFee: '0.00002000',
      internal: false,
      address: EXTERNAL,
    });
    const { messages } = (await t.app.inject({ url: '/api/ops/outbox?to=ext@muntly.test', headers: admin })).json();
    // Named by what the user asked for, never by the send's internal id; in text and in HTML.
    expect(messages[0].subject).toBe('Confirm your send of 0.005 BTC');
    expect(messages[0].body).toContain('Your code to send 0.005 BTC to 1BvBMSEY…JaNVN2:');
    expect(messages[0].body).toContain('Network fee: 0.00002 BTC');
    expect(messages[0].body).toContain(`To: ${EXTERNAL}`);
    expect(messages[0].html).toContain('0.005 BTC');
    expect(messages[0].html).toContain(EXTERNAL);
    for (const text of [messages[0].subject, messages[0].body, messages[0].html]) {
      expect(text).not.toContain(send.id);
      expect(text).not.toMatch(UUID);
    }
    expect(await btcBalance(a.headers)).toBe('0.01000000'); // nothing moves before the code
    const code = await codeFor('ext@muntly.test', send.id);
    expect((await confirm(a.headers, send.id, 'AAAA-AAAA-AAAA-AAAA')).json().error.code).toBe('invalid_code');
    const done = await confirm(a.headers, send.id, code.toLowerCase());
    expect(done.json()).toMatchObject({ status: 'processing', message: 'Your transaction is being processed.' });
    expect(await btcBalance(a.headers)).toBe('0.00498000');
    expect((await confirm(a.headers, send.id, code)).json().error.code).toBe('send_not_pending');
    expect((await t.app.inject({ url: `/api/wallet/sends/${send.id}`, headers: a.headers })).json()).toMatchObject({
      status: 'processing',
      txid: null,
    });
    expect(await payOut(t)).toBeGreaterThanOrEqual(1);
    const paid = (await t.app.inject({ url: `/api/wallet/sends/${send.id}`, headers: a.headers })).json();
    expect(paid).toMatchObject({ status: 'completed', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // The simulated chain broadcast it once, to the address, for the amount.
    const broadcast = (await t.app.inject({ url: `/api/ops/outbox?to=${EXTERNAL}`, headers: admin }))
      .json()
      .messages.filter((m: { channel: string }) => m.channel === 'chain');
    expect(broadcast).toEqual([
      expect.objectContaining({ subject: 'BTC 0.00500000 broadcast', body: expect.stringContaining(paid.txid) }),
    ]);
    const tx = (await t.app.inject({ url: '/api/wallet/transactions', headers: a.headers })).json().transactions;
    expect(tx.map((x: { type: string }) => x.type)).toEqual(expect.arrayContaining(['send', 'fee', 'deposit']));
  });

  it('sends to another Muntly wallet instantly and without network fee', async () => {
    const a = await user('int-a@muntly.test', '0.01');
    const b = await user('int-b@muntly.test');
    await bookAddresses(t, a, [b.address]);
    const send = (await start(a.headers, { currency: 'BTC', address: b.address, amount: '0.004' })).json();
    expect(send).toMatchObject({ internal: true, networkFee: '0.00000000' });
    const done = await confirm(a.headers, send.id, await codeFor('int-a@muntly.test', send.id));
    expect(done.json().status).toBe('completed');
    expect(await btcBalance(a.headers)).toBe('0.00600000');
    expect(await btcBalance(b.headers)).toBe('0.00400000');
    const incoming = (await t.app.inject({ url: '/api/wallet/transactions', headers: b.headers })).json()
      .transactions[0];
    expect(incoming).toMatchObject({ type: 'internal', direction: 'in', amount: '0.00400000' });
  });

  describe('the network fee before sending (GET /api/wallet/send-fee)', () => {
    const fee = (headers: Record<string, string>, currency: string, address: string) =>
      t.app.inject({ url: `/api/wallet/send-fee?${new URLSearchParams({ currency, address })}`, headers });

    it('is the network fee to an external address and none to another Muntly wallet, however typed: what the send then books', async () => {
      const a = await user('fee-a@muntly.test', '0.01');
      const b = await user('fee-b@muntly.test');
      expect((await fee(a.headers, 'btc', EXTERNAL)).json()).toEqual({
        currency: 'BTC',
        networkFee: '0.00002000',
        internal: false,
      });
      // Bech32 addresses may be typed in capitals; the canonical form finds the wallet.
      const internal = await fee(a.headers, 'BTC', ` ${b.address.toUpperCase()} `);
      expect(internal.statusCode).toBe(200);
      expect(internal.json()).toEqual({ currency: 'BTC', networkFee: '0.00000000', internal: true });
      // Allow-list mode: the send goes to an address-book entry (its email is the only one before the send's).
      await bookAddresses(t, a, [b.address]);
      const send = (await start(a.headers, { currency: 'BTC', address: b.address, amount: '0.001' })).json();
      expect(send).toMatchObject({ networkFee: '0.00000000', internal: true });
      // Asking starts nothing: one send, one email with a code (the others are the address book's).
      const { messages } = (await t.app.inject({ url: '/api/ops/outbox?to=fee-a@muntly.test', headers: admin })).json();
      const subjects: string[] = messages.map((m: { subject: string }) => m.subject);
      expect(subjects.filter((subject) => !/^New \w+ address in your address book$/.test(subject))).toEqual([
        expect.stringMatching(/^Confirm your send/),
      ]);
    });

    it('refuses what a send would refuse, and tells a user who may not send nothing about an address', async () => {
      const a = await user('fee-checks@muntly.test');
      const b = await user('fee-checks-b@muntly.test');
      expect((await fee(a.headers, 'BTC', a.address)).json().error).toMatchObject({
        code: 'send_to_own_address',
        field: 'address',
      });
      expect((await fee(a.headers, 'BTC', 'bc1qnotanaddress')).json().error).toMatchObject({
        code: 'invalid_address',
        field: 'address',
      });
      expect((await fee(a.headers, 'USDT', EXTERNAL)).json().error).toMatchObject({
        code: 'currency_partially_supported',
        field: 'currency',
      });
      expect((await fee(a.headers, 'XYZ', EXTERNAL)).json().error).toMatchObject({
        code: 'validation_failed',
        field: 'currency',
        message: 'Unknown currency.',
      });
      const unverified = await user('fee-no-bank@muntly.test', '0', []);
      const refused = await fee(unverified.headers, 'BTC', b.address);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('bank_verification_required');
      expect(refused.body).not.toContain('internal');
      expect((await t.app.inject({ url: `/api/wallet/send-fee?currency=BTC&address=${EXTERNAL}` })).statusCode).toBe(
        401,
      );
    });

    it('answers one account 60 times a minute, then asks it to wait', async () => {
      const a = await user('fee-limit@muntly.test');
      for (let i = 0; i < 60; i++) expect((await fee(a.headers, 'BTC', EXTERNAL)).statusCode).toBe(200);
      const limited = await fee(a.headers, 'BTC', EXTERNAL);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('try_again_soon');
      // Another account is not held up.
      expect((await fee((await user('fee-limit-other@muntly.test')).headers, 'BTC', EXTERNAL)).statusCode).toBe(200);
    });
  });

  it('validates address, amount, balance, currency and the bank verification', async () => {
    const a = await user('checks@muntly.test', '0.001');
    expect(
      (await start(a.headers, { currency: 'BTC', address: 'bc1qnotanaddress', amount: '0.0001' })).json().error,
    ).toMatchObject({ code: 'invalid_address', field: 'address' });
    expect(
      (await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.000000001' })).json().error,
    ).toMatchObject({ code: 'invalid_amount', field: 'amount' });
    expect((await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '-1' })).json().error.code).toBe(
      'invalid_amount',
    );
    // The balance must also cover the network fee.
    expect(
      (await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.001' })).json().error,
    ).toMatchObject({ code: 'insufficient_balance', field: 'amount' });
    expect((await start(a.headers, { currency: 'USDT', address: EXTERNAL, amount: '1' })).json().error.code).toBe(
      'currency_partially_supported',
    );
    const unverified = await user('no-bank@muntly.test', '0', []);
    expect(
      (await start(unverified.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.0001' })).json().error.code,
    ).toBe('bank_verification_required');
  });

  it('asks for mobile verification above 1,000 EUR a week', async () => {
    const a = await user('big@muntly.test', '0.05');
    const res = await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.02' }); // 1,600 EUR
    expect(res.json().error).toMatchObject({
      code: 'mobile_verification_required',
      message: expect.stringContaining('€1,000.00'),
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/verify',
      headers: admin,
      payload: { email: 'big@muntly.test', kind: 'mobile' },
    });
    expect((await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.02' })).statusCode).toBe(201);
  });

  it('honours the Idempotency-Key: one send, one email', async () => {
    const a = await user('idem@muntly.test', '0.01');
    const key = { 'idempotency-key': 'send-123' };
    const first = await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.001' }, key);
    const again = await start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.001' }, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const { messages } = (await t.app.inject({ url: '/api/ops/outbox?to=idem@muntly.test', headers: admin })).json();
    expect(messages.filter((m: { subject: string }) => m.subject.startsWith('Confirm your send'))).toHaveLength(1);
  });

  it("keeps another user's sends out of reach (404) and kills a code after 5 wrong attempts or 10 minutes", async () => {
    const a = await user('victim@muntly.test', '0.01');
    const b = await user('thief@muntly.test');
    await bookAddresses(t, a, [b.address]);
    const send = (await start(a.headers, { currency: 'BTC', address: b.address, amount: '0.01' })).json();
    const code = await codeFor('victim@muntly.test', send.id);
    expect((await confirm(b.headers, send.id, code)).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/wallet/sends/${send.id}`, headers: b.headers })).statusCode).toBe(404);
    for (let i = 0; i < 4; i++)
      expect((await confirm(a.headers, send.id, 'BBBB-BBBB-BBBB-BBBB')).json().error.code).toBe('invalid_code');
    expect((await confirm(a.headers, send.id, 'BBBB-BBBB-BBBB-BBBB')).json().error.code).toBe('code_attempts_exceeded');
    expect((await confirm(a.headers, send.id, code)).json().error.code).toBe('code_attempts_exceeded');

    const second = (await start(a.headers, { currency: 'BTC', address: b.address, amount: '0.001' })).json();
    await t.app.db.execute(
      sql`update wallet_sends set code_expires_at = now() - interval '1 second' where id = ${second.id}`,
    );
    expect(
      (await confirm(a.headers, second.id, await codeFor('victim@muntly.test', second.id))).json().error.code,
    ).toBe('code_expired');
    expect(await btcBalance(a.headers)).toBe('0.01000000');
  });

  if (kind === 'postgresql') {
    it('lets exactly one of 200 concurrent sends of the whole balance through, confirmed at once', async () => {
      const a = await user('racer@muntly.test', '0.01');
      const sends = await Promise.all(
        Array.from({ length: 200 }, () => start(a.headers, { currency: 'BTC', address: EXTERNAL, amount: '0.00998' })),
      );
      expect(sends.every((r) => r.statusCode === 201)).toBe(true);
      const codes = new Map<string, string>();
      for (const r of sends) codes.set(r.json().id, await codeFor('racer@muntly.test', r.json().id));
      const results = await Promise.all(sends.map((r) => confirm(a.headers, r.json().id, codes.get(r.json().id)!)));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(new Set(results.filter((r) => r.statusCode !== 200).map((r) => r.json().error.code))).toEqual(
        new Set(['insufficient_balance']),
      );
      expect(await btcBalance(a.headers)).toBe('0.00000000');
      expect((await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json().ok).toBe(true);
    });
  }
});
