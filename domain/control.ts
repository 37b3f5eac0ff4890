import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';
import { Address, Script, SigHash, Transaction } from '@scure/btc-signer';
import cashaddr from 'cashaddrjs';
import { encodeAccountID, isValidClassicAddress } from 'ripple-address-codec';
import { bitcoinLikeNetwork, CHAIN_NETWORKS } from './networks';
import type { ControlProof } from './contracts/liabilities';

/**
 * Proof of control of the house's addresses beside a proof of liabilities (issue 32): for each
 * address listed in a snapshot's reserves, the signer signs this message with the address's key,
 * and anyone can check the signature with a wallet of their own. The message names the address
 * and the snapshot's digest (domain/liabilities.ts snapshotDigest), so a signature proves control
 * at the time of that snapshot, not before it was taken.
 */
export function controlMessage(input: {
  snapshotId: number;
  digest: string;
  currency: string;
  address: string;
}): string {
  return `Muntly proof of reserves\nSnapshot ${input.snapshotId}, digest ${input.digest}\n${input.currency} address ${input.address} is controlled by Muntly.`;
}

/**
 * Each address is signed the way its own wallets sign messages, so anyone can check it with one:
 * - `bip322-simple` (BIP-322, "simple"): native segwit P2WPKH of BTC and LTC, which bip322-js and
 *   wallets implementing BIP-322 verify (docs/proof-of-solvency.md "Proof of control"). The signature is the base64
 *   of the witness [DER signature ‖ SIGHASH_ALL, compressed public key] that spends BIP-322's
 *   virtual to_spend transaction (whose output is the address's script) in to_sign;
 * - `bitcoin-message`: P2PKH addresses (DOGE, BCH; BTC and LTC legacy ones should any be listed),
 *   where the coins' wallets do not implement BIP-322: the "Signed Message" format of Bitcoin
 *   Core's `signmessage` (Dogecoin Core, Litecoin Core, Electron Cash), a 65-byte recoverable
 *   signature in base64 over the double SHA-256 of the coin's magic and the message;
 * - `personal_sign` (EIP-191): ether, a 65-byte r ‖ s ‖ v in hex that ethers' verifyMessage and
 *   any EIP-191 checker verify;
 * - `xrpl`: the XRP Ledger's own signing (ripple-keypairs `sign`): a DER ECDSA signature over the
 *   SHA-512Half of the message's bytes, with the master public key, whose account ID is the address.
 * Pure and without Node APIs: the browser checks proofs with the same code as the API.
 */
export type ControlScheme = ControlProof['scheme'];

/** The magic each coin's `signmessage` prefixes (strMessageMagic in the coin's source); Bitcoin Cash kept Bitcoin's. */
export const MESSAGE_MAGIC: Record<'BTC' | 'LTC' | 'DOGE' | 'BCH', string> = {
  BTC: 'Bitcoin Signed Message:\n',
  BCH: 'Bitcoin Signed Message:\n',
  LTC: 'Litecoin Signed Message:\n',
  DOGE: 'Dogecoin Signed Message:\n',
};

/** What an address commits to: the key hash of a P2WPKH or P2PKH script, an ether address, an XRP account. */
export type AddressKey =
  | { kind: 'p2wpkh' | 'p2pkh'; currency: 'BTC' | 'LTC' | 'DOGE' | 'BCH'; hash: Uint8Array }
  | { kind: 'eth'; address: string }
  | { kind: 'xrp'; account: string };

/**
 * The key an address commits to, on any of the coin's networks (a signature does not depend on the
 * network: the same key hash is checked), or null for an address no scheme here signs for (P2SH,
 * P2WSH, taproot, an XRP X-address, a malformed one).
 */
export function addressKey(currency: string, address: string): AddressKey | null {
  switch (currency) {
    case 'BTC':
    case 'LTC':
    case 'DOGE':
      for (const network of CHAIN_NETWORKS) {
        try {
          const decoded = Address(bitcoinLikeNetwork(currency, network)).decode(address);
          if (decoded.type === 'wpkh' && currency !== 'DOGE') return { kind: 'p2wpkh', currency, hash: decoded.hash };
          if (decoded.type === 'pkh') return { kind: 'p2pkh', currency, hash: decoded.hash };
          return null;
        } catch {
          // another network's address, or none
        }
      }
      return null;
    case 'BCH': {
      // As Muntly writes it (domain/addresses.ts): the lower-case cashaddr with its prefix.
      try {
        const { prefix, type, hash } = cashaddr.decode(address);
        return type === 'P2PKH' && ['bitcoincash', 'bchtest', 'bchreg'].includes(prefix)
          ? { kind: 'p2pkh', currency, hash: Uint8Array.from(hash) }
          : null;
      } catch {
        return null;
      }
    }
    case 'ETH':
      return /^0x[0-9a-fA-F]{40}$/.test(address) ? { kind: 'eth', address: address.toLowerCase() } : null;
    case 'XRP':
      return isValidClassicAddress(address) ? { kind: 'xrp', account: address } : null;
    default:
      return null;
  }
}

/** The scheme an address is signed with, so a signature of one scheme is never accepted for an address of another. */
export function controlScheme(key: AddressKey): ControlScheme {
  switch (key.kind) {
    case 'p2wpkh':
      return 'bip322-simple';
    case 'p2pkh':
      return 'bitcoin-message';
    case 'eth':
      return 'personal_sign';
    case 'xrp':
      return 'xrpl';
  }
}

const hash160 = (data: Uint8Array) => ripemd160(sha256(data));
const sha256d = (data: Uint8Array) => sha256(sha256(data));
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Bitcoin's CompactSize, as the signed-message format prefixes the magic and the message. */
function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  return Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24);
}

/** BIP-322's message hash: SHA-256 tagged "BIP0322-signed-message". */
function bip322MessageHash(message: string): Uint8Array {
  const tag = sha256(utf8ToBytes('BIP0322-signed-message'));
  return sha256(concatBytes(tag, tag, utf8ToBytes(message)));
}

/**
 * The digest a BIP-322 "simple" signature of a P2WPKH key signs: BIP-143's signature hash of
 * to_sign's one input, which spends output 0 (amount 0) of to_spend. to_spend: version 0, one
 * input of the null outpoint (index 0xffffffff, sequence 0) whose scriptSig is OP_0 <message
 * hash>, one output of amount 0 paying the address's script; to_sign: version 0, that input with
 * sequence 0, one OP_RETURN output of amount 0, lock time 0. The script code of P2WPKH is the
 * P2PKH script of the key hash.
 */
export function bip322Sighash(keyHash: Uint8Array, message: string): Uint8Array {
  const script = Script.encode(['OP_0', keyHash]);
  // btc-signer takes a scriptSig only as the last step of an input: the output comes first.
  const toSpend = new Transaction({ version: 0, allowUnknownInputs: true, allowUnknownOutputs: true });
  toSpend.addOutput({ script, amount: 0n });
  toSpend.addInput({
    txid: new Uint8Array(32),
    index: 0xffffffff,
    sequence: 0,
    finalScriptSig: Script.encode(['OP_0', bip322MessageHash(message)]),
  });
  const toSign = new Transaction({ version: 0, allowUnknownInputs: true, allowUnknownOutputs: true });
  toSign.addInput({ txid: toSpend.id, index: 0, sequence: 0 });
  toSign.addOutput({ script: Script.encode(['RETURN']), amount: 0n });
  return toSign.preimageWitnessV0(
    0,
    Script.encode(['DUP', 'HASH160', keyHash, 'EQUALVERIFY', 'CHECKSIG']),
    SigHash.ALL,
    0n,
  );
}

/** The simple signature: the witness stack [signature ‖ hash type, public key], serialized and in base64. */
export function encodeBip322Witness(derSignature: Uint8Array, publicKey: Uint8Array): string {
  const signature = concatBytes(derSignature, Uint8Array.of(SigHash.ALL));
  return base64.encode(
    concatBytes(compactSize(2), compactSize(signature.length), signature, compactSize(publicKey.length), publicKey),
  );
}

/** The witness stack of a simple signature, or null when it is not one (only items shorter than 0xfd bytes occur in P2WPKH). */
function decodeWitness(encoded: string): Uint8Array[] | null {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(encoded);
  } catch {
    return null;
  }
  const items: Uint8Array[] = [];
  let at = 1;
  if (bytes.length === 0 || bytes[0]! >= 0xfd) return null;
  for (let i = 0; i < bytes[0]!; i++) {
    const length = bytes[at];
    if (length === undefined || length >= 0xfd || at + 1 + length > bytes.length) return null;
    items.push(bytes.slice(at + 1, at + 1 + length));
    at += 1 + length;
  }
  return at === bytes.length ? items : null;
}

/** What a coin's `signmessage` signs: SHA-256d(CompactSize ‖ magic ‖ CompactSize ‖ message). */
export function bitcoinMessageHash(currency: keyof typeof MESSAGE_MAGIC, message: string): Uint8Array {
  const magic = utf8ToBytes(MESSAGE_MAGIC[currency]);
  const text = utf8ToBytes(message);
  return sha256d(concatBytes(compactSize(magic.length), magic, compactSize(text.length), text));
}

/** EIP-191 personal_sign: keccak256("\x19Ethereum Signed Message:\n" ‖ byte length ‖ message). */
export function ethMessageHash(message: string): Uint8Array {
  const text = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${text.length}`), text));
}

/** The XRP Ledger's SHA-512Half: the first 32 bytes of SHA-512 (what ripple-keypairs signs). */
export const xrplMessageHash = (message: string): Uint8Array => sha512(utf8ToBytes(message)).slice(0, 32);

/** The XRP classic address of a secp256k1 public key: its account ID (RIPEMD-160 of SHA-256) in the ledger's base58check. */
export const xrpAccountOfKey = (publicKey: Uint8Array): string => encodeAccountID(hash160(publicKey));

/** The ether address of a secp256k1 public key (lower case). */
export const ethAddressOfKey = (publicKey: Uint8Array): string =>
  `0x${bytesToHex(keccak_256(secp256k1.Point.fromBytes(publicKey).toBytes(false).slice(1)).slice(-20))}`;

type Verdict = { ok: boolean; problem?: string };
const refused = (problem: string): Verdict => ({ ok: false, problem });

/**
 * Whether a proof of control is good for a snapshot: the message is the one for its currency,
 * address and this snapshot's id and digest, the scheme is the address's, and the signature is by
 * the key the address commits to. `problem` says what is wrong, in English.
 */
export function verifyControl(proof: ControlProof, expected: { snapshotId: number; digest: string }): Verdict {
  const key = addressKey(proof.currency, proof.address);
  if (!key)
    return refused(`${proof.address} is not an address of ${proof.currency} that a proof of control can be made for`);
  if (proof.scheme !== controlScheme(key))
    return refused(
      `a ${proof.currency} address like ${proof.address} is signed with ${controlScheme(key)}, not ${proof.scheme}`,
    );
  if (proof.message !== controlMessage({ ...expected, currency: proof.currency, address: proof.address }))
    return refused('the message is not the one for this address and snapshot');
  try {
    switch (key.kind) {
      case 'p2wpkh':
        return verifyBip322(key.hash, proof);
      case 'p2pkh':
        return verifyBitcoinMessage(key.currency, key.hash, proof);
      case 'eth':
        return verifyPersonalSign(key.address, proof);
      case 'xrp':
        return verifyXrpl(key.account, proof);
    }
  } catch {
    // A signature or key that does not parse (a point off the curve, a bad DER encoding).
    return refused('the signature is malformed');
  }
}

function verifyBip322(keyHash: Uint8Array, proof: ControlProof): Verdict {
  const witness = decodeWitness(proof.signature);
  if (!witness || witness.length !== 2)
    return refused('a BIP-322 simple signature of a P2WPKH address is a witness of two items');
  const [signature, publicKey] = witness as [Uint8Array, Uint8Array];
  if (signature[signature.length - 1] !== SigHash.ALL) return refused('the signature’s hash type is not SIGHASH_ALL');
  // Segwit scripts take compressed keys only (BIP-143).
  if (publicKey.length !== 33 || !equal(hash160(publicKey), keyHash))
    return refused('the public key is not the address’s');
  const valid = secp256k1.verify(signature.slice(0, -1), bip322Sighash(keyHash, proof.message), publicKey, {
    prehash: false,
    format: 'der',
    lowS: false,
  });
  return valid ? { ok: true } : refused('the signature does not verify');
}

function verifyBitcoinMessage(currency: keyof typeof MESSAGE_MAGIC, keyHash: Uint8Array, proof: ControlProof): Verdict {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(proof.signature);
  } catch {
    return refused('the signature is not base64');
  }
  // Header 27 + recovery id, plus 4 for a compressed key (BIP-137's 31–34); segwit's 35–42 are not for P2PKH.
  const header = bytes[0]!;
  if (bytes.length !== 65 || header < 27 || header > 34)
    return refused('a signed message is 65 bytes with a header of 27 to 34');
  const compressed = header >= 31;
  const signature = secp256k1.Signature.fromBytes(
    concatBytes(Uint8Array.of((header - 27) & 3), bytes.slice(1)),
    'recovered',
  );
  const publicKey = signature.recoverPublicKey(bitcoinMessageHash(currency, proof.message)).toBytes(compressed);
  return equal(hash160(publicKey), keyHash) ? { ok: true } : refused('the signature is not by the address’s key');
}

function verifyPersonalSign(address: string, proof: ControlProof): Verdict {
  if (!/^0x[0-9a-fA-F]{130}$/.test(proof.signature))
    return refused('a personal_sign signature is 65 bytes of hex with 0x');
  const bytes = hexToBytes(proof.signature.slice(2));
  const v = bytes[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery > 1) return refused('v is not 27 or 28');
  const signature = secp256k1.Signature.fromBytes(
    concatBytes(Uint8Array.of(recovery), bytes.slice(0, 64)),
    'recovered',
  );
  // EIP-2: a high s is a second signature of the same key, which ethers and wallets refuse.
  if (signature.hasHighS()) return refused('s is in the upper half of the order');
  const signer = ethAddressOfKey(signature.recoverPublicKey(ethMessageHash(proof.message)).toBytes(true));
  return signer === address ? { ok: true } : refused('the signature is not by the address’s key');
}

function verifyXrpl(account: string, proof: ControlProof): Verdict {
  if (!proof.publicKey || !/^0[23][0-9a-fA-F]{64}$/.test(proof.publicKey))
    return refused('an XRP proof names the 33-byte compressed secp256k1 public key that signed');
  const publicKey = hexToBytes(proof.publicKey);
  // The master key only: a regular key's account ID is not the address.
  if (xrpAccountOfKey(publicKey) !== account) return refused('the public key is not the account’s master key');
  if (!/^[0-9a-fA-F]+$/.test(proof.signature)) return refused('an XRP signature is DER in hex');
  const valid = secp256k1.verify(hexToBytes(proof.signature), xrplMessageHash(proof.message), publicKey, {
    prehash: false,
    format: 'der',
    lowS: false,
  });
  return valid ? { ok: true } : refused('the signature does not verify');
}
