import fs from 'node:fs';
import path from 'node:path';

/**
 * The signer's own record of every transaction it signed, written (and flushed to disk) before the
 * transaction is broadcast. It is what makes the signer pay each payout once whatever happens
 * around it: killed between signing and reporting, it reports the journal's transaction on its
 * next start; given a payout again by a database restored from an older backup, it finds the
 * payout's idempotency key here and reports the transaction that paid it instead of paying again.
 * One JSON line per transaction, append only; a transaction the node refused at its first broadcast
 * (it was never relayed) is struck out by a later line that voids its txid.
 */
export type JournalEntry = {
  v: 1;
  currency: string;
  txid: string;
  hex: string;
  /** The house outputs it spends (txid:vout), and where each one's key is derived with its amount (minor units): a replacement signs them again. */
  inputs: string[];
  inputPaths: { branch: 'users' | 'orders' | 'change'; index: number; amount: string }[];
  /** The payouts it pays, each with its amount and its share of the fee (minor units). */
  payouts: { id: string; idempotencyKey: string; amount: string; fee: string }[];
  /** Minor units per virtual byte. */
  feeRate: string;
  /** Its change output (txid:vout of this transaction), if any, and that output's amount (minor units). */
  change: { vout: number; amount: string; address: string } | null;
  /** The txid it replaces by fee (BIP125), if it does. */
  replaces: string | null;
  at: string;
  /** Ether (account chains): the account, its nonce and the transaction's terms, so that it can be sent again or replaced with the same nonce. */
  eth?: EthJournalTx;
};

export type EthJournalTx = {
  kind: 'payout' | 'sweep' | 'fund';
  from: string;
  /** Where the sending key is derived. */
  path: { branch: 'users' | 'orders' | 'change'; index: number };
  nonce: string;
  to: string;
  value: string;
  gasLimit: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
};

/** A transaction the node refused when it was first broadcast: it never existed for the network. */
export type JournalVoid = { v: 1; currency: string; voids: string; reason: string; at: string };

/** One line of a journal, on disk (fsync) before the call returns: what is written survives a crash the moment after. */
export function appendDurably(file: string, record: unknown): void {
  const fd = fs.openSync(file, 'a', 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify(record)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export class Journal {
  private entries: JournalEntry[] = [];

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (fs.existsSync(file)) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const record = JSON.parse(line) as JournalEntry | JournalVoid;
          if ('voids' in record) this.strike(record.voids);
          else this.entries.push(record);
        } catch {
          // A line torn by a crash mid-write: its transaction was never broadcast (the write comes first).
        }
      }
    }
  }

  append(entry: JournalEntry): void {
    this.write(entry);
    this.entries.push(entry);
  }

  /** Strikes out a transaction the node refused at its first broadcast: its payouts and inputs are free again. */
  void(currency: string, txid: string, reason: string): void {
    const record: JournalVoid = { v: 1, currency, voids: txid, reason, at: new Date().toISOString() };
    this.write(record);
    this.strike(txid);
  }

  private strike(txid: string): void {
    this.entries = this.entries.filter((entry) => entry.txid !== txid);
  }

  private write(record: JournalEntry | JournalVoid): void {
    appendDurably(this.file, record);
  }

  /** The latest transaction that pays this payout (a replacement comes after what it replaces). */
  forPayout(idempotencyKey: string): JournalEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      if (this.entries[i]!.payouts.some((payout) => payout.idempotencyKey === idempotencyKey)) return this.entries[i];
    }
    return undefined;
  }

  /** Every ether transaction signed from this account, oldest first. */
  ethFrom(from: string): JournalEntry[] {
    return this.entries.filter((entry) => entry.eth?.from === from);
  }

  /** Every ether transaction signed, oldest first. */
  ethEntries(): JournalEntry[] {
    return this.entries.filter((entry) => entry.eth !== undefined);
  }

  byTxid(txid: string): JournalEntry | undefined {
    return this.entries.find((entry) => entry.txid === txid);
  }

  /** Every house output a signed transaction spends: never selected again. */
  spentInputs(currency: string): Set<string> {
    return new Set(this.entries.filter((entry) => entry.currency === currency).flatMap((entry) => entry.inputs));
  }

  /** What the signer paid out of a currency since `since` (replacements count once). */
  paidSince(currency: string, since: Date): bigint {
    let total = 0n;
    for (const entry of this.entries) {
      if (entry.currency !== currency || entry.replaces || new Date(entry.at) < since) continue;
      for (const payout of entry.payouts) total += BigInt(payout.amount);
    }
    return total;
  }
}
