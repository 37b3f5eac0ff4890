/**
 * @jest-environment node
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { Address, p2pkh, p2wpkh, WIF } from '@scure/btc-signer';
import { Signer } from 'bip322-js';
import * as bitcoinMessage from 'bitcoinjs-message';
import cashaddr from 'cashaddrjs';
import { Wallet as EthWallet } from 'ethers';
import * as keypairs from 'ripple-keypairs';
import { addressKey, controlMessage, verifyControl } from '../control';
import { bitcoinLikeNetwork } from '../networks';
import type { ControlProof } from '../contracts/liabilities';

/**
 * verifyControl (issue 32) against signatures made by wallets' libraries that Muntly does not
 * sign with: bip322-js (BIP-322 simple), bitcoinjs-message (the coins' signed messages), ethers
 * (personal_sign) and ripple-keypairs (the XRP Ledger's signing). What it accepts, anyone's
 * wallet made; then everything it must refuse. The signer's own signatures are checked against
 * the same libraries in server/test/control-signer.test.ts.
 */
const SNAPSHOT = { snapshotId: 7, digest: 'a'.repeat(64) };
const CURRENCIES = ['BTC', 'LTC', 'DOGE', 'BCH', 'ETH', 'XRP'] as const;
type Currency = (typeof CURRENCIES)[number];

/** A fixed key per number (never random: a failure is reproduced as it was). */
const privateKeyOf = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + n) % 251 || 1);
const hash160 = (data: Uint8Array) => ripemd160(sha256(data));

/** The mainnet address of key `n` in a currency, as its wallets write it (and Muntly derives it). */
function addressOf(currency: Currency, n: number): string {
  const privateKey = privateKeyOf(n);
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  switch (currency) {
    case 'BTC':
    case 'LTC':
      return p2wpkh(publicKey, bitcoinLikeNetwork(currency, 'mainnet')).address!;
    case 'DOGE':
      return p2pkh(publicKey, bitcoinLikeNetwork('DOGE', 'mainnet')).address!;
    case 'BCH':
      return cashaddr.encode('bitcoincash', 'P2PKH', hash160(publicKey));
    case 'ETH':
      return new EthWallet(`0x${bytesToHex(privateKey)}`).address;
    case 'XRP':
      return keypairs.deriveAddress(bytesToHex(publicKey).toUpperCase());
  }
}

/** A proof of key `n`'s address signed by the independent library of its scheme. */
function librarySigned(
  currency: Currency,
  n = 1,
  message = controlMessage({ ...SNAPSHOT, currency, address: addressOf(currency, n) }),
): ControlProof {
  const privateKey = privateKeyOf(n);
  const address = addressOf(currency, n);
  const proof = { currency, address, message, publicKey: null };
  switch (currency) {
    case 'BTC':
    case 'LTC': {
      // bip322-js knows Bitcoin's addresses only: the same witness program as one (the signature does not depend on the network).
      const hash = (addressKey(currency, address) as { hash: Uint8Array }).hash;
      const asBitcoin = Address(bitcoinLikeNetwork('BTC', 'mainnet')).encode({ type: 'wpkh', hash });
      return {
        ...proof,
        scheme: 'bip322-simple',
        signature: Signer.sign(
          WIF(bitcoinLikeNetwork('BTC', 'mainnet')).encode(privateKey),
          asBitcoin,
          message,
        ) as string,
      };
    }
    case 'DOGE':
    case 'BCH': {
      const prefix = currency === 'DOGE' ? '\u0019Dogecoin Signed Message:\n' : '\u0018Bitcoin Signed Message:\n';
      return {
        ...proof,
        scheme: 'bitcoin-message',
        signature: bitcoinMessage.sign(message, Buffer.from(privateKey), true, prefix).toString('base64'),
      };
    }
    case 'ETH':
      return {
        ...proof,
        scheme: 'personal_sign',
        signature: new EthWallet(`0x${bytesToHex(privateKey)}`).signMessageSync(message),
      };
    case 'XRP':
      return {
        ...proof,
        scheme: 'xrpl',
        signature: keypairs.sign(Buffer.from(message).toString('hex'), `00${bytesToHex(privateKey).toUpperCase()}`),
        publicKey: bytesToHex(secp256k1.getPublicKey(privateKey, true)).toUpperCase(),
      };
  }
}

describe('proofs of control made by wallets’ libraries', () => {
  it.each(CURRENCIES)('%s: verifies', (currency) => {
    expect(verifyControl(librarySigned(currency), SNAPSHOT)).toEqual({ ok: true });
  });

  it('legacy P2PKH addresses of BTC and LTC, should one be listed, verify with their coin’s magic', () => {
    const publicKey = secp256k1.getPublicKey(privateKeyOf(2), true);
    for (const [currency, prefix] of [
      ['BTC', '\u0018Bitcoin Signed Message:\n'],
      ['LTC', '\u0019Litecoin Signed Message:\n'],
    ] as const) {
      const address = p2pkh(publicKey, bitcoinLikeNetwork(currency, 'mainnet')).address!;
      const message = controlMessage({ ...SNAPSHOT, currency, address });
      const signature = bitcoinMessage.sign(message, Buffer.from(privateKeyOf(2)), true, prefix).toString('base64');
      expect(
        verifyControl({ currency, address, scheme: 'bitcoin-message', message, signature, publicKey: null }, SNAPSHOT),
      ).toEqual({ ok: true });
      // Another coin's magic is another message.
      const other = bitcoinMessage
        .sign(message, Buffer.from(privateKeyOf(2)), true, '\u0019Dogecoin Signed Message:\n')
        .toString('base64');
      expect(
        verifyControl(
          { currency, address, scheme: 'bitcoin-message', message, signature: other, publicKey: null },
          SNAPSHOT,
        ).ok,
      ).toBe(false);
    }
  });

  it('addresses of testnet and regtest too: the key hash is what is checked', () => {
    const publicKey = secp256k1.getPublicKey(privateKeyOf(1), true);
    for (const network of ['testnet', 'regtest'] as const) {
      const address = p2wpkh(publicKey, bitcoinLikeNetwork('LTC', network)).address!;
      const message = controlMessage({ ...SNAPSHOT, currency: 'LTC', address });
      expect(verifyControl({ ...librarySigned('LTC', 1, message), address }, SNAPSHOT)).toEqual({ ok: true });
    }
    const bchreg = cashaddr.encode('bchreg', 'P2PKH', hash160(publicKey));
    const message = controlMessage({ ...SNAPSHOT, currency: 'BCH', address: bchreg });
    expect(verifyControl({ ...librarySigned('BCH', 1, message), address: bchreg }, SNAPSHOT)).toEqual({ ok: true });
  });
});

describe('proofs of control refused', () => {
  /** One good proof of each scheme. */
  const good = (): ControlProof[] => CURRENCIES.map((currency) => librarySigned(currency));
  const refusedWith = (proof: ControlProof, expected = SNAPSHOT) => {
    const verdict = verifyControl(proof, expected);
    expect(verdict.ok).toBe(false);
    expect(verdict.problem).toEqual(expect.any(String));
    return verdict.problem!;
  };

  it.each(good().map((p) => [`${p.currency} ${p.scheme}`, p] as const))(
    '%s: for another address (its message too), the signature is not its key’s',
    (_name, proof) => {
      const other = addressOf(proof.currency as Currency, 2);
      const moved = {
        ...proof,
        address: other,
        message: controlMessage({ ...SNAPSHOT, currency: proof.currency, address: other }),
      };
      expect(refusedWith(moved)).toMatch(
        /not by the address’s key|does not verify|not the address’s|not the account’s master key/,
      );
    },
  );

  it.each(good().map((p) => [`${p.currency} ${p.scheme}`, p] as const))(
    '%s: another message, or the same one checked against another snapshot’s digest or id',
    (_name, proof) => {
      expect(refusedWith({ ...proof, message: `${proof.message} ` })).toMatch(/message/);
      expect(refusedWith(proof, { ...SNAPSHOT, digest: 'b'.repeat(64) })).toMatch(/message/);
      expect(refusedWith(proof, { ...SNAPSHOT, snapshotId: 8 })).toMatch(/message/);
    },
  );

  it.each(good().map((p) => [`${p.currency} ${p.scheme}`, p] as const))(
    '%s: the right message of another digest, signed by the right key, is not this snapshot’s',
    (_name, proof) => {
      const elsewhere = librarySigned(
        proof.currency as Currency,
        1,
        controlMessage({ ...SNAPSHOT, digest: 'c'.repeat(64), currency: proof.currency, address: proof.address }),
      );
      expect(verifyControl(elsewhere, { ...SNAPSHOT, digest: 'c'.repeat(64) })).toEqual({ ok: true });
      refusedWith(elsewhere);
    },
  );

  it.each(good().map((p) => [`${p.currency} ${p.scheme}`, p] as const))(
    '%s: any flipped byte of the signature',
    (_name, proof) => {
      const bytes =
        proof.scheme === 'personal_sign'
          ? Buffer.from(proof.signature.slice(2), 'hex')
          : proof.scheme === 'xrpl'
            ? Buffer.from(proof.signature, 'hex')
            : Buffer.from(proof.signature, 'base64');
      const encode = (b: Buffer) =>
        proof.scheme === 'personal_sign'
          ? `0x${b.toString('hex')}`
          : proof.scheme === 'xrpl'
            ? b.toString('hex').toUpperCase()
            : b.toString('base64');
      for (let i = 0; i < bytes.length; i++) {
        const flipped = Buffer.from(bytes);
        flipped[i] ^= 0x01;
        expect(verifyControl({ ...proof, signature: encode(flipped) }, SNAPSHOT).ok).toBe(false);
      }
    },
  );

  it.each(good().map((p) => [`${p.currency} ${p.scheme}`, p] as const))(
    '%s: under another scheme than the address’s',
    (_name, proof) => {
      for (const other of (['bip322-simple', 'bitcoin-message', 'personal_sign', 'xrpl'] as const).filter(
        (s) => s !== proof.scheme,
      )) {
        expect(refusedWith({ ...proof, scheme: other })).toMatch(/is signed with/);
      }
    },
  );

  it('XRP: a key other than the master key, even one that signs the message', () => {
    const regular = secp256k1.utils.randomSecretKey();
    const good = librarySigned('XRP');
    const proof = {
      ...good,
      signature: keypairs.sign(Buffer.from(good.message).toString('hex'), `00${bytesToHex(regular).toUpperCase()}`),
      publicKey: bytesToHex(secp256k1.getPublicKey(regular, true)).toUpperCase(),
    };
    expect(keypairs.verify(Buffer.from(good.message).toString('hex'), proof.signature, proof.publicKey)).toBe(true);
    expect(refusedWith(proof)).toMatch(/master key/);
    expect(refusedWith({ ...good, publicKey: null })).toMatch(/public key/);
  });

  it('ETH: a high-s twin of a good signature (EIP-2)', () => {
    const proof = librarySigned('ETH');
    const bytes = Buffer.from(proof.signature.slice(2), 'hex');
    const s = BigInt(`0x${bytes.subarray(32, 64).toString('hex')}`);
    const twin = Buffer.concat([
      bytes.subarray(0, 32),
      Buffer.from((secp256k1.Point.Fn.ORDER - s).toString(16).padStart(64, '0'), 'hex'),
      Buffer.of(bytes[64] === 27 ? 28 : 27),
    ]);
    expect(refusedWith({ ...proof, signature: `0x${twin.toString('hex')}` })).toMatch(/upper half/);
  });

  it('addresses no scheme signs for: P2SH, taproot, an XRP X-address, another currency’s', () => {
    const proof = librarySigned('BTC');
    for (const [currency, address] of [
      ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
      ['BTC', 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr'],
      ['XRP', 'X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ'],
      ['ETH', proof.address],
      ['SOL', proof.address],
    ]) {
      expect(
        refusedWith({
          ...proof,
          currency: currency!,
          address: address!,
          message: controlMessage({ ...SNAPSHOT, currency: currency!, address: address! }),
        }),
      ).toMatch(/not an address/);
    }
  });

  it('malformed signatures are refused, never thrown', () => {
    for (const proof of good()) {
      for (const signature of [
        '',
        'AA==',
        '0x',
        'zz',
        '!!!',
        'A'.repeat(88),
        `0x${'00'.repeat(65)}`,
        '3006020101020101',
      ]) {
        expect(verifyControl({ ...proof, signature }, SNAPSHOT).ok).toBe(false);
      }
    }
  });
});
