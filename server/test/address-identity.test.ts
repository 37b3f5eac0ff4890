/**
 * @jest-environment node
 */
import bchaddr from 'bchaddrjs';
import { TEST_XPUBS } from '../src/modules/chain/service';
import {
  balanceOf,
  bookAddresses,
  confirmSendFromMail,
  databaseKinds,
  fixedRates,
  testApp,
  testUser,
  type TestApp,
} from './helpers';

/**
 * One address, one identity (issue 15, class 1): a Muntly address typed in any valid spelling is
 * the same address, so a send to it is booked inside Muntly; spellings the standards forbid, sends
 * to oneself, XRP tags nobody has and payout IBANs outside SEPA are refused where they are typed.
 */
describe.each(databaseKinds())('one address, one identity (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
  });
  afterAll(() => t.close());

  const start = (headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/wallet/sends', headers, payload });
  const confirmSend = (email: string, headers: Record<string, string>, sendId: string) =>
    confirmSendFromMail(t, { email, headers }, sendId);

  it.each([
    ['BTC', '0.01', '0.004', (a: string) => a.toUpperCase()],
    ['LTC', '1', '0.4', (a: string) => a.toUpperCase()],
    ['BCH', '1', '0.4', (a: string) => a.replace('bitcoincash:', '').toUpperCase()],
    ['BCH', '1', '0.4', (a: string) => bchaddr.toLegacyAddress(a)], // the same key in legacy form, translated by another library
    ['ETH', '1', '0.1', (a: string) => a.toLowerCase()],
  ])(
    "%s: another user's address in another valid spelling is booked inside Muntly, without network fee",
    async (currency, balance, amount, respell) => {
      const n = `${currency.toLowerCase()}-${respell.toString().length}`;
      const a = await testUser(t, `spell-a-${n}@muntly.test`, { address: currency, deposit: balance });
      const b = await testUser(t, `spell-b-${n}@muntly.test`, { address: currency });
      const typed = respell(b.address);
      expect(typed).not.toBe(b.address);
      // In a's address book as Muntly derived it: the send, typed otherwise, is the same address.
      await bookAddresses(t, a, [{ currency, address: b.address }]);
      const res = await start(a.headers, { currency, address: typed, amount });
      expect(res.statusCode).toBe(201);
      // Stored and shown in the one canonical form: the recipient's address as Muntly derived it.
      expect(res.json()).toMatchObject({
        internal: true,
        address: b.address,
        networkFee: expect.stringMatching(/^0\.0+$/),
      });
      expect((await confirmSend(a.email, a.headers, res.json().id)).json().status).toBe('completed');
      expect(Number(await balanceOf(t, b.headers, currency))).toBe(Number(amount));
    },
  );

  it.each([
    ['BTC', 'bc1QCR8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['LTC', 'ltc1QJMXnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh'],
    ['BCH', 'bitcoincash:QQYX49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6'],
  ])('%s: a mixed-case spelling, which the standard forbids, is an invalid address', async (currency, address) => {
    const a = await testUser(t, `mixed-${currency}@muntly.test`, { address: currency, deposit: '1' });
    expect((await start(a.headers, { currency, address, amount: '0.001' })).json().error).toMatchObject({
      code: 'invalid_address',
      field: 'address',
    });
  });

  it('a send to one of my own addresses, in any spelling, is refused when it is created, in my language', async () => {
    const a = await testUser(t, 'self@muntly.test', { address: 'BTC', deposit: '0.01' });
    for (const address of [a.address, a.address.toUpperCase()]) {
      const res = await start({ ...a.headers, 'accept-language': 'de' }, { currency: 'BTC', address, amount: '0.001' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'send_to_own_address', field: 'address' });
    }
    expect(await balanceOf(t, a.headers, 'BTC')).toBe('0.01000000');
  });

  it("XRP: Muntly's address with a tag no wallet has is refused; with a wallet's tag it is booked inside", async () => {
    const a = await testUser(t, 'xrp-a@muntly.test', { address: 'XRP', deposit: '100' });
    const b = await testUser(t, 'xrp-b@muntly.test', { address: 'XRP' });
    for (const address of [`${TEST_XPUBS.XRP}:999999`, TEST_XPUBS.XRP, `${TEST_XPUBS.XRP}:0`]) {
      expect((await start(a.headers, { currency: 'XRP', address, amount: '1' })).json().error).toMatchObject({
        code: 'unknown_destination_tag',
        field: 'address',
      });
    }
    await bookAddresses(t, a, [{ currency: 'XRP', address: b.address }]);
    expect((await start(a.headers, { currency: 'XRP', address: b.address, amount: '1' })).json()).toMatchObject({
      internal: true,
    });
  });

  it("orders: XRP to Muntly's own address and sell proceeds to an IBAN outside SEPA are refused next to the address", async () => {
    const order = (payload: object) => t.app.inject({ method: 'POST', url: '/api/orders', payload });
    const buyXrp = await order({
      type: 'buy',
      currencyFrom: 'EUR',
      currencyTo: 'XRP',
      amount: '20',
      email: 'house@example.com',
      address: `${TEST_XPUBS.XRP}:5`,
    });
    expect(buyXrp.statusCode).toBe(400);
    expect(buyXrp.json().error).toMatchObject({ code: 'muntly_house_address', field: 'address' });
    const sell = await order({
      type: 'sell',
      currencyFrom: 'BTC',
      currencyTo: 'EUR',
      amount: '0.001',
      email: 'sell-tr@example.com',
      address: 'TR33 0006 1005 1978 6457 8413 26',
    });
    expect(sell.statusCode).toBe(400);
    expect(sell.json().error).toMatchObject({ code: 'iban_outside_sepa', field: 'address' });
    const sepa = await order({
      type: 'sell',
      currencyFrom: 'BTC',
      currencyTo: 'EUR',
      amount: '0.001',
      email: 'sell-ch@example.com',
      address: 'CH93 0076 2011 6238 5295 7',
      beneficiary: 'Urs Keller',
    });
    expect(sepa.statusCode).toBe(201);
  });
});
