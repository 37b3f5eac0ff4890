import { Address, OutScript, p2pkh, p2wpkh, Script, SigHash, Transaction, type TxOpts } from '@scure/btc-signer';
import { signECDSA } from '@scure/btc-signer/utils.js';
import cashaddr from 'cashaddrjs';
import { bitcoinLikeNetwork } from '#domain/networks';
import type { UtxoCurrency } from '#domain/chain';

/**
 * How each coin's transactions are built and signed (issue 30, "each coin's rules"). The signer
 * chooses the inputs and outputs; this decides the scripts, the size the fee is computed on, the
 * signature and whether the transaction may be replaced by fee.
 * - BTC, LTC: native segwit (P2WPKH), BIP143 signatures, replaceable (BIP125).
 * - DOGE: legacy P2PKH with the original signature hash. Legacy signatures do not commit to the
 *   amounts spent, which is why signers usually want the whole previous transaction: a lying
 *   coordinator could make them pay a fortune in fees. Here every input's amount and script come
 *   from the node itself (gettxout, in the signer) before anything is signed, which closes that
 *   hole without needing `-txindex` on the Dogecoin node. Replaceable: Dogecoin Core 1.14 took
 *   Bitcoin Core 0.14's opt-in replace-by-fee.
 * - BCH: legacy P2PKH scripts, but signed with SIGHASH_FORKID (0x41): the BIP143 digest (which
 *   commits to every amount) with the fork id in the hash type, as Bitcoin Cash requires since
 *   August 2017. Never replaceable: Bitcoin Cash removed replace-by-fee, and its blocks are not full.
 * Each builder's output is checked in the tests with a library made for that coin (bitcore-lib,
 * bitcore-lib-doge, bitcore-lib-cash), not with this code.
 */
export type SpendInput = { txid: string; vout: number; amount: bigint; privateKey: Uint8Array; publicKey: Uint8Array };
export type PayTo = { script: Uint8Array; amount: bigint };
export type SignedTx = { hex: string; txid: string; size: number; fee: bigint };

export type CoinRules = {
  /** The script of the house address a public key's output sits at. */
  houseScript(publicKey: Uint8Array): Uint8Array;
  /** The script that pays an address of this coin (as normalizeAddress writes it). */
  payScript(address: string): Uint8Array;
  /** The (virtual) size the fee rate applies to, for this many inputs and outputs. */
  sizeOf(inputs: number, outputs: number): bigint;
  /** Change smaller than this costs more than it is worth (or is not relayed): it goes to the fee. */
  changeDust: bigint;
  /** Whether a stuck transaction can be replaced by one paying more (BIP125). */
  replaceable: boolean;
  sign(inputs: SpendInput[], outputs: PayTo[]): SignedTx;
};

/** BIP125: a sequence below 0xfffffffe signals that the transaction may be replaced by fee. */
export const RBF_SEQUENCE = 0xfffffffd;
const FINAL_SEQUENCE = 0xffffffff;
/** Bitcoin Cash's signature hash type: ALL with the fork id bit (and fork id 0). */
const SIGHASH_ALL_FORKID = SigHash.ALL | 0x40;

const total = (values: bigint[]) => values.reduce((sum, value) => sum + value, 0n);

/** Signed by @scure/btc-signer, with the signature hash the script asks for (BIP143 for segwit, the original for legacy), replaceable. */
function scureSigned(scriptOf: (publicKey: Uint8Array) => Uint8Array, options: TxOpts = {}): CoinRules['sign'] {
  return (inputs, outputs) => {
    const tx = new Transaction(options);
    for (const input of inputs)
      tx.addInput({
        txid: input.txid,
        index: input.vout,
        witnessUtxo: { script: scriptOf(input.publicKey), amount: input.amount },
        sequence: RBF_SEQUENCE,
      });
    for (const output of outputs) tx.addOutput(output);
    inputs.forEach((input, i) => tx.signIdx(input.privateKey, i));
    tx.finalize();
    return { hex: tx.hex, txid: tx.id, size: tx.vsize, fee: tx.fee };
  };
}

function segwit(currency: 'BTC' | 'LTC'): CoinRules {
  const network = () => bitcoinLikeNetwork(currency);
  return {
    houseScript: (publicKey) => p2wpkh(publicKey, network()).script,
    payScript: (address) => OutScript.encode(Address(network()).decode(address)),
    // 11 vbytes of overhead (with the segwit marker), 68 per P2WPKH input, 31 per output.
    sizeOf: (inputs, outputs) => BigInt(11 + 68 * inputs + 31 * outputs),
    changeDust: 1_000n,
    replaceable: true,
    sign: scureSigned((publicKey) => p2wpkh(publicKey, network()).script),
  };
}

function dogecoin(): CoinRules {
  const network = () => bitcoinLikeNetwork('DOGE');
  return {
    houseScript: (publicKey) => p2pkh(publicKey, network()).script,
    payScript: (address) => OutScript.encode(Address(network()).decode(address)),
    // 10 bytes of overhead, 148 per P2PKH input (a 72-byte signature at most), 34 per output.
    sizeOf: (inputs, outputs) => BigInt(10 + 148 * inputs + 34 * outputs),
    // Dogecoin Core 1.14.6: an output under 0.01 DOGE costs an extra 0.01 DOGE of fee to relay.
    changeDust: 1_000_000n,
    replaceable: true,
    // The amounts were checked with the node's gettxout (see above), so the witness-style UTXO suffices.
    sign: scureSigned((publicKey) => p2pkh(publicKey, network()).script, { allowLegacyWitnessUtxo: true }),
  };
}

/** The output script of a CashAddr address (P2PKH or P2SH). */
function cashAddrScript(address: string): Uint8Array {
  const { type, hash } = cashaddr.decode(address);
  return OutScript.encode(
    type === 'P2SH' ? { type: 'sh', hash: Uint8Array.from(hash) } : { type: 'pkh', hash: Uint8Array.from(hash) },
  );
}

function bitcoinCash(): CoinRules {
  return {
    houseScript: (publicKey) => p2pkh(publicKey).script,
    payScript: cashAddrScript,
    sizeOf: (inputs, outputs) => BigInt(10 + 148 * inputs + 34 * outputs),
    changeDust: 1_000n,
    replaceable: false,
    sign(inputs, outputs) {
      const tx = new Transaction({ allowUnknownInputs: true });
      for (const input of inputs) tx.addInput({ txid: input.txid, index: input.vout, sequence: FINAL_SEQUENCE });
      for (const output of outputs) tx.addOutput(output);
      // BIP143's digest over the unsigned transaction, with the P2PKH script as the script code and
      // the fork id's hash type; then scriptSig = <signature + hash type> <public key>.
      const scriptSigs = inputs.map((input, i) => {
        const digest = tx.preimageWitnessV0(i, p2pkh(input.publicKey).script, SIGHASH_ALL_FORKID, input.amount);
        const signature = Uint8Array.from([...signECDSA(digest, input.privateKey), SIGHASH_ALL_FORKID]);
        return Script.encode([signature, input.publicKey]);
      });
      scriptSigs.forEach((finalScriptSig, i) => tx.updateInput(i, { finalScriptSig }, true));
      const hex = tx.hex;
      return {
        hex,
        txid: tx.id,
        size: hex.length / 2,
        fee: total(inputs.map((i) => i.amount)) - total(outputs.map((o) => o.amount)),
      };
    },
  };
}

const RULES: Record<UtxoCurrency, () => CoinRules> = {
  BTC: () => segwit('BTC'),
  LTC: () => segwit('LTC'),
  DOGE: dogecoin,
  BCH: bitcoinCash,
};

export const coinRules = (currency: UtxoCurrency): CoinRules => RULES[currency]();
