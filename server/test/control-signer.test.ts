/**
 * @jest-environment node
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { Address, WIF } from '@scure/btc-signer';
import { Signer, Verifier } from 'bip322-js';
import * as bitcoinMessage from 'bitcoinjs-message';
import cashaddr from 'cashaddrjs';
import { Wallet as EthWallet, verifyMessage } from 'ethers';
import * as keypairs from 'ripple-keypairs';
import { addressKey, controlMessage, verifyControl } from '#domain/control';
import { bitcoinLikeNetwork, setChainNetwork, type ChainNetwork } from '#domain/networks';
import { deriveAddress, TEST_XPUBS } from '../src/modules/chain/derive';
import { TEST_MNEMONIC } from '../src/signer/keys';
import { seedControlKeys, signControl, type SigningKey } from '../src/signer/reserves';

/**
 * The signer's proofs of control (issue 32): every scheme signed by the signer's own code
 * (server/src/signer/reserves.ts) with the house's test keys, and checked twice, by verifyControl
 * and by a library the project does not sign with (bip322-js, bitcoinjs-message, ethers,
 * ripple-keypairs); where the library signs deterministically too, its signature is the same
 * bytes. Then the addresses the signer refuses to sign for. Tampering: domain/__tests__/control.test.ts.
 */
const SNAPSHOT = { snapshotId: 7, digest: 'a'.repeat(64) };
const keys = seedControlKeys(TEST_MNEMONIC, TEST_XPUBS);

/** The house's change address `index` of a currency, its key from the seed (as the signer derives it), and the message for it. */
function house(currency: 'BTC' | 'LTC' | 'DOGE' | 'BCH' | 'ETH', index = 0) {
  const address = deriveAddress(currency, TEST_XPUBS, index, 'change');
  const key = keys.keyOf({ currency, address, role: 'change', branch: 'change', index });
  if ('refused' in key) throw new Error(key.refused);
  return { currency, address, key, message: controlMessage({ ...SNAPSHOT, currency, address }) };
}
function xrpAccount() {
  const address = TEST_XPUBS.XRP;
  const key = keys.keyOf({ currency: 'XRP', address, role: 'account', branch: null, index: null });
  if ('refused' in key) throw new Error(key.refused);
  return { currency: 'XRP', address, key, message: controlMessage({ ...SNAPSHOT, currency: 'XRP', address }) };
}
const signed = (house: { currency: string; address: string; key: SigningKey; message: string }) =>
  signControl(house, house.key);

/** The same key hash as a Bitcoin address of `network`: BIP-322 and the signed-message format do not depend on the network. */
const asBitcoin = (type: 'wpkh' | 'pkh', hash: Uint8Array, network: ChainNetwork = 'regtest') =>
  Address(bitcoinLikeNetwork('BTC', network)).encode(
    type === 'wpkh' ? { type, hash: Uint8Array.from(hash) } : { type, hash: Uint8Array.from(hash) },
  );
const keyHash = (currency: string, address: string) => {
  const key = addressKey(currency, address);
  if (!key || !('hash' in key)) throw new Error(`no key hash in ${address}`);
  return key.hash;
};

describe.each(['mainnet', 'regtest'] as const)('proofs of control on %s', (network) => {
  beforeAll(() => setChainNetwork(network));
  afterAll(() => setChainNetwork('mainnet'));

  describe('bip322-simple (P2WPKH)', () => {
    it('BTC: the signer’s signature verifies here and in bip322-js, byte for byte what bip322-js signs', () => {
      const btc = house('BTC');
      const proof = signed(btc);
      expect(proof.scheme).toBe('bip322-simple');
      expect(verifyControl(proof, SNAPSHOT)).toEqual({ ok: true });
      expect(Verifier.verifySignature(btc.address, btc.message, proof.signature)).toBe(true);
      // RFC 6979 signatures are deterministic: bip322-js, given the same key, writes the same witness.
      const wif = WIF(bitcoinLikeNetwork('BTC', network)).encode(btc.key.privateKey);
      expect(Signer.sign(wif, btc.address, btc.message)).toBe(proof.signature);
    });

    it('LTC: the same witness program as a Bitcoin address verifies in bip322-js', () => {
      const ltc = house('LTC', 3);
      const proof = signed(ltc);
      expect(proof.scheme).toBe('bip322-simple');
      expect(verifyControl(proof, SNAPSHOT)).toEqual({ ok: true });
      expect(
        Verifier.verifySignature(asBitcoin('wpkh', keyHash('LTC', ltc.address)), ltc.message, proof.signature),
      ).toBe(true);
    });

    it('accepts what bip322-js signs', () => {
      const btc = house('BTC', 1);
      const signature = Signer.sign(
        WIF(bitcoinLikeNetwork('BTC', network)).encode(btc.key.privateKey),
        btc.address,
        btc.message,
      ) as string;
      expect(verifyControl({ ...signed(btc), signature }, SNAPSHOT)).toEqual({ ok: true });
    });
  });

  describe('bitcoin-message (P2PKH)', () => {
    it('DOGE: verifies here and in bitcoinjs-message with Dogecoin’s magic, not with Bitcoin’s', () => {
      const doge = house('DOGE');
      const proof = signed(doge);
      expect(proof.scheme).toBe('bitcoin-message');
      expect(verifyControl(proof, SNAPSHOT)).toEqual({ ok: true });
      expect(
        bitcoinMessage.verify(doge.message, doge.address, proof.signature, '\u0019Dogecoin Signed Message:\n'),
      ).toBe(true);
      expect(bitcoinMessage.verify(doge.message, doge.address, proof.signature)).toBe(false);
    });

    it('BCH: the cashaddr’s key hash as a legacy address verifies in bitcoinjs-message with Bitcoin’s magic', () => {
      const bch = house('BCH', 2);
      const proof = signed(bch);
      expect(proof.scheme).toBe('bitcoin-message');
      expect(verifyControl(proof, SNAPSHOT)).toEqual({ ok: true });
      expect(
        bitcoinMessage.verify(
          bch.message,
          asBitcoin('pkh', Uint8Array.from(cashaddr.decode(bch.address).hash), network),
          proof.signature,
        ),
      ).toBe(true);
    });

    it('accepts what bitcoinjs-message signs (a compressed key)', () => {
      const doge = house('DOGE', 1);
      const signature = bitcoinMessage
        .sign(doge.message, Buffer.from(doge.key.privateKey), true, '\u0019Dogecoin Signed Message:\n')
        .toString('base64');
      expect(verifyControl({ ...signed(doge), signature }, SNAPSHOT)).toEqual({ ok: true });
    });

    it('LTC and BTC legacy addresses, should one be listed, use their own magic', () => {
      const privateKey = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
      const publicKey = secp256k1.getPublicKey(privateKey, true);
      const hash = ripemd160(sha256(publicKey));
      for (const [currency, prefix] of [
        ['LTC', '\u0019Litecoin Signed Message:\n'],
        ['BTC', '\u0018Bitcoin Signed Message:\n'],
      ] as const) {
        const address = Address(bitcoinLikeNetwork(currency, network)).encode({ type: 'pkh', hash });
        const proof = signControl(
          { currency, address, message: controlMessage({ ...SNAPSHOT, currency, address }) },
          { privateKey, publicKey },
        );
        expect(proof.scheme).toBe('bitcoin-message');
        expect(verifyControl(proof, SNAPSHOT)).toEqual({ ok: true });
        expect(bitcoinMessage.verify(proof.message, address, proof.signature, prefix)).toBe(true);
      }
    });
  });

  describe('personal_sign (ether)', () => {
    it('verifies here and in ethers, as ethers signs it', async () => {
      const eth = house('ETH');
      const proof = signed(eth);
      expect(proof.scheme).toBe('personal_sign');
      expect(verifyControl(proof, SNAPSHOT)).toEqual({ ok: true });
      expect(verifyMessage(eth.message, proof.signature)).toBe(eth.address);
      expect(await new EthWallet(`0x${bytesToHex(eth.key.privateKey)}`).signMessage(eth.message)).toBe(proof.signature);
    });
  });

  describe('xrpl', () => {
    it('verifies here and in ripple-keypairs, whose address of the key is the account', () => {
      const xrp = xrpAccount();
      const proof = signed(xrp);
      expect(proof.scheme).toBe('xrpl');
      expect(verifyControl(proof, SNAPSHOT)).toEqual({ ok: true });
      expect(keypairs.verify(Buffer.from(xrp.message).toString('hex'), proof.signature, proof.publicKey!)).toBe(true);
      expect(keypairs.deriveAddress(proof.publicKey!)).toBe(xrp.address);
      // ripple-keypairs' own signature of the message (its private key is 00-prefixed) is the same.
      expect(
        keypairs.sign(Buffer.from(xrp.message).toString('hex'), `00${bytesToHex(xrp.key.privateKey).toUpperCase()}`),
      ).toBe(proof.signature);
    });
  });
});

describe('the signer’s keys for proofs of control', () => {
  const btc = deriveAddress('BTC', TEST_XPUBS, 4, 'change');
  it('derive only the address asked for, at the place asked for', () => {
    expect(
      'privateKey' in keys.keyOf({ currency: 'BTC', address: btc, role: 'change', branch: 'change', index: 4 }),
    ).toBe(true);
    // The API names another index, another branch's address, another currency, or none.
    expect(keys.keyOf({ currency: 'BTC', address: btc, role: 'change', branch: 'change', index: 5 })).toEqual({
      refused: expect.stringMatching(/not this address/),
    });
    const users = deriveAddress('BTC', TEST_XPUBS, 4, 'users');
    expect(keys.keyOf({ currency: 'BTC', address: users, role: 'change', branch: 'change', index: 4 })).toEqual({
      refused: expect.stringMatching(/not this address/),
    });
    expect(keys.keyOf({ currency: 'LTC', address: btc, role: 'change', branch: 'change', index: 4 })).toEqual({
      refused: expect.stringMatching(/not this address/),
    });
    expect(keys.keyOf({ currency: 'BTC', address: btc, role: 'change', branch: 'change', index: null })).toEqual({
      refused: expect.stringMatching(/no derivation index/),
    });
    expect(keys.keyOf({ currency: 'SOL', address: btc, role: 'change', branch: 'change', index: 4 })).toEqual({
      refused: expect.stringMatching(/not a currency/),
    });
  });

  it('sign the XRP account only with the seed’s master key', () => {
    expect(
      'privateKey' in
        keys.keyOf({ currency: 'XRP', address: TEST_XPUBS.XRP, role: 'account', branch: null, index: null }),
    ).toBe(true);
    expect(
      keys.keyOf({
        currency: 'XRP',
        address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY',
        role: 'account',
        branch: null,
        index: null,
      }),
    ).toEqual({ refused: expect.stringMatching(/master key/) });
    expect(keys.keyOf({ currency: 'BTC', address: btc, role: 'account', branch: null, index: null })).toEqual({
      refused: expect.stringMatching(/only XRP/),
    });
  });

  it('refuse a currency whose published key (XPUB_<CUR>) is not the seed’s', () => {
    const other = seedControlKeys(TEST_MNEMONIC, { ...TEST_XPUBS, BTC: TEST_XPUBS.LTC });
    expect(other.keyOf({ currency: 'BTC', address: btc, role: 'change', branch: 'change', index: 4 })).toEqual({
      refused: expect.stringMatching(/XPUB_BTC/),
    });
    // The other currencies are unaffected.
    expect(
      'privateKey' in
        other.keyOf({
          currency: 'ETH',
          address: deriveAddress('ETH', TEST_XPUBS, 0, 'change'),
          role: 'change',
          branch: 'change',
          index: 0,
        }),
    ).toBe(true);
  });
});
