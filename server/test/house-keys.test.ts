/**
 * @jest-environment node
 */
import { HDKey } from '@scure/bip32';
import { normalizeAddress } from '#domain/addresses';
import { CHAIN_NETWORKS, chainNetwork, setChainNetwork } from '#domain/networks';
import { loadConfig } from '../src/config';
import { DERIVED_CURRENCIES, deriveAddress, houseKey, TEST_XPUBS, type Xpubs } from '../src/modules/chain/service';
import { testApp, testUser, type TestApp } from './helpers';

/**
 * The house keys as operators' wallets export them, checked against BIP-84's published test
 * vectors (mnemonic "abandon … about", account m/84'/0'/0'): what a standard wallet that imports
 * the key shows is what Muntly derives.
 */
const BIP84_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
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
    expect(Buffer.from(zpub.publicKey!).toString('hex')).toBe(
      Buffer.from(HDKey.fromExtendedKey(TEST_XPUBS.BTC).publicKey!).toString('hex'),
    );
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
          payload: {
            type: 'sell',
            currencyFrom: 'BTC',
            currencyTo: 'EUR',
            amount: '0.0003',
            email: `gap-${i}@example.com`,
            address: 'NL91ABNA0417164300',
            beneficiary: 'Gap Seller',
          },
        });
        expect(sell.statusCode).toBe(201);
        if (i === 0) expect(sell.json().receiving.address).toBe(BIP84_CHANGE_0);
      }
      const u = await testUser(t, 'first-user@muntly.test', { address: false });
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/wallet/addresses',
        headers: u.headers,
        payload: { currency: 'BTC' },
      });
      expect(created.json().address).toBe(BIP84_RECEIVE_0);
    });
  });
});

/**
 * Testnet and regtest (CHAIN_NETWORK). The expected addresses come from Litecoin Core 0.21.2.1
 * (`litecoind -regtest` and `-testnet`, `deriveaddresses "wpkh(<tpub>/0/0)"` and `"pkh(…)"`, the
 * test keys as tpub), and from re-encoding those, or BIP-84's vectors above, with the `bech32`,
 * `bs58check` and `bchaddrjs` packages: none of them from Muntly's own code.
 */
describe('house keys on testnet and regtest', () => {
  afterEach(() => setChainNetwork('mainnet'));

  // The test keys with the version bytes of tpub (0x043587cf) and vpub (0x045f1cf6), written with bs58check.
  const TPUB = {
    BTC: 'tpubDCxX2sYFS5bDkSe5GKKYHjBW7tgyN1R3UchpLJvdbf54ohxeGRtd8MbDUe1cguVHe4vnK68DsuD5MXjxi9EXx16rb9EnNsaF5KT99CinaJz',
    LTC: 'tpubDD6tzfiuXtx7NhZhePvkuR4N7CPhhG1gUBd4SpDn75VTY6B1U5oBbh4ZWUkg8XkKTqLriV7HGYMpRv4txbnnEiZjKrZay7oYFyfPwjLjJVi',
    DOGE: 'tpubDCLWAMz8iRrbZ39BLZzKNpxi3GJULLttVrWt8t5obo71DXtjULJYesLtqpSaHx1ZQstzszGKDfbSCQPasqngc9VeHR6gM46hVwsXSvtQrHF',
    BCH: 'tpubDCLvPdC87oQxpuaBgdLdEBF3JfcYKv5jz7QemPAd83rLTkNGMFZPKTBx4z1VoWU87QB7zfq1ACnzxBVQy7qUwJaUNoKFpKtTDBLnYqC7PPG',
  };
  const VPUB = {
    BTC: 'vpub5YvMuJNjRSYon44z9QmCfdf8SqJRVNvz6m55Qy5iVjZQxDfUgtiQjnc7CC1fAbED2tAGCZRERUfvtn2DstZGU6HMns6dXXH2wujSc2wfi2x',
    LTC: 'vpub5Z4js6ZPXFuhQJzcXVNRHKXzS919pdXd6KzKXUNs19yogbsqtYcyD85TE2kicDVEreaLbxQHp7pfyAMA8M7WkokEXaRS7mWL8ZwhQYPkxy2',
  };
  const tpubs: Xpubs = { ...TEST_XPUBS, ...TPUB };

  const REGTEST = {
    users: {
      BTC: ['bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx', 'bcrt1qnjg0jd8228aq7egyzacy8cys3knf9xvr3v5hfj'],
      LTC: ['rltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c23g5xdr', 'rltc1qwlezpr3890hcp6vva9twqh27mr6edadrt7wys8'],
      DOGE: ['mnHioPj6vMDGiSUKsXWdX9GEPHoeapF8oi'],
      BCH: ['bchreg:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq2903p4yq'],
    },
    orders: {
      BTC: ['bcrt1q8c6fshw2dlwun7ekn9qwf37cu2rn755ufhry49'],
      LTC: ['rltc1qyeljcy9v88jg8sqvnqh0m5q390xruc5rhezk8s'],
      DOGE: ['mhoVw8zmRcZjxG7Zg4GhwQPBrsFrPDRJdh'],
      BCH: ['bchreg:qr8aeharupyrmhfu0d4tdmsnc5y8cfk47yyw3kn58u'],
    },
  } as const;
  const TESTNET = {
    users: {
      BTC: ['tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0'],
      LTC: ['tltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c25y4uaa'],
      DOGE: ['naxvmcKgLi92MJkVvNBGVPooeJKY4wHDxY'],
      BCH: ['bchtest:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnqseeszx8x'],
    },
    orders: {
      BTC: ['tb1q8c6fshw2dlwun7ekn9qwf37cu2rn755ut76fzv'],
      LTC: ['tltc1qyeljcy9v88jg8sqvnqh0m5q390xruc5rj4rvhw'],
      DOGE: ['nWUhuMbLqyVVb8PjitwLuevm7smjk4GRjQ'],
      BCH: ['bchtest:qr8aeharupyrmhfu0d4tdmsnc5y8cfk47y7j8hs8y6'],
    },
  } as const;

  it.each([
    ['regtest', REGTEST],
    ['testnet', TESTNET],
  ] as const)(
    'on %s, derives the addresses of the network from the xpub and from the tpub of the same key',
    (network, expected) => {
      setChainNetwork(network);
      for (const branch of ['users', 'orders'] as const) {
        for (const [currency, addresses] of Object.entries(expected[branch]) as [
          keyof typeof TPUB,
          readonly string[],
        ][]) {
          addresses.forEach((address, index) => {
            expect(deriveAddress(currency, TEST_XPUBS, index, branch)).toBe(address);
            expect(deriveAddress(currency, tpubs, index, branch)).toBe(address);
            // What Muntly derives, it accepts as an address of the network, and refuses on mainnet.
            expect(normalizeAddress(currency, address)).toBe(address);
            setChainNetwork('mainnet');
            expect(normalizeAddress(currency, address)).toBeNull();
            setChainNetwork(network);
          });
        }
      }
    },
  );

  it('derives the same from a vpub (BIP-84 testnet) as from the zpub and xpub of the key', () => {
    setChainNetwork('regtest');
    for (const key of [BIP84_ZPUB, TEST_XPUBS.BTC, TPUB.BTC, VPUB.BTC])
      expect(deriveAddress('BTC', { ...TEST_XPUBS, BTC: key }, 0)).toBe(REGTEST.users.BTC[0]);
    expect(deriveAddress('LTC', { ...TEST_XPUBS, LTC: VPUB.LTC }, 0)).toBe(REGTEST.users.LTC[0]);
    // Only the version bytes differ: the same public key, chain code, depth and parent.
    const xpub = houseKey(TEST_XPUBS.BTC);
    for (const key of [TPUB.BTC, VPUB.BTC]) {
      const other = houseKey(key);
      expect([other.publicKey, other.chainCode, other.depth, other.parentFingerprint]).toEqual([
        xpub.publicKey,
        xpub.chainCode,
        xpub.depth,
        xpub.parentFingerprint,
      ]);
    }
  });

  it('keeps mainnet addresses on mainnet whatever the key prefix, and ETH and XRP on every network', () => {
    expect(deriveAddress('LTC', tpubs, 0)).toBe('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh');
    expect(deriveAddress('BTC', { ...TEST_XPUBS, BTC: VPUB.BTC }, 0)).toBe(BIP84_RECEIVE_0);
    const mainnet = DERIVED_CURRENCIES.filter((c) => c === 'ETH' || c === 'XRP').map((c) =>
      deriveAddress(c, TEST_XPUBS, 0),
    );
    for (const network of CHAIN_NETWORKS) {
      setChainNetwork(network);
      expect(
        DERIVED_CURRENCIES.filter((c) => c === 'ETH' || c === 'XRP').map((c) => deriveAddress(c, TEST_XPUBS, 0)),
      ).toEqual(mainnet);
    }
  });

  it('refuses the other SLIP-132 prefixes', () => {
    for (const key of [`upub${TPUB.BTC.slice(4)}`, `ypub${TPUB.BTC.slice(4)}`, `tprv${TPUB.BTC.slice(4)}`])
      expect(() => houseKey(key)).toThrow();
  });

  it('CHAIN_NETWORK in the configuration sets the network of the process (default mainnet)', () => {
    expect(loadConfig({ CHAIN_NETWORK: 'regtest' }).CHAIN_NETWORK).toBe('regtest');
    expect(chainNetwork()).toBe('regtest');
    expect(loadConfig({}).CHAIN_NETWORK).toBe('mainnet');
    expect(chainNetwork()).toBe('mainnet');
    expect(() => loadConfig({ CHAIN_NETWORK: 'signet' })).toThrow(/CHAIN_NETWORK/);
  });

  describe('in the app, on regtest', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp('pglite', { CHAIN_NETWORK: 'regtest' });
    });
    afterAll(() => t.close());

    it('gives users regtest reception addresses, and takes regtest payout addresses only', async () => {
      expect(chainNetwork()).toBe('regtest');
      const u = await testUser(t, 'regtest-user@muntly.test', { address: 'LTC' });
      expect(u.address).toBe(REGTEST.users.LTC[0]);
      const buy = (address: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/orders',
          payload: {
            type: 'buy',
            currencyFrom: 'EUR',
            currencyTo: 'LTC',
            amount: '20',
            email: 'regtest-buyer@example.com',
            address,
          },
        });
      expect((await buy(REGTEST.orders.LTC[0])).statusCode).toBe(201);
      expect((await buy('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh')).json().error).toMatchObject({
        code: 'invalid_address',
        field: 'address',
      });
    });
  });
});
