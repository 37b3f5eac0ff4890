/**
 * @jest-environment node
 */
import bchaddr from 'bchaddrjs';
import { bech32 } from 'bech32';
import fc from 'fast-check';
import { normalizeAddress } from '../addresses';
import {
  CHAIN_NETWORKS,
  bitcoinLikeNetwork,
  cashAddrPrefix,
  chainNetwork,
  setChainNetwork,
  type ChainNetwork,
} from '../networks';

/**
 * Addresses of the BIP-39 test mnemonic's keys (server/src/modules/chain/derive.ts TEST_XPUBS,
 * first receive address), written by programs other than Muntly's: the mainnet forms are those of
 * addresses.test.ts; LTC's and the 0x6f legacy forms are Litecoin Core 0.21.2.1's answers
 * (`litecoind -regtest` / `-testnet`, `deriveaddresses` of wpkh(), sh(wpkh()) and pkh() of the keys
 * as tpub); the others re-encode those with the `bech32`, `bs58check` and `bchaddrjs` packages.
 */
const KEY = {
  BTC: {
    mainnet: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
    testnet: 'tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0',
    regtest: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx',
  },
  LTC: {
    mainnet: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh',
    testnet: 'tltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c25y4uaa',
    regtest: 'rltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c23g5xdr',
  },
  DOGE: {
    mainnet: 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC',
    testnet: 'naxvmcKgLi92MJkVvNBGVPooeJKY4wHDxY',
    regtest: 'mnHioPj6vMDGiSUKsXWdX9GEPHoeapF8oi',
  },
  BCH: {
    mainnet: 'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6',
    testnet: 'bchtest:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnqseeszx8x',
    regtest: 'bchreg:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq2903p4yq',
  },
} as const;
/** Litecoin Core: sh(wpkh()) of the LTC key (SCRIPT_ADDRESS2, the same on testnet and regtest), and the same script hash with Bitcoin's 0xc4. */
const LTC_P2SH_TEST = 'QhQvX7cpWZ9jazhCgLy16vcYVrdzKW6DCC';
const LTC_P2SH_BITCOIN_STYLE = '2NE4AQ6kaVT6eSowA4Evz2EB7MUCATvkRAe';
/** Litecoin Core: pkh() of the LTC key and of the BCH key on regtest (0x6f: also BTC's and BCH's testnet and regtest legacy form). */
const LTC_P2PKH_TEST = 'muGKTuUuomoxgpaMSzREeDxe76uaTDbmde';
const BCH_LEGACY_TEST = 'mgHTPiJDAkm6zQPxeNDFQZZHJCbGBYdRkC';

afterEach(() => setChainNetwork('mainnet'));

describe('the chain network', () => {
  it('is mainnet unless GATSBY_CHAIN_NETWORK, inlined into the site at build time, names another', () => {
    const read = (value: string | undefined) => {
      const saved = process.env.GATSBY_CHAIN_NETWORK;
      if (value === undefined) delete process.env.GATSBY_CHAIN_NETWORK;
      else process.env.GATSBY_CHAIN_NETWORK = value;
      try {
        let network: ChainNetwork | undefined;
        jest.isolateModules(() => {
          network = jest.requireActual<typeof import('../networks')>('../networks').chainNetwork();
        });
        return network;
      } finally {
        if (saved === undefined) delete process.env.GATSBY_CHAIN_NETWORK;
        else process.env.GATSBY_CHAIN_NETWORK = saved;
      }
    };
    expect(read(undefined)).toBe('mainnet');
    expect(read('regtest')).toBe('regtest');
    expect(read('testnet')).toBe('testnet');
    expect(read('signet')).toBe('mainnet');
  });

  it('is set for the whole process, and refuses a name it does not know', () => {
    setChainNetwork('regtest');
    expect(chainNetwork()).toBe('regtest');
    expect(() => setChainNetwork('Regtest' as ChainNetwork)).toThrow(/Unknown chain network/);
    expect(chainNetwork()).toBe('regtest');
  });

  // The numbers as chainparams.cpp writes them (decimal): base58Prefixes PUBKEY_ADDRESS,
  // SCRIPT_ADDRESS (LTC: SCRIPT_ADDRESS2), SECRET_KEY, and bech32_hrp.
  it.each([
    ['BTC', 'mainnet', 'bc', 0, 5, 128],
    ['BTC', 'testnet', 'tb', 111, 196, 239],
    ['BTC', 'regtest', 'bcrt', 111, 196, 239],
    ['LTC', 'mainnet', 'ltc', 48, 50, 176],
    ['LTC', 'testnet', 'tltc', 111, 58, 239],
    ['LTC', 'regtest', 'rltc', 111, 58, 239],
    ['DOGE', 'mainnet', '', 30, 22, 158],
    ['DOGE', 'testnet', '', 113, 196, 241],
    ['DOGE', 'regtest', '', 111, 196, 239],
  ] as const)(
    '%s %s: bech32 %j, pubkey %i, script %i, secret %i',
    (currency, network, hrp, pubKeyHash, scriptHash, wif) => {
      expect(bitcoinLikeNetwork(currency, network)).toEqual({ bech32: hrp, pubKeyHash, scriptHash, wif });
    },
  );

  it('follows the setting when no network is named', () => {
    setChainNetwork('testnet');
    expect(bitcoinLikeNetwork('LTC').bech32).toBe('tltc');
    expect(cashAddrPrefix()).toBe('bchtest');
    setChainNetwork('regtest');
    expect(cashAddrPrefix()).toBe('bchreg');
    expect(cashAddrPrefix('mainnet')).toBe('bitcoincash');
  });
});

describe('addresses on each chain network', () => {
  const on = (network: ChainNetwork, currency: string, input: string) => {
    setChainNetwork(network);
    return normalizeAddress(currency, input);
  };

  it.each(
    CHAIN_NETWORKS.flatMap((network) =>
      (['BTC', 'LTC', 'DOGE', 'BCH'] as const).map((currency) => [currency, network] as const),
    ),
  )("%s on %s: the network's own form is valid; every other network's is not", (currency, network) => {
    expect(on(network, currency, KEY[currency][network])).toBe(KEY[currency][network]);
    for (const other of CHAIN_NETWORKS.filter((n) => n !== network))
      expect(on(network, currency, KEY[currency][other])).toBeNull();
  });

  it('LTC on regtest: rltc1 in either case, the P2SH and P2PKH forms Litecoin Core writes', () => {
    expect(on('regtest', 'LTC', KEY.LTC.regtest.toUpperCase())).toBe(KEY.LTC.regtest);
    expect(on('regtest', 'LTC', LTC_P2SH_TEST)).toBe(LTC_P2SH_TEST);
    expect(on('testnet', 'LTC', LTC_P2SH_TEST)).toBe(LTC_P2SH_TEST);
    expect(on('regtest', 'LTC', LTC_P2PKH_TEST)).toBe(LTC_P2PKH_TEST);
    // Like 3… on mainnet, the Bitcoin-style P2SH is refused: it reads as a Bitcoin testnet address.
    expect(on('regtest', 'LTC', LTC_P2SH_BITCOIN_STYLE)).toBeNull();
    expect(on('mainnet', 'LTC', LTC_P2SH_TEST)).toBeNull();
  });

  it('BTC on testnet and regtest: the same legacy bytes, different bech32 prefixes', () => {
    expect(on('regtest', 'BTC', 'my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe')).toBe('my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe');
    expect(on('testnet', 'BTC', 'my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe')).toBe('my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe');
    expect(on('mainnet', 'BTC', 'my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe')).toBeNull();
    // An LTC regtest address is not a BTC one, whatever the network.
    expect(on('regtest', 'BTC', KEY.LTC.regtest)).toBeNull();
  });

  it('DOGE: testnet and regtest differ in their pubkey byte; no network has bech32 addresses', () => {
    expect(on('regtest', 'DOGE', LTC_P2PKH_TEST)).toBe(LTC_P2PKH_TEST);
    expect(on('testnet', 'DOGE', LTC_P2PKH_TEST)).toBeNull();
    // P2SH is 0xc4 (2…) on both.
    expect(on('testnet', 'DOGE', LTC_P2SH_BITCOIN_STYLE)).toBe(LTC_P2SH_BITCOIN_STYLE);
    expect(on('regtest', 'DOGE', LTC_P2SH_BITCOIN_STYLE)).toBe(LTC_P2SH_BITCOIN_STYLE);
    const program = [0, ...bech32.toWords(new Uint8Array(20).fill(7))];
    for (const [network, hrp] of [
      ['mainnet', 'doge'],
      ['testnet', 'tdge'],
      ['regtest', 'dcrt'],
    ] as const)
      expect(on(network, 'DOGE', bech32.encode(hrp, program))).toBeNull();
  });

  it("BCH: the network's cashaddr with or without prefix, in either case, and its legacy form (translated by bchaddrjs) are one address", () => {
    expect(bchaddr.toCashAddress(BCH_LEGACY_TEST)).toBe(KEY.BCH.testnet);
    for (const network of ['testnet', 'regtest'] as const) {
      const cash = KEY.BCH[network];
      const payload = cash.slice(cash.indexOf(':') + 1);
      for (const spelling of [cash, payload, cash.toUpperCase(), payload.toUpperCase(), BCH_LEGACY_TEST])
        expect(on(network, 'BCH', spelling)).toBe(cash);
    }
    // Without its prefix, a cashaddr is checked against the network's: another network's checksum fails.
    expect(on('regtest', 'BCH', KEY.BCH.testnet.slice('bchtest:'.length))).toBeNull();
    expect(on('mainnet', 'BCH', KEY.BCH.regtest.slice('bchreg:'.length))).toBeNull();
    expect(on('mainnet', 'BCH', BCH_LEGACY_TEST)).toBeNull();
    expect(on('regtest', 'BCH', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu')).toBeNull();
  });

  it('ETH and XRP do not depend on the network', () => {
    for (const network of CHAIN_NETWORKS) {
      expect(on(network, 'ETH', '0x9858effd232b4033e47d90003d41ec34ecaeda94')).toBe(
        '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
      );
      expect(on(network, 'XRP', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3')).toBe('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3:0');
    }
  });

  it.each([
    ['BTC', { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' }],
    ['LTC', { mainnet: 'ltc', testnet: 'tltc', regtest: 'rltc' }],
  ] as const)(
    '%s: a bech32 address written by the independent bech32 library is valid on its network only',
    (currency, prefixes) => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 20, maxLength: 20 }),
          fc.constantFrom(...CHAIN_NETWORKS),
          (hash, network) => {
            const words = [0, ...bech32.toWords(hash)];
            for (const other of CHAIN_NETWORKS) {
              const written = bech32.encode(prefixes[other], words);
              expect(on(network, currency, written)).toBe(other === network ? written : null);
            }
          },
        ),
      );
    },
  );
});
