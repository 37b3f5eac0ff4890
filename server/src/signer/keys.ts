import fs from 'node:fs';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { HOUSE_BRANCH_CHILD, type HouseBranch, type NodeCurrency } from '#domain/chain';
import { houseKey, type Xpubs } from '../modules/chain/derive';

/**
 * The signer's keys: every house key derives from one BIP-39 seed, at each coin's standard account
 * path (BIP-84 native segwit for BTC and LTC, BIP-44 for DOGE, BCH and ETH). The API holds only their
 * public halves (XPUB_<CUR>); at start the signer checks that its keys are those, so it can never
 * sign for addresses the API did not hand out, nor the API hand out addresses it cannot spend.
 */
export const ACCOUNT_PATHS: Record<NodeCurrency, string> = {
  BTC: "m/84'/0'/0'",
  LTC: "m/84'/2'/0'",
  DOGE: "m/44'/3'/0'",
  BCH: "m/44'/145'/0'",
  ETH: "m/44'/60'/0'",
};

/** The public BIP-39 test mnemonic: local mode's keys (never for real funds). */
export const TEST_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

export type HouseSigner = {
  privateKey(branch: HouseBranch, index: number): Uint8Array;
  publicKey(branch: HouseBranch, index: number): Uint8Array;
};

export function readMnemonic(file: string | undefined, production: boolean): string {
  if (!file) {
    if (production) throw new Error('SIGNER_SEED_FILE is required in production: the file holding the house mnemonic.');
    return TEST_MNEMONIC;
  }
  const words = fs.readFileSync(file, 'utf8').trim().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist))
    throw new Error(`SIGNER_SEED_FILE ${file} does not hold a valid BIP-39 mnemonic.`);
  return words;
}

export function houseSigners(
  mnemonic: string,
  xpubs: Xpubs,
  currencies: readonly NodeCurrency[],
): Map<NodeCurrency, HouseSigner> {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const signers = new Map<NodeCurrency, HouseSigner>();
  for (const currency of currencies) {
    const account = root.derive(ACCOUNT_PATHS[currency]);
    const published = houseKey(xpubs[currency]);
    if (
      !published.publicKey ||
      Buffer.compare(Buffer.from(account.publicKey!), Buffer.from(published.publicKey)) !== 0 ||
      Buffer.compare(Buffer.from(account.chainCode!), Buffer.from(published.chainCode!)) !== 0
    ) {
      throw new Error(
        `The seed's ${currency} key (${ACCOUNT_PATHS[currency]}) is not XPUB_${currency}: the signer and the API must use the same house key.`,
      );
    }
    const child = (branch: HouseBranch, index: number) =>
      account.deriveChild(HOUSE_BRANCH_CHILD[branch]).deriveChild(index);
    signers.set(currency, {
      privateKey: (branch, index) => child(branch, index).privateKey!,
      publicKey: (branch, index) => child(branch, index).publicKey!,
    });
  }
  return signers;
}
