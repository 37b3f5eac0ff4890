import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { signECDSA } from '@scure/btc-signer/utils.js';
import { isNodeCurrency, type NodeCurrency } from '#domain/chain';
import {
  addressKey,
  bip322Sighash,
  bitcoinMessageHash,
  controlScheme,
  encodeBip322Witness,
  ethMessageHash,
  xrpAccountOfKey,
  xrplMessageHash,
  type AddressKey,
} from '#domain/control';
import { addressOfKey, type Xpubs } from '../modules/chain/derive';
import { houseSigners, type HouseSigner } from './keys';
import { XRP_DERIVATION_PATH } from './xrp';
import type { ControlRequest, ControlRequestsResponse, ControlSubmitResponse } from '#domain/contracts/control';
import type { ControlProof } from '#domain/contracts/liabilities';
import type { SignerApi } from './signer';

/**
 * The signer's proofs of control (issue 32; `npm run signer -- sign-reserves <snapshotId>`): it
 * asks the API what a published snapshot's reserves list (GET
 * /api/ops/liabilities/:id/control-requests), signs each address's message with the address's own
 * key, in the scheme the address's wallets use (domain/control.ts), and posts the proofs (POST
 * /api/ops/liabilities/:id/control), which the API verifies before it stores them.
 *
 * The API says which address and where the key derives; the signer trusts neither: it derives the
 * key from its own seed at that place, and signs only when the key's address is the one asked for
 * (a change address at (2, index) of the coin's account, the XRP account at its BIP-44 path). So a
 * compromised API cannot have it sign for an address that is not the house's, and the scheme is
 * the signer's own choice from the address, not the API's. Nothing but counts is logged.
 */
export type SigningKey = { privateKey: Uint8Array; publicKey: Uint8Array };

/** The seed's keys for the addresses a proof of control is asked for. */
export type ControlKeys = {
  /** The key of the requested address, or why the seed does not derive it. */
  keyOf(
    request: Pick<ControlRequest, 'currency' | 'address' | 'role' | 'branch' | 'index'>,
  ): SigningKey | { refused: string };
};

export function seedControlKeys(mnemonic: string, xpubs: Xpubs): ControlKeys {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const signers = new Map<NodeCurrency, HouseSigner | { refused: string }>();
  const signerOf = (currency: NodeCurrency) => {
    if (!signers.has(currency)) {
      try {
        // The seed's account key must be XPUB_<CUR>'s (keys.ts), as for payouts.
        signers.set(currency, houseSigners(mnemonic, xpubs, [currency]).get(currency)!);
      } catch (error) {
        signers.set(currency, { refused: (error as Error).message });
      }
    }
    return signers.get(currency)!;
  };
  return {
    keyOf(request) {
      if (request.role === 'account') {
        if (request.currency !== 'XRP') return { refused: 'only XRP has an account role' };
        const key = root.derive(XRP_DERIVATION_PATH);
        if (xrpAccountOfKey(key.publicKey!) !== request.address)
          return { refused: `the seed's XRP key (${XRP_DERIVATION_PATH}) is not this account's master key` };
        return { privateKey: key.privateKey!, publicKey: key.publicKey! };
      }
      if (!isNodeCurrency(request.currency)) return { refused: 'not a currency of the house key' };
      if (request.branch !== 'change' || request.index === null)
        return { refused: 'no derivation index given for a change address' };
      const signer = signerOf(request.currency);
      if ('refused' in signer) return signer;
      const publicKey = signer.publicKey('change', request.index);
      if (addressOfKey(request.currency, publicKey) !== request.address)
        return { refused: `the seed's change key ${request.index} is not this address` };
      return { privateKey: signer.privateKey('change', request.index), publicKey };
    },
  };
}

/** The 65-byte recoverable signature of a 32-byte digest: recovery id, r, s (noble's 'recovered'). */
const recoverable = (digest: Uint8Array, privateKey: Uint8Array) =>
  secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' });

/** Signs one proof with the key of its address, in the scheme the address commits to. */
export function signControl(
  request: Pick<ControlRequest, 'currency' | 'address' | 'message'>,
  key: SigningKey,
  addressOf: AddressKey | null = addressKey(request.currency, request.address),
): ControlProof {
  if (!addressOf)
    throw new Error(`${request.currency} ${request.address}: no proof of control can be made for this kind of address`);
  const scheme = controlScheme(addressOf);
  const proof = {
    currency: request.currency,
    address: request.address,
    scheme,
    message: request.message,
    publicKey: null,
  };
  switch (addressOf.kind) {
    case 'p2wpkh':
      // signECDSA: the signer's signature for segwit inputs (coins.ts), DER without the hash type.
      return {
        ...proof,
        signature: encodeBip322Witness(
          signECDSA(bip322Sighash(addressOf.hash, request.message), key.privateKey),
          key.publicKey,
        ),
      };
    case 'p2pkh': {
      const signature = recoverable(bitcoinMessageHash(addressOf.currency, request.message), key.privateKey);
      // Header: 27 + recovery id, + 4 because the key (as the address commits to it) is compressed.
      return { ...proof, signature: base64.encode(Uint8Array.of(27 + 4 + signature[0]!, ...signature.slice(1))) };
    }
    case 'eth': {
      const signature = recoverable(ethMessageHash(request.message), key.privateKey);
      return { ...proof, signature: `0x${bytesToHex(signature.slice(1))}${(27 + signature[0]!).toString(16)}` };
    }
    case 'xrp': {
      // What ripple-keypairs' sign(messageHex, privateKey) gives: DER of the low-S signature over SHA-512Half, in upper-case hex.
      const signature = secp256k1.sign(xrplMessageHash(request.message), key.privateKey, {
        prehash: false,
        format: 'der',
      });
      return {
        ...proof,
        signature: bytesToHex(signature).toUpperCase(),
        publicKey: bytesToHex(key.publicKey).toUpperCase(),
      };
    }
  }
}

export type SignReservesResult = {
  signed: number;
  refused: number;
  stored: number;
  controlled: number;
  listed: number;
};

/** Signs every address of the snapshot's reserves the seed derives, and posts the proofs; refusals are counted (and said why, without a key). */
export async function signReserves(deps: {
  api: SignerApi;
  keys: ControlKeys;
  snapshotId: number;
  log: (message: string) => void;
}): Promise<SignReservesResult> {
  const base = `/api/ops/liabilities/${deps.snapshotId}`;
  const { requests } = await deps.api.get<ControlRequestsResponse>(`${base}/control-requests`);
  const proofs: ControlProof[] = [];
  const refusals = new Map<string, number>();
  const refuse = (reason: string) => refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
  for (const request of requests) {
    const addressOf = addressKey(request.currency, request.address);
    if (!addressOf) {
      refuse(`${request.currency}: no scheme for the address`);
      continue;
    }
    const key = deps.keys.keyOf(request);
    if ('refused' in key) {
      refuse(`${request.currency}: ${key.refused}`);
      continue;
    }
    proofs.push(signControl(request, key, addressOf));
  }
  const refused = requests.length - proofs.length;
  for (const [reason, count] of refusals) deps.log(`signer: ${count} address(es) not signed: ${reason}`);
  if (proofs.length === 0) {
    deps.log(`signer: snapshot ${deps.snapshotId}: nothing signed (${requests.length} address(es) listed)`);
    return { signed: 0, refused, stored: 0, controlled: 0, listed: requests.length };
  }
  const posted = await deps.api.post<ControlSubmitResponse>(`${base}/control`, { proofs });
  deps.log(
    `signer: snapshot ${deps.snapshotId}: ${proofs.length} signed, ${refused} refused; ${posted.controlled} of ${posted.listed} house address(es) proven`,
  );
  return { signed: proofs.length, refused, ...posted };
}
