import fs from 'node:fs';
import path from 'node:path';
import { Wallet, type AccountSet, type Payment } from 'xrpl';
import { normalizeAddress, xrpAccountOf } from '#domain/addresses';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { ASF_REQUIRE_DEST, LSF_REQUIRE_DEST_TAG, XRP_DECIMALS, XRP_SIGNER_LIMITS } from '#domain/xrp';
import { instructionMacValid } from '../modules/payouts/instruction';
import { appendDurably } from './journal';
import type { Payout, PayoutsResponse } from '#domain/contracts/payouts';
import type { XrplNode } from '../modules/chain/xrpl-rpc';
import type { SignerApi } from './signer';

/**
 * The signer's XRP side (issue 31). The house's XRP key derives from the signer's BIP-39 seed at
 * BIP-44 m/44'/144'/0'/0/0, a secp256k1 key (what Xaman, Ledger and most wallets derive from a
 * mnemonic), and its classic address must be XRP_ADDRESS: the signer refuses to start otherwise.
 * Each run:
 * 1. every payout the journal signed a transaction for is followed with `tx` (searched between the
 *    ledger it was signed at and its LastLedgerSequence): validated with tesSUCCESS, it is reported
 *    `completed`; validated with any other result (tec…: the fee is spent, nothing is paid) or
 *    proven absent from every ledger up to a validated one past its LastLedgerSequence, `failed`
 *    (the money goes back through the payout-failed path). Otherwise the same signed blob is sent
 *    again while it can still be validated: the same hash and the same Sequence, so it can pay once
 *    at most however often it is sent;
 * 2. every other submitted XRP payout is checked against the signer's own policy (the MAC under
 *    the key only the API and the signer share, a valid XRP address that is not the house's own
 *    account whatever the tag, the per-payout and the daily limit), then built and signed here,
 *    offline, with xrpl's Wallet: a Payment of drops (no partial-payment flag) with the payout's
 *    destination tag, `Sequence` from account_info (the open ledger's, past the journal's own
 *    live transactions), `Fee` the server's open-ledger fee (never below the reference fee, never
 *    above the cap), `LastLedgerSequence` the last validated ledger plus a margin. The house keeps
 *    its reserve (base plus owner reserve, server_state): a payout the balance above it cannot
 *    cover waits. A payout to an account that does not exist, below the base reserve, would fail
 *    on the ledger (tecNO_DST_INSUF_XRP): it is reported `failed` before anything is signed.
 * The transaction is written to the journal (and flushed) before it is submitted.
 */
export const XRP_DERIVATION_PATH = "m/44'/144'/0'/0/0";

/** The house's XRP key from the seed; throws when its address is not XRP_ADDRESS. */
export function xrpWallet(mnemonic: string, xrpAddress: string): Wallet {
  const wallet = Wallet.fromMnemonic(mnemonic, { derivationPath: XRP_DERIVATION_PATH, mnemonicEncoding: 'bip39' });
  if (wallet.classicAddress !== xrpAddress) {
    throw new Error(
      `The seed's XRP key (${XRP_DERIVATION_PATH}, secp256k1) is ${wallet.classicAddress}, not XRP_ADDRESS ${xrpAddress}: the signer and the API must use the same house account.`,
    );
  }
  return wallet;
}

export type XrpJournalEntry = {
  v: 1;
  currency: 'XRP';
  /** Lower-case hex, as Muntly stores every txid. */
  hash: string;
  blob: string;
  payout: { id: string; idempotencyKey: string; amount: string; fee: string };
  sequence: number;
  /** The last validated ledger when it was signed (where `tx` starts looking) and the last ledger it can be in. */
  signedAt: number;
  lastLedgerSequence: number;
  at: string;
};
type XrpJournalVoid = { v: 1; currency: 'XRP'; voids: string; reason: string; at: string };

/** The XRP journal (DATA_DIR/signer-journal-xrp.jsonl): one JSON line per signed transaction, flushed before it is submitted. */
export class XrpJournal {
  private entries: XrpJournalEntry[] = [];

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) return;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as XrpJournalEntry | XrpJournalVoid;
        if ('voids' in record) this.entries = this.entries.filter((entry) => entry.hash !== record.voids);
        else this.entries.push(record);
      } catch {
        // A line torn by a crash mid-write: its transaction was never submitted (the write comes first).
      }
    }
  }

  append(entry: XrpJournalEntry): void {
    this.write(entry);
    this.entries.push(entry);
  }

  /** A transaction the server refused for good at its first submission: its payout is free again. */
  void(hash: string, reason: string): void {
    this.write({ v: 1, currency: 'XRP', voids: hash, reason, at: new Date().toISOString() });
    this.entries = this.entries.filter((entry) => entry.hash !== hash);
  }

  private write(record: XrpJournalEntry | XrpJournalVoid): void {
    appendDurably(this.file, record);
  }

  forPayout(idempotencyKey: string): XrpJournalEntry | undefined {
    return [...this.entries].reverse().find((entry) => entry.payout.idempotencyKey === idempotencyKey);
  }

  /** The next Sequence after the journal's transactions that can still be validated (none: 0). */
  nextSequence(validatedLedger: number): number {
    return this.entries
      .filter((entry) => entry.lastLedgerSequence >= validatedLedger)
      .reduce((next, entry) => Math.max(next, entry.sequence + 1), 0);
  }

  paidSince(since: Date): bigint {
    return this.entries
      .filter((entry) => new Date(entry.at) >= since)
      .reduce((sum, entry) => sum + BigInt(entry.payout.amount), 0n);
  }
}

export type XrpSignerDeps = {
  api: SignerApi;
  node: XrplNode;
  wallet: Wallet;
  journal: XrpJournal;
  macKey: Uint8Array;
  /** Fee cap in drops (XRP_FEE_CAP_DROPS) and the LastLedgerSequence margin in ledgers. */
  feeCap: bigint;
  ledgerMargin: number;
  log: (message: string) => void;
  /** Tests: runs between the submission and the report (a kill there). */
  beforeReport?: () => Promise<void>;
  now?: () => Date;
};

export type XrpSignerRun = { paid: number; reported: number; refused: number; completed: number; failed: number };

/** Submission answers after which the blob can never be applied (malformed): the payout fails. */
const MALFORMED = /^tem/;
/** …after which this blob cannot be applied, but the payout can be paid by another (a Sequence taken meanwhile): the journal forgets it. */
const REFUSED = /^tef(?!ALREADY)/;

export function createXrpSigner(deps: XrpSignerDeps) {
  const now = deps.now ?? (() => new Date());
  const house = deps.wallet.classicAddress;

  const post = (payoutId: string, body: unknown) => deps.api.post(`/api/ops/payouts/${payoutId}/result`, body);
  const reportBroadcast = (entry: XrpJournalEntry) =>
    post(entry.payout.id, {
      status: 'broadcast',
      txid: entry.hash,
      fee: minorToDecimal(BigInt(entry.payout.fee), XRP_DECIMALS),
      inputs: [],
    });

  async function run(): Promise<XrpSignerRun> {
    const result: XrpSignerRun = { paid: 0, reported: 0, refused: 0, completed: 0, failed: 0 };
    const state = await deps.node.state();
    // A server still syncing knows no validated ledger: nothing can be followed or signed.
    if (!state.validated) return result;
    const validated = state.validated;
    const list = async (status: string) =>
      (await deps.api.get<PayoutsResponse>(`/api/ops/payouts?status=${status}&rail=chain&limit=500`)).payouts.filter(
        (p) => p.currency === 'XRP',
      );
    const open = [...(await list('submitted')), ...(await list('broadcast'))];
    const fresh: Payout[] = [];
    for (const payout of open) {
      const entry = deps.journal.forPayout(payout.idempotencyKey);
      if (entry) await follow(payout, entry, validated.seq, result);
      else if (payout.status === 'submitted') fresh.push(payout);
      else deps.log(`signer: XRP payout ${payout.id} is broadcast but not in this signer's journal; left alone`);
    }
    if (fresh.length === 0) return result;

    const account = await deps.node.accountInfo(house, 'validated');
    if (!account) {
      deps.log('signer: the XRP house account does not exist on the ledger; the payouts wait');
      return result;
    }
    const current = await deps.node.accountInfo(house, 'current');
    const reserve = validated.reserveBase + BigInt(account.ownerCount) * validated.reserveInc;
    // What the house can spend: the validated balance above its reserve, less what the journal's live transactions will take.
    let available = account.balance - reserve;
    // (A transaction validated since counts twice here, in the balance and as pending: the signer errs on the side of waiting.)
    for (const payout of open) {
      const entry = deps.journal.forPayout(payout.idempotencyKey);
      if (entry && entry.lastLedgerSequence >= validated.seq)
        available -= BigInt(entry.payout.amount) + BigInt(entry.payout.fee);
    }
    let sequence = Math.max(
      current?.sequence ?? account.sequence,
      account.sequence,
      deps.journal.nextSequence(validated.seq),
    );
    const fees = await deps.node.fee();
    const fee = [fees.openLedger, fees.base].reduce((a, b) => (a > b ? a : b));
    const cappedFee = fee > deps.feeCap ? deps.feeCap : fee;

    for (const payout of fresh) {
      const refusal = refusalOf(payout);
      if (refusal) {
        deps.log(`signer: payout ${payout.id} refused: ${refusal}`);
        result.refused++;
        continue;
      }
      const destination = normalizeAddress('XRP', payout.destination!)!;
      const [destinationAccount, tagText] = destination.split(':');
      const tag = Number(tagText);
      const amount = decimalToMinor(payout.amount, XRP_DECIMALS)!;
      if (amount < validated.reserveBase && (await deps.node.accountInfo(destinationAccount!, 'validated')) === null) {
        // The ledger would refuse it (tecNO_DST_INSUF_XRP) and keep the fee: refused before signing instead.
        await post(payout.id, {
          status: 'failed',
          reason: `The destination account does not exist and ${payout.amount} XRP is below the base reserve (${minorToDecimal(validated.reserveBase, XRP_DECIMALS)} XRP) that creates it`,
        });
        result.failed++;
        continue;
      }
      if (amount + cappedFee > available) {
        deps.log(
          `signer: the XRP house account can spend ${minorToDecimal(available, XRP_DECIMALS)} above its reserve; payout ${payout.id} waits`,
        );
        continue;
      }
      const tx: Payment = {
        TransactionType: 'Payment',
        Account: house,
        Destination: destinationAccount!,
        // Tag 0 is Muntly's "no tag" (domain/addresses.ts).
        ...(tag > 0 ? { DestinationTag: tag } : {}),
        Amount: amount.toString(),
        Fee: cappedFee.toString(),
        Sequence: sequence,
        LastLedgerSequence: validated.seq + deps.ledgerMargin,
        Flags: 0,
      };
      const signed = deps.wallet.sign(tx);
      const entry: XrpJournalEntry = {
        v: 1,
        currency: 'XRP',
        hash: signed.hash.toLowerCase(),
        blob: signed.tx_blob,
        payout: {
          id: payout.id,
          idempotencyKey: payout.idempotencyKey,
          amount: amount.toString(),
          fee: cappedFee.toString(),
        },
        sequence,
        signedAt: validated.seq,
        lastLedgerSequence: validated.seq + deps.ledgerMargin,
        at: now().toISOString(),
      };
      deps.journal.append(entry);
      let engineResult: string;
      try {
        ({ engineResult } = await deps.node.submit(entry.blob));
      } catch (error) {
        // Unknown whether it arrived: the journal keeps it, and the next run follows it (and sends it again).
        deps.log(`signer: XRP ${entry.hash} not submitted (${(error as Error).message}); followed on the next run`);
        sequence++;
        available -= amount + cappedFee;
        continue;
      }
      if (MALFORMED.test(engineResult)) {
        deps.journal.void(entry.hash, engineResult);
        await post(payout.id, {
          status: 'failed',
          reason: `The XRP server refused the transaction as malformed (${engineResult})`,
        });
        result.failed++;
        continue;
      }
      if (REFUSED.test(engineResult)) {
        deps.journal.void(entry.hash, engineResult);
        deps.log(`signer: XRP ${entry.hash} refused (${engineResult}); the payout waits for the next run`);
        // The Sequence may be taken: the next run reads it again.
        break;
      }
      deps.log(`signer: XRP ${entry.hash} submitted (${engineResult}), paying payout ${payout.id}`);
      sequence++;
      available -= amount + cappedFee;
      await deps.beforeReport?.();
      await reportBroadcast(entry);
      result.paid++;
    }
    return result;
  }

  /** Where a signed transaction stands: reported completed or failed once the ledger says, sent again while it can still be validated. */
  async function follow(
    payout: Payout,
    entry: XrpJournalEntry,
    validatedSeq: number,
    result: XrpSignerRun,
  ): Promise<void> {
    const status = await deps.node.tx(entry.hash, entry.signedAt, entry.lastLedgerSequence);
    // Reported broadcast first (the signer may have died before it did): completion books the fee it paid.
    const broadcastFirst = async () => {
      if (payout.status === 'submitted') await reportBroadcast(entry);
    };
    if (status.found && status.validated) {
      await broadcastFirst();
      if (status.result === 'tesSUCCESS') {
        await post(payout.id, { status: 'completed', txid: entry.hash });
        result.completed++;
      } else {
        await post(payout.id, {
          status: 'failed',
          reason: `XRP transaction ${entry.hash} was validated with ${status.result}: nothing was paid`,
        });
        result.failed++;
      }
      return;
    }
    if (validatedSeq > entry.lastLedgerSequence) {
      if (!status.found && status.searchedAll) {
        await post(payout.id, {
          status: 'failed',
          reason: `XRP transaction ${entry.hash} is in no ledger up to its LastLedgerSequence ${entry.lastLedgerSequence}: it can never be paid`,
        });
        result.failed++;
      } else
        deps.log(
          `signer: XRP ${entry.hash} expired, but the server does not hold every ledger up to ${entry.lastLedgerSequence}; asked again later`,
        );
      return;
    }
    try {
      await deps.node.submit(entry.blob);
    } catch (error) {
      deps.log(`signer: XRP ${entry.hash} not sent again (${(error as Error).message})`);
    }
    if (payout.status === 'submitted') {
      await reportBroadcast(entry);
      result.reported++;
    }
  }

  /**
   * `npm run signer -- xrp-require-dest-tag`: sets lsfRequireDestTag on the house account (an
   * AccountSet with SetFlag asfRequireDest), signed here like a payout. Its fee is the house's (the
   * watcher books it). Null when the flag is set already; otherwise the hash and the server's
   * provisional answer (the watcher's alert clears once a validated ledger shows the flag).
   */
  async function requireDestinationTag(): Promise<{ hash: string; engineResult: string } | null> {
    const state = await deps.node.state();
    if (!state.validated) throw new Error('the XRP server has no validated ledger yet');
    const account = await deps.node.accountInfo(house, 'validated');
    if (!account)
      throw new Error('the XRP house account does not exist on the ledger yet: fund it with the base reserve first');
    if ((account.flags & LSF_REQUIRE_DEST_TAG) !== 0) return null;
    const current = await deps.node.accountInfo(house, 'current');
    const fees = await deps.node.fee();
    const fee = [fees.openLedger, fees.base].reduce((a, b) => (a > b ? a : b));
    const tx: AccountSet = {
      TransactionType: 'AccountSet',
      Account: house,
      SetFlag: ASF_REQUIRE_DEST,
      Fee: (fee > deps.feeCap ? deps.feeCap : fee).toString(),
      Sequence: Math.max(
        current?.sequence ?? account.sequence,
        account.sequence,
        deps.journal.nextSequence(state.validated.seq),
      ),
      LastLedgerSequence: state.validated.seq + deps.ledgerMargin,
    };
    const signed = deps.wallet.sign(tx);
    const { engineResult } = await deps.node.submit(signed.tx_blob);
    return { hash: signed.hash.toLowerCase(), engineResult };
  }

  function refusalOf(payout: Payout): string | null {
    const amount = decimalToMinor(payout.amount, XRP_DECIMALS);
    const networkFee = decimalToMinor(payout.networkFee, XRP_DECIMALS);
    if (amount === null || networkFee === null || amount <= 0n) return 'no valid amount';
    const macFields = {
      id: payout.id,
      currency: payout.currency,
      destination: payout.destination,
      amount,
      networkFee,
      idempotencyKey: payout.idempotencyKey,
    };
    if (!instructionMacValid(deps.macKey, macFields, payout.instructionMac))
      return 'the instruction is not authenticated by the shared key';
    const destination = payout.destination ? normalizeAddress('XRP', payout.destination) : null;
    if (!destination) return 'the destination is not an XRP address';
    if (xrpAccountOf(destination) === house) return 'the destination is the house account';
    if (amount > XRP_SIGNER_LIMITS.perPayout)
      return `above the per-payout limit of ${minorToDecimal(XRP_SIGNER_LIMITS.perPayout, XRP_DECIMALS)} XRP`;
    if (deps.journal.paidSince(new Date(now().getTime() - 86_400_000)) + amount > XRP_SIGNER_LIMITS.daily)
      return `above the daily limit of ${minorToDecimal(XRP_SIGNER_LIMITS.daily, XRP_DECIMALS)} XRP`;
    return null;
  }

  return { run, requireDestinationTag };
}
