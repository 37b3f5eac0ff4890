import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { HDKey } from '@scure/bip32';
import { p2pkh, p2wpkh } from '@scure/btc-signer';
import cashaddr from 'cashaddrjs';
import { eip55 } from '#domain/addresses';
import { HOUSE_BRANCH_CHILD, type HouseBranch } from '#domain/chain';
import { bitcoinLikeNetwork, cashAddrPrefix } from '#domain/networks';

/**
 * Reception addresses derived from watch-only extended public keys: the API never holds a
 * private key. XRP has one address; users are told apart by a destination tag.
 *
 * Two branches of each key (docs/wallet.md, "Importing the house keys"): users' reception
 * addresses are the external chain 0/n, where a standard wallet that imports the key looks for
 * deposits; the receiving addresses of sell and swap orders are the internal (change) chain 1/n.
 * Orders are placed by anyone and often never paid: on a branch of their own their unused
 * addresses never open a gap among users' addresses (a wallet stops looking after 20 unused ones).
 */
export type Xpubs = Record<'BTC' | 'LTC' | 'DOGE' | 'BCH' | 'ETH', string> & { XRP: string };
export const DERIVED_CURRENCIES = ['BTC', 'LTC', 'DOGE', 'BCH', 'ETH', 'XRP'] as const;

/**
 * Local mode's keys: from the BIP-39 test mnemonic "abandon abandon … about", which is public
 * and must never hold real funds. Production sets XPUB_BTC, … and XRP_ADDRESS.
 */
export const TEST_XPUBS: Xpubs = {
  BTC: 'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V',
  LTC: 'xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE',
  DOGE: 'xpub6Bxse8AT19u9HExKtP1EAudLi9CpLxPpxDvanL2fFtM7UFE2Q7TTWRg4bnMnmT4KcyN6GQkSgZmPWDtyUywSii3MDpMNfXSTuzH7gvZywLU',
  BCH: 'xpub6ByHsPNSQXTWZ7PLESMY2FufyYWtLXagSUpMQq7Un96SiThZH2iJB1X7pwviH1WtKVeDP6K8d6xxFzzoaFzF3s8BKCZx8oEDdDkNnp4owAZ',
  ETH: 'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt',
  XRP: 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3',
};

/** The signer's change goes to a third branch (2/n): never a user's or an order's address. */
export type Branch = HouseBranch;
export const BRANCH_CHILD = HOUSE_BRANCH_CHILD;

/**
 * The version bytes (SLIP-132) of the extended public keys operators' wallets export: xpub
 * (BIP-32/44, and what Electrum and Sparrow show for any script type when asked for an xpub) and
 * zpub (native segwit, BIP-84: Electrum's, Sparrow's and hardware wallets' default for bc1 / ltc1),
 * and their testnet counterparts tpub and vpub, which testnet and regtest wallets (Bitcoin Core,
 * Litecoin Core, Electrum --testnet) export. The prefix only names the script and the wallet's
 * network; the key material is the same, and the addresses follow CHAIN_NETWORK.
 */
const KEY_VERSIONS = {
  xpub: { private: 0x0488ade4, public: 0x0488b21e },
  zpub: { private: 0x04b2430c, public: 0x04b24746 },
  tpub: { private: 0x04358394, public: 0x043587cf },
  vpub: { private: 0x045f18bc, public: 0x045f1cf6 },
} as const;

/** The watch-only key of an xpub, zpub, tpub or vpub (throws on anything else, or a key whose checksum fails). */
export function houseKey(extendedKey: string): HDKey {
  const versions = KEY_VERSIONS[extendedKey.slice(0, 4) as keyof typeof KEY_VERSIONS];
  if (!versions) throw new Error('An extended public key starts with xpub, zpub, tpub or vpub.');
  return HDKey.fromExtendedKey(extendedKey, versions);
}

export function deriveAddress(
  currency: (typeof DERIVED_CURRENCIES)[number],
  xpubs: Xpubs,
  index: number,
  branch: Branch = 'users',
): string {
  // Tag 0 means "no tag" on XRP, so tags start at 1; users and orders share the tags of one account.
  if (currency === 'XRP') return `${xpubs.XRP}:${index + 1}`;
  const key = houseKey(xpubs[currency]).deriveChild(BRANCH_CHILD[branch]).deriveChild(index);
  return addressOfKey(currency, key.publicKey!);
}

/** The house's address of a (compressed) public key: the signer derives it from its seed to check an address it is asked to sign for is its own. */
export function addressOfKey(
  currency: Exclude<(typeof DERIVED_CURRENCIES)[number], 'XRP'>,
  publicKey: Uint8Array,
): string {
  switch (currency) {
    case 'BTC':
    case 'LTC':
      return p2wpkh(publicKey, bitcoinLikeNetwork(currency)).address!;
    case 'DOGE':
      return p2pkh(publicKey, bitcoinLikeNetwork('DOGE')).address!;
    case 'BCH':
      return cashaddr.encode(cashAddrPrefix(), 'P2PKH', ripemd160(sha256(publicKey)));
    case 'ETH': {
      const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
      const hash = keccak_256(uncompressed.slice(1));
      return eip55(`0x${Buffer.from(hash.slice(-20)).toString('hex')}`);
    }
  }
}
