import { DomainError } from '#domain/errors';
import { LSF_REQUIRE_DEST_TAG, TF_PARTIAL_PAYMENT } from '#domain/xrp';
import { lockKey } from '../../db/raw';
import { systemAccount, transfer } from '../ledger/service';
import { chainRepository } from './repository';
import { dropsOf, type XrplNode, type XrplTx } from './xrpl-rpc';
import type { Db } from '../../db/client';

/**
 * The XRP deposit watcher (issue 31). The house has one account (XRP_ADDRESS); a user or an order
 * is a destination tag of it. Each run reads the account's transactions with `account_tx` from a
 * stored cursor (the last ledger read, in chain_blocks) up to the last *validated* ledger, oldest
 * first, page by page (`marker`):
 * - only validated ledgers count: a validated transaction is final (no reorgs, so nothing is ever
 *   booked back), and an entry the server marks not validated stops the run before it: the cursor
 *   stays below its ledger and a later run reads it again;
 * - an incoming Payment is booked only with `TransactionResult` tesSUCCESS, and for what its
 *   `meta.delivered_amount` says, never `Amount`: a partial payment (tfPartialPayment) may say
 *   1,000 XRP and deliver one drop. A payment that delivered an issued currency (an object, not a
 *   string of drops) brought no XRP: it is ignored (no ledger of Muntly's holds it; the house
 *   account holds no trust line, so only one an operator set up could receive it). A failed
 *   payment (tec…) delivered nothing: ignored;
 * - it is tracked as a chain output `hash:0` at `account:tag` (tag 0: none), credited through the
 *   same hook as the Bitcoin family's deposits (`chain-deposit:XRP:<hash>`, once per hash whoever
 *   reads it twice). No tag, or a tag Muntly never handed out: the unmatched chain queue, from
 *   where an operator assigns it to an account or returns it (to the address and tag its sender
 *   names: the sender's account is in the transfer's metadata, its tag there too when it gave one);
 * - a transaction sent *from* the house account costs its `Fee` whatever its result. A payout's is
 *   booked when the payout completes (the signer reports it, payouts/service.ts); any other's (a
 *   payout's that failed with a tec result, an AccountSet) is the house's cost, booked here from
 *   the fees account, so the chain account mirrors the balance on the ledger. A successful payment
 *   from the house that no payout made raises an alert;
 * - the house account must have lsfRequireDestTag set (a sender who forgets the tag is refused by
 *   the ledger instead of landing in the queue): checked every run, an alert while it is not.
 */
export type XrpWatcherHooks = {
  /** Books a validated deposit to its wallet or order; a DomainError: nothing expects it (unmatched). */
  credit(db: Db, deposit: { address: string; amount: bigint; txid: string }): Promise<{ creditedTo: string }>;
  /** Whether a payout's transaction has this hash (lower-case hex). */
  isPayoutTx(db: Db, hash: string): Promise<boolean>;
};

export type XrpWatcherSettings = {
  /** The house account (XRP_ADDRESS). */
  house: string;
  /** A first run starts this many ledgers below the last validated one (nothing was handed out before). */
  rescanLedgers: number;
  /** Pages of account_tx read per run at most (the next run goes on). */
  pages: number;
};

export const DEFAULT_XRP_WATCHER_SETTINGS: Omit<XrpWatcherSettings, 'house'> = { rescanLedgers: 100, pages: 50 };

export type XrpScanResult = {
  validated: number | null;
  cursor: number | null;
  credited: number;
  unmatched: number;
  ignored: number;
  fees: number;
  requireDestTag: boolean | null;
};

const CURRENCY = 'XRP';

export async function scanXrp(
  db: Db,
  node: XrplNode,
  hooks: XrpWatcherHooks,
  settings: XrpWatcherSettings,
): Promise<XrpScanResult> {
  const state = await node.state();
  const result: XrpScanResult = {
    validated: state.validated?.seq ?? null,
    cursor: null,
    credited: 0,
    unmatched: 0,
    ignored: 0,
    fees: 0,
    requireDestTag: null,
  };
  result.requireDestTag = await checkHouseAccount(db, node, settings.house);
  // A server still syncing has no validated ledger: nothing is final yet.
  if (!state.validated) return result;
  const validated = state.validated;
  const [stored] = await chainRepository.lastBlocks(db, CURRENCY, 1);
  const cursor = stored?.height ?? Math.max(0, validated.seq - settings.rescanLedgers - 1);
  result.cursor = cursor;
  if (cursor >= validated.seq) return result;

  let reached = validated.seq;
  let marker: unknown = undefined;
  let pages = 0;
  let last: XrplTx | null = null;
  scan: for (;;) {
    const page = await node.accountTx(settings.house, cursor + 1, validated.seq, marker);
    for (const tx of page.transactions) {
      if (!tx.validated) {
        // Not final yet: this ledger and what follows are read again by a later run.
        reached = tx.ledgerIndex - 1;
        break scan;
      }
      await book(db, tx, hooks, settings.house, result);
      last = tx;
    }
    marker = page.marker;
    if (marker === undefined || marker === null) break;
    if (++pages >= settings.pages) {
      // The next run starts again at the last ledger read (its transactions are booked once whatever is read twice).
      reached = last ? last.ledgerIndex - 1 : cursor;
      break;
    }
  }
  if (reached > cursor) {
    await db.transaction(async (tx) => {
      await chainRepository.insertBlock(tx, {
        currency: CURRENCY,
        height: reached,
        hash: reached === validated.seq ? validated.hash : '',
      });
      // One cursor is all an XRP watcher needs: no reorg to walk back through.
      await chainRepository.pruneBlocks(tx, CURRENCY, reached);
    });
    result.cursor = reached;
  }
  return result;
}

async function book(db: Db, tx: XrplTx, hooks: XrpWatcherHooks, house: string, result: XrpScanResult): Promise<void> {
  if (tx.account === house) {
    await bookOutgoing(db, tx, hooks, result);
    return;
  }
  if (tx.type !== 'Payment' || tx.destination !== house || tx.result !== 'tesSUCCESS') {
    // A failed payment delivered nothing; other transactions touching the account (a trust line
    // someone set to it, an offer) move no XRP of the house's.
    result.ignored++;
    return;
  }
  // delivered_amount is "unavailable" only for ledgers before 2014; without the partial flag `Amount` was delivered whole.
  const delivered = tx.delivered === 'unavailable' && (tx.flags & TF_PARTIAL_PAYMENT) === 0 ? tx.amount : tx.delivered;
  const drops = dropsOf(delivered);
  if (drops === null || drops <= 0n) {
    // An issued currency (an object): no XRP arrived. Ignored, not queued: the ledger has no account for it.
    result.ignored++;
    return;
  }
  const address = `${house}:${tx.destinationTag ?? 0}`;
  const outcome = await db.transaction(async (t) => {
    const inserted = await chainRepository.insertOutput(t, {
      currency: CURRENCY,
      txid: tx.hash,
      vout: 0,
      address,
      amount: drops,
      height: tx.ledgerIndex,
      blockHash: `ledger:${tx.ledgerIndex}`,
      status: 'confirming',
    });
    if (!inserted) return 'seen' as const;
    const key = { currency: CURRENCY, txid: tx.hash, vout: 0 };
    try {
      // A savepoint: a credit that finds nothing to credit leaves nothing behind.
      const { creditedTo } = await t.transaction((sp) => hooks.credit(sp, { address, amount: drops, txid: tx.hash }));
      await chainRepository.updateOutput(t, key, { status: 'credited', creditedTo });
      return 'credited' as const;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
    await chainRepository.updateOutput(t, key, { status: 'unmatched', unmatchedReason: 'not_expected' });
    await transfer(t, {
      id: `chain-unmatched:${CURRENCY}:${tx.hash}:0`,
      currency: CURRENCY,
      debitAccountId: (await systemAccount(t, 'chain', CURRENCY)).id,
      creditAccountId: (await systemAccount(t, 'unmatched', CURRENCY)).id,
      amount: drops,
      code: 'chain_unmatched',
      // Where it came from, for the operator who returns it (to the address and tag the sender names).
      metadata: {
        txid: `${tx.hash}:0`,
        address,
        sender: tx.account,
        ...(tx.sourceTag === null ? {} : { senderTag: tx.sourceTag }),
        ledger: tx.ledgerIndex,
      },
    });
    return 'unmatched' as const;
  });
  if (outcome === 'credited') result.credited++;
  if (outcome === 'unmatched') result.unmatched++;
}

async function bookOutgoing(db: Db, tx: XrplTx, hooks: XrpWatcherHooks, result: XrpScanResult): Promise<void> {
  const paidOut = tx.type === 'Payment' && tx.result === 'tesSUCCESS';
  if (paidOut) {
    if (await hooks.isPayoutTx(db, tx.hash)) return;
    // Signed with the house key, but by no payout (or by one whose signer died before it reported; the alert says which hash to look up).
    await db.transaction(async (t) => {
      await lockKey(t, `chain-alert:${CURRENCY}`);
      const open = (await chainRepository.openAlerts(t)).some(
        (alert) => alert.kind === 'house_account' && (alert.detail as { hash?: string }).hash === tx.hash,
      );
      if (!open)
        await chainRepository.insertAlert(t, {
          currency: CURRENCY,
          kind: 'house_account',
          detail: {
            reason: 'a payment from the house account that no payout made',
            hash: tx.hash,
            ledger: tx.ledgerIndex,
          },
        });
    });
    return;
  }
  if (tx.fee <= 0n) return;
  const { created } = await db.transaction(async (t) =>
    transfer(t, {
      id: `chain-fee:${CURRENCY}:${tx.hash}`,
      currency: CURRENCY,
      debitAccountId: (await systemAccount(t, 'fees', CURRENCY)).id,
      creditAccountId: (await systemAccount(t, 'chain', CURRENCY)).id,
      amount: tx.fee,
      code: 'network_fee_difference',
      metadata: { txid: tx.hash, type: tx.type, result: tx.result, ledger: tx.ledgerIndex },
    }),
  );
  if (created) result.fees++;
}

/**
 * The house account's lsfRequireDestTag, read from the last validated ledger: false raises an
 * alert (once while it is open), and so does an account that does not exist (not yet funded).
 * Null: the server did not answer (the run goes on; the next checks again).
 */
export async function checkHouseAccount(db: Db, node: XrplNode, house: string): Promise<boolean | null> {
  let account;
  try {
    account = await node.accountInfo(house, 'validated');
  } catch {
    return null;
  }
  const set = account !== null && (account.flags & LSF_REQUIRE_DEST_TAG) !== 0;
  if (!set) {
    const reason = account === null ? 'house_account_missing' : 'require_dest_tag_unset';
    await db.transaction(async (t) => {
      await lockKey(t, `chain-alert:${CURRENCY}`);
      const open = (await chainRepository.openAlerts(t)).some(
        (alert) => alert.kind === 'house_account' && (alert.detail as { reason?: string }).reason === reason,
      );
      if (!open) {
        const message =
          account === null
            ? 'XRP_ADDRESS does not exist on the ledger yet: fund it with the base reserve (docs/chains.md "XRP Ledger")'
            : 'XRP_ADDRESS does not require destination tags (lsfRequireDestTag): payments without a tag are accepted and land in the unmatched queue. Set it with an AccountSet, SetFlag 1 (docs/chains.md "XRP Ledger")';
        await chainRepository.insertAlert(t, {
          currency: CURRENCY,
          kind: 'house_account',
          detail: { reason, message, account: house },
        });
      }
    });
  }
  return set;
}
