import { Address, NETWORK } from '@scure/btc-signer';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { isValidClassicAddress } from 'ripple-address-codec';
import cashaddr from 'cashaddrjs';

/**
 * Address formats of the fully supported currencies, with maintained libraries (no hand-rolled
 * base58 or bech32). Shared by the send form, the API and address derivation.
 */
export const LTC_NETWORK = { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 };
export const DOGE_NETWORK = { bech32: 'doge', pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e };

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

const decodes = (network: typeof NETWORK, value: string) => {
  try {
    Address(network).decode(value);
    return true;
  } catch {
    return false;
  }
};

/** The address as it is stored, or null when invalid ('Invalid address.'). XRP becomes address:tag. */
export function normalizeAddress(currency: string, input: string): string | null {
  const value = input.trim();
  switch (currency) {
    case 'BTC':
      return decodes(NETWORK, value) ? value : null;
    case 'LTC':
      return decodes(LTC_NETWORK, value) ? value : null;
    case 'DOGE':
      return decodes(DOGE_NETWORK, value) ? value : null;
    case 'BCH': {
      const withPrefix = value.toLowerCase().startsWith('bitcoincash:') ? value.toLowerCase() : `bitcoincash:${value.toLowerCase()}`;
      try {
        cashaddr.decode(withPrefix);
        return withPrefix;
      } catch {
        return decodes(NETWORK, value) && !value.startsWith('bc1') ? value : null; // legacy 1…/3…
      }
    }
    case 'ETH': {
      if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return null;
      const checksummed = eip55(value);
      const mixedCase = value.slice(2) !== value.slice(2).toLowerCase() && value.slice(2) !== value.slice(2).toUpperCase();
      if (mixedCase && value !== checksummed) return null; // a typo the checksum caught
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
