/**
 * @jest-environment node
 */
import { HDKey } from '@scure/bip32';
import { deriveAddress, TEST_XPUBS, type Xpubs } from '../src/modules/chain/service';
import { testApp, testUser, type TestApp } from './helpers';

/**
 * The house keys as operators' wallets export them, checked against BIP-84's published test
 * vectors (mnemonic "abandon … about", account m/84'/0'/0'): what a standard wallet that imports
 * the key shows is what Muntly derives.
 */
const BIP84_ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const BIP84_RECEIVE_0 = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const BIP84_RECEIVE_1 = 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g';
const BIP84_CHANGE_0 = 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el';

describe('house keys: xpub and zpub, users on the receive chain, orders on the change chain', () => {
  const withBtc = (key: string): Xpubs => ({ ...TEST_XPUBS, BTC: key });

  it('derives the BIP-84 vectors from the zpub and from the xpub of the same key', () => {
    for (const key of [BIP84_ZPUB, TEST_XPUBS.BTC]) {
      expect(deriveAddress('BTC', withBtc(key), 0, 'users')).toBe(BIP84_RECEIVE_0);
      expect(deriveAddress('BTC', withBtc(key), 1, 'users')).toBe(BIP84_RECEIVE_1);
      expect(deriveAddress('BTC', withBtc(key), 0, 'orders')).toBe(BIP84_CHANGE_0);
    }
    // The same key material: only the version bytes differ.
    const zpub = HDKey.fromExtendedKey(BIP84_ZPUB, { private: 0x04b2430c, public: 0x04b24746 });
    expect(Buffer.from(zpub.publicKey!).toString('hex')).toBe(Buffer.from(HDKey.fromExtendedKey(TEST_XPUBS.BTC).publicKey!).toString('hex'));
  });

  it('refuses a key of another kind or with a broken checksum', () => {
    expect(() => deriveAddress('BTC', withBtc(`ypub${BIP84_ZPUB.slice(4)}`), 0)).toThrow();
    expect(() => deriveAddress('BTC', withBtc(`${BIP84_ZPUB.slice(0, -1)}t`), 0)).toThrow();
  });

  describe('in the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp('pglite', { XPUB_BTC: BIP84_ZPUB });
    });
    afterAll(() => t.close());

    it("places anonymous orders' receiving addresses on the change chain: unpaid orders leave no gap among users' addresses", async () => {
      // Thirty sells nobody pays (small: one IBAN's weekly volume), then a user's first reception address: still receive index 0.
      for (let i = 0; i < 30; i++) {
        const sell = await t.app.inject({
          method: 'POST',
          url: '/api/orders',
          payload: { type: 'sell', currencyFrom: 'BTC', currencyTo: 'EUR', amount: '0.0003', email: `gap-${i}@example.com`, address: 'DE89370400440532013000' },
        });
        expect(sell.statusCode).toBe(201);
        if (i === 0) expect(sell.json().receiving.address).toBe(BIP84_CHANGE_0);
      }
      const u = await testUser(t, 'first-user@muntly.test', { address: false });
      const created = await t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers: u.headers, payload: { currency: 'BTC' } });
      expect(created.json().address).toBe(BIP84_RECEIVE_0);
    });
  });
});
