import { keccak_256 } from '@noble/hashes/sha3.js';
import { Address } from '@scure/btc-signer';
import cashaddr from 'cashaddrjs';
import { isValidClassicAddress } from 'ripple-address-codec';
import { bitcoinLikeNetwork, cashAddrPrefix, type BitcoinLikeNetwork } from './networks';

/**
 * Address formats of the fully supported currencies, with maintained libraries (no hand-rolled
 * base58 or bech32). Shared by the send form, the API and address derivation. BTC, LTC, DOGE and
 * BCH follow the chain network (domain/networks.ts); these two constants stay mainnet's.
 */
export const LTC_NETWORK = bitcoinLikeNetwork('LTC', 'mainnet');
export const DOGE_NETWORK = bitcoinLikeNetwork('DOGE', 'mainnet');

/** EIP-55: the mixed-case checksum of an Ethereum address. */
export function eip55(hexAddress: string): string {
  const lower = hexAddress.toLowerCase().replace(/^0x/, '');
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i];
  }
  return out;
}

/**
 * The canonical form of a base58 or bech32 address on a Bitcoin-like network, or null. The
 * library refuses mixed-case bech32 (BIP-173) and checks every checksum; encoding the decoded
 * address again gives one spelling per address: bech32 in lower case, base58 as it is.
 */
function canonicalBitcoinLike(network: BitcoinLikeNetwork, value: string): string | null {
  try {
    const address = Address(network);
    return address.encode(address.decode(value));
  } catch {
    return null;
  }
}

/** Every letter in one case: cashaddr, like bech32, forbids mixing them. */
const oneCase = (value: string) => value === value.toLowerCase() || value === value.toUpperCase();

/**
 * Bitcoin Cash: a cashaddr with or without the network's prefix (`bitcoincash:`, `bchtest:`,
 * `bchreg:`), in upper or lower case, or the same key in the network's legacy form (1…, 3… on
 * mainnet). All of them are one address, stored as the lower-case cashaddr with its prefix, which
 * is how Muntly derives its own. Another network's prefix is refused like a wrong checksum.
 */
function canonicalBch(value: string): string | null {
  const prefix = cashAddrPrefix();
  if (/^([a-z]+:)?[qp]/i.test(value)) {
    if (!oneCase(value)) return null;
    const lower = value.toLowerCase();
    try {
      const { prefix: given, type, hash } = cashaddr.decode(lower.includes(':') ? lower : `${prefix}:${lower}`);
      return given === prefix ? cashaddr.encode(prefix, type, hash) : null;
    } catch {
      return null;
    }
  }
  try {
    // Legacy addresses of Bitcoin Cash carry Bitcoin's version bytes.
    const legacy = Address(bitcoinLikeNetwork('BTC')).decode(value);
    if (legacy.type === 'pkh') return cashaddr.encode(prefix, 'P2PKH', legacy.hash);
    if (legacy.type === 'sh') return cashaddr.encode(prefix, 'P2SH', legacy.hash);
  } catch {
    // neither form
  }
  return null;
}

/**
 * The address in its one canonical form, as it is stored and compared, or null when it is not a
 * valid address of the currency ('Invalid address.'). Every valid spelling of one address gives
 * the same result: bech32 (BTC, LTC) in lower case, BCH as its lower-case cashaddr with prefix,
 * ETH with its EIP-55 checksum, XRP as address:tag (tag 0 when none).
 */
export function normalizeAddress(currency: string, input: string): string | null {
  const value = input.trim();
  switch (currency) {
    case 'BTC':
    case 'LTC':
    case 'DOGE':
      return canonicalBitcoinLike(bitcoinLikeNetwork(currency), value);
    case 'BCH':
      return canonicalBch(value);
    case 'ETH': {
      if (!/^0[xX][0-9a-fA-F]{40}$/.test(value)) return null;
      const hex = value.slice(2);
      const checksummed = eip55(hex);
      // All lower or all upper case carries no checksum; mixed case is a checksum, and must match.
      if (!oneCase(hex) && `0x${hex}` !== checksummed) return null; // a typo the checksum caught
      return checksummed;
    }
    case 'XRP': {
      const match = /^(r[1-9A-HJ-NP-Za-km-z]{24,34})(?::(\d{1,10}))?$/.exec(value);
      if (!match || !isValidClassicAddress(match[1]!)) return null;
      const tag = match[2] === undefined ? 0 : Number(match[2]);
      if (tag > 0xffffffff) return null;
      return `${match[1]}:${tag}`;
    }
    default:
      return null;
  }
}

/** XRP: the account part of a stored address:tag. */
export const xrpAccountOf = (address: string) => address.split(':')[0]!;

/**
 * Who owns a payout destination (its canonical form, as normalizeAddress gives it), for linking a
 * customer's orders: an XRP account whatever its destination tag (a tag tells the owner's
 * customers apart, not owners), an ETH address in one case (EIP-55 only adds a checksum in the
 * case), every other address and an IBAN as they are (one canonical form already).
 */
export function payoutOwnerKey(currency: string, destination: string): string {
  if (currency === 'XRP') return xrpAccountOf(destination);
  if (currency === 'ETH') return destination.toLowerCase();
  return destination;
}
