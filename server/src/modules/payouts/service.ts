import { randomUUID } from 'node:crypto';
import { knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import { minorToDecimal } from '#domain/money';
import { expiresOnChain } from '#domain/xrp';
import { identitiesIssued, recordAudit } from '../audit/service';
import { markOutputsSpent, minedHeightOf, minedHouseTx } from '../chain/service';
import { systemAccount, transfer } from '../ledger/service';
import { approvalNeeded, type ApprovalContext } from './approval';
import { instructionMac } from './instruction';
import { payoutsRepository, type PayoutRow } from './repository';
import type { Payout } from '#domain/contracts/payouts';
import type { OutflowPath } from '#domain/gates';
import type { PayoutPurpose, PayoutRail, PayoutResult, PayoutStatus } from '#domain/payouts';
import type { Db, Tx } from '../../db/client';
import type { OutflowPass } from '../gates/service';
import type { PayoutAdapters, PayoutInstruction } from './adapters';

/**
 * The payout pipeline (docs/architecture.md):
 * 1. `requestPayout`, in the caller's booking transaction: the money moves from its source
 *    account into the payouts clearing account (a system account per currency) and a pending
 *    payout row is written — both or neither. A payout that needs four eyes (approval.ts) is
 *    written `awaiting_approval` instead, and becomes pending when two operators have approved
 *    it, or fails when one rejects it (review.ts);
 * 2. the worker (server/src/workers/payouts.ts) takes the row in a short transaction of its own,
 *    calls the adapter outside any transaction, then
 * 3. `bookPayoutResult`, in a second transaction: completed → the held money goes to the chain or
 *    bank account and the purpose's `completed` step runs (a send completes, an order is
 *    delivered); failed → a compensating transfer gives it back to the source account and the
 *    purpose's `failed` step runs (an order is refunded). An executor reporting later (`submitted`)
 *    books through the same function from the ops API.
 * A crash between 2 and 3 leaves the row `submitting`; after its lease another worker takes it and
 * calls the adapter again with the same idempotency key, which pays once.
 */
export type { PayoutRow } from './repository';

/**
 * What completing or failing a payout means for what it was for (set up by the workers), and its
 * approval (a payout that waited for four eyes goes on to the worker). A rejected payout fails.
 */
export type PayoutOutcomes = Record<
  PayoutPurpose,
  {
    completed(tx: Tx, payout: PayoutRow): Promise<void>;
    failed(tx: Tx, payout: PayoutRow): Promise<void>;
    approved(tx: Tx, payout: PayoutRow): Promise<void>;
  }
>;

export type PayoutRequest = {
  /** The outflow gate's pass (modules/gates): no payout without it. */
  pass: OutflowPass;
  rail: PayoutRail;
  purpose: PayoutPurpose;
  sendId?: string;
  orderId?: string;
  /** A bank payment nobody claimed, sent back to its payer (purpose payment_refund). */
  bankPaymentId?: string;
  /** A chain output nobody claimed (currency:txid:vout), sent back to its sender (purpose chain_return). */
  chainOutput?: string;
  currency: string;
  destination: string | null;
  reference?: string | null;
  amount: bigint;
  networkFee: bigint;
  /** Where the money is held from and goes back to on failure. */
  sourceAccountId: string;
  idempotencyKey: string;
  /**
   * The transfers that move amount + networkFee from the source into clearing, as the source's
   * owner should see them (a send and its fee are two lines of the user's history).
   */
  holds: { id: string; amount: bigint; code: string; metadata?: Record<string, unknown> }[];
  /** Who the payout is for and who asked for it: decides whether it waits for approval. */
  approval: ApprovalContext;
};

/** Which outflow gate's pass admits which payout. */
const PASSES_OF: Record<PayoutPurpose, readonly OutflowPath[]> = {
  send: ['wallet_send'],
  order_delivery: ['order_delivery'],
  order_refund: ['order_refund'],
  payment_refund: ['payment_refund'],
  chain_return: ['chain_return'],
};

const metadataOf = (row: PayoutRow) => ({
  payoutId: row.id,
  purpose: row.purpose,
  orderId: row.orderId,
  sendId: row.sendId,
  destination: row.destination,
});
const outsideAccount = (rail: PayoutRail) => (rail === 'chain' ? 'chain' : 'bank');

/**
 * Step 1, inside the caller's transaction. The same idempotency key twice is one payout. The row
 * is `awaiting_approval` when four eyes must see it first (approval.ts), else `pending`.
 */
export async function requestPayout(tx: Tx, request: PayoutRequest): Promise<PayoutRow> {
  if (!PASSES_OF[request.purpose].includes(request.pass.path))
    throw new Error(
      `payout ${request.idempotencyKey}: a ${request.pass.path} pass does not admit a ${request.purpose} payout`,
    );
  const held = request.holds.reduce((sum, h) => sum + h.amount, 0n);
  if (held !== request.amount + request.networkFee)
    throw new Error(`payout ${request.idempotencyKey}: holds ${held} ≠ amount + network fee`);
  const clearing = await systemAccount(tx, 'payouts', request.currency);
  for (const hold of request.holds) {
    if (hold.amount === 0n) continue;
    await transfer(tx, {
      id: hold.id,
      currency: request.currency,
      debitAccountId: request.sourceAccountId,
      creditAccountId: clearing.id,
      amount: hold.amount,
      code: hold.code,
      metadata: hold.metadata,
    });
  }
  const { eurValue, reason } = await approvalNeeded(tx, request.approval, request);
  const id = randomUUID();
  const key = request.approval.policy.instructionKey;
  const mac =
    key && request.rail === 'chain'
      ? instructionMac(key, {
          id,
          currency: request.currency,
          destination: request.destination,
          amount: request.amount,
          networkFee: request.networkFee,
          idempotencyKey: request.idempotencyKey,
        })
      : null;
  const { row } = await payoutsRepository.insert(tx, {
    id,
    instructionMac: mac,
    rail: request.rail,
    purpose: request.purpose,
    sendId: request.sendId ?? null,
    orderId: request.orderId ?? null,
    bankPaymentId: request.bankPaymentId ?? null,
    chainOutput: request.chainOutput ?? null,
    currency: request.currency,
    destination: request.destination,
    reference: request.reference ?? null,
    amount: request.amount,
    networkFee: request.networkFee,
    sourceAccountId: request.sourceAccountId,
    idempotencyKey: request.idempotencyKey,
    status: reason ? 'awaiting_approval' : 'pending',
    eurValue,
    approvalReason: reason,
    triggeredBy: request.approval.triggeredBy ?? null,
  });
  return row;
}

/** How many payouts ever sent this chain output (currency:txid:vout) back: a failed one leaves it in the queue again. */
export const chainReturnsOf = (db: Db, chainOutput: string) => payoutsRepository.countForChainOutput(db, chainOutput);

export function instructionOf(row: PayoutRow): PayoutInstruction {
  const decimals = knownDecimals(row.currency);
  return {
    id: row.id,
    rail: row.rail,
    currency: row.currency,
    destination: row.destination,
    reference: row.reference,
    amount: minorToDecimal(row.amount, decimals),
    networkFee: minorToDecimal(row.networkFee, decimals),
    idempotencyKey: row.idempotencyKey,
  };
}

/**
 * Step 3: books what the adapter or the executor said, in one transaction. `claim` is the worker's
 * attempt: when the row has moved on since (its lease ran out and another worker booked it), this
 * answer is dropped — the adapter gave both the same answer for the same key. Without a claim
 * (the executor reporting through the ops API) the payout must be waiting for it; the same report
 * twice is accepted once. `actor`: who reported it through the ops API, for the audit trail.
 */
export async function bookPayoutResult(
  db: Db,
  outcomes: PayoutOutcomes,
  input: { id: string; result: PayoutResult; claim?: { attempts: number }; actor?: string },
): Promise<{ payout: PayoutRow; booked: boolean }> {
  return db.transaction(async (tx) => {
    const row = await payoutsRepository.lock(tx, input.id);
    if (!row) throw new DomainError('not_found');
    const outcome = await bookLocked(tx, outcomes, row, input);
    if (input.actor) {
      const { payout, booked } = outcome;
      await recordAudit(tx, {
        actor: input.actor,
        action: 'payout.result',
        target: row.id,
        before: { status: row.status },
        after: {
          status: payout.status,
          ...(payout.txid ? { txid: payout.txid } : {}),
          ...(payout.failureReason ? { failureReason: payout.failureReason } : {}),
          booked,
        },
      });
    }
    return outcome;
  });
}

async function bookLocked(
  tx: Tx,
  outcomes: PayoutOutcomes,
  row: PayoutRow,
  input: { result: PayoutResult; claim?: { attempts: number } },
): Promise<{ payout: PayoutRow; booked: boolean }> {
  if (input.claim) {
    if (row.status !== 'submitting' || row.attempts !== input.claim.attempts) return { payout: row, booked: false };
  } else if (row.status === 'completed' || row.status === 'failed') {
    const same =
      input.result.status === row.status && (input.result.status !== 'completed' || input.result.txid === row.txid);
    if (same) return { payout: row, booked: false };
    throw new DomainError('payout_already_final');
  } else if (row.status !== 'submitted' && row.status !== 'broadcast') {
    throw new DomainError('payout_not_submitted');
  } else if (row.status === 'broadcast' && input.result.status === 'failed' && !expiresOnChain(row.currency)) {
    // Its transaction is on the network and may still be mined: the money cannot go back. (An XRP
    // transaction can be proven never to pay: past its LastLedgerSequence, or validated with a tec
    // result; the signer reports that as a failure.)
    throw new DomainError('payout_already_final');
  }
  const now = new Date();
  const { result } = input;
  if (result.status === 'submitted') {
    return {
      payout: await payoutsRepository.update(tx, row.id, { status: 'submitted', submittedAt: now, lockedUntil: null }),
      booked: true,
    };
  }
  if (result.status === 'broadcast') {
    // The signer's transaction, or its replacement by fee: every txid is kept, the latest is `txid`.
    if (row.rail !== 'chain') throw new DomainError('payout_not_submitted');
    if (row.txids.includes(result.txid)) return { payout: row, booked: false };
    const payout = await payoutsRepository.update(tx, row.id, {
      status: 'broadcast',
      txid: result.txid,
      txids: [...row.txids, result.txid],
      chainFee: result.fee,
      // Reported after its block was scanned (a signer killed before it reported): confirmed from there.
      confirmedHeight: await minedHeightOf(tx, row.currency, result.txid),
      lockedUntil: null,
    });
    await markOutputsSpent(tx, row.currency, result.inputs, result.txid);
    // Account chains: already mined and scanned (a late report): its real fee, or its failure, now.
    const mined = await minedHouseTx(tx, row.currency, result.txid);
    if (mined) return { payout: await payoutsRepository.update(tx, row.id, { chainFee: mined.fee }), booked: true };
    return { payout, booked: true };
  }
  if (result.status === 'completed') {
    const clearing = (await systemAccount(tx, 'payouts', row.currency)).id;
    const meta = metadataOf(row);
    const outside = (await systemAccount(tx, outsideAccount(row.rail), row.currency)).id;
    await transfer(tx, {
      id: `payout:${row.id}`,
      currency: row.currency,
      debitAccountId: clearing,
      creditAccountId: outside,
      amount: row.amount,
      code: 'payout',
      metadata: { ...meta, txid: result.txid },
    });
    if (row.networkFee > 0n) {
      await transfer(tx, {
        id: `payout-network-fee:${row.id}`,
        currency: row.currency,
        debitAccountId: clearing,
        creditAccountId: outside,
        amount: row.networkFee,
        code: 'network_fee',
        metadata: { ...meta, txid: result.txid },
      });
    }
    // What the signer's transaction really paid the miners for this payout (its share of the fee)
    // differs from the fee charged: the difference is the house's, so that the chain account
    // mirrors the coins on chain exactly (reconciliation).
    const feeDifference = row.chainFee === null ? 0n : row.networkFee - row.chainFee;
    if (feeDifference !== 0n) {
      const fees = (await systemAccount(tx, 'fees', row.currency)).id;
      await transfer(tx, {
        id: `payout-fee-difference:${row.id}`,
        currency: row.currency,
        debitAccountId: feeDifference > 0n ? outside : fees,
        creditAccountId: feeDifference > 0n ? fees : outside,
        amount: feeDifference > 0n ? feeDifference : -feeDifference,
        code: 'network_fee_difference',
        metadata: { ...meta, txid: result.txid, chainFee: row.chainFee!.toString() },
      });
    }
    const payout = await payoutsRepository.update(tx, row.id, {
      status: 'completed',
      txid: result.txid,
      completedAt: now,
      submittedAt: row.submittedAt ?? now,
      lockedUntil: null,
    });
    await outcomes[row.purpose].completed(tx, payout);
    return { payout, booked: true };
  }
  return { payout: await bookFailure(tx, outcomes, row, { reason: result.reason }), booked: true };
}

/**
 * A payout that will not be paid (its executor refused it, or an operator rejected it): the held
 * money goes back whole (amount and network fee) to its source in one transfer, and the purpose's
 * `failed` step runs (a send fails with the balance restored, an order is refunded). Inside the
 * transaction that holds the row's lock.
 */
export async function bookFailure(
  tx: Tx,
  outcomes: PayoutOutcomes,
  row: PayoutRow,
  failure: { reason: string; rejectedBy?: string },
): Promise<PayoutRow> {
  const clearing = (await systemAccount(tx, 'payouts', row.currency)).id;
  const now = new Date();
  await transfer(tx, {
    id: `payout-return:${row.id}`,
    currency: row.currency,
    debitAccountId: clearing,
    creditAccountId: row.sourceAccountId,
    amount: row.amount + row.networkFee,
    code: 'payout_return',
    metadata: { ...metadataOf(row), reason: failure.reason },
  });
  const payout = await payoutsRepository.update(tx, row.id, {
    status: 'failed',
    failureReason: failure.reason.slice(0, 500),
    completedAt: now,
    lockedUntil: null,
    ...(failure.rejectedBy ? { rejectedBy: failure.rejectedBy, rejectedAt: now } : {}),
  });
  await outcomes[row.purpose].failed(tx, payout);
  return payout;
}

/** Step 2 and 3 for every payout that is due; returns how many were booked. */
export async function runPayouts(
  db: Db,
  deps: {
    adapters: PayoutAdapters;
    outcomes: PayoutOutcomes;
    leaseMs: number;
    retryMs?: number;
    limit?: number;
    beforeBooking?: () => Promise<void>;
    onError?: (error: unknown) => void;
  },
): Promise<number> {
  let booked = 0;
  for (let i = 0; i < (deps.limit ?? 100); i++) {
    const claimed = await payoutsRepository.claimNext(db, deps.leaseMs);
    if (!claimed) break;
    let result: PayoutResult;
    try {
      result = await deps.adapters[claimed.rail].submit(instructionOf(claimed));
    } catch (error) {
      // Not reached, or no answer: nothing is known to have happened. Try again after a pause
      // (with the same key, so an executor that did act answers with what it did).
      deps.onError?.(error);
      await payoutsRepository.release(db, claimed.id, claimed.attempts, deps.retryMs ?? 5000);
      continue;
    }
    await deps.beforeBooking?.();
    if (
      (await bookPayoutResult(db, deps.outcomes, { id: claimed.id, result, claim: { attempts: claimed.attempts } }))
        .booked
    )
      booked++;
  }
  return booked;
}

/** A payout as the executor sees it (domain/contracts/payouts.ts). */
export type PayoutView = Payout;

export function payoutView(row: PayoutRow): PayoutView {
  const instruction = instructionOf(row);
  return {
    id: row.id,
    rail: row.rail,
    purpose: row.purpose,
    status: row.status,
    currency: row.currency,
    destination: row.destination,
    reference: row.reference,
    amount: instruction.amount,
    networkFee: instruction.networkFee,
    idempotencyKey: row.idempotencyKey,
    attempts: row.attempts,
    txid: row.txid,
    txids: row.txids,
    chainFee: row.chainFee === null ? null : minorToDecimal(row.chainFee, knownDecimals(row.currency)),
    instructionMac: row.instructionMac,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    submittedAt: row.submittedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    bankExportId: row.bankExportId,
    eurValue: row.eurValue === null ? null : minorToDecimal(row.eurValue, 2),
    triggeredBy: row.triggeredBy,
    approval: row.approvalReason
      ? {
          reason: row.approvalReason,
          reviewedBy: row.reviewedBy,
          reviewedAt: row.reviewedAt?.toISOString() ?? null,
          approvedBy: row.approvedBy,
          approvedAt: row.approvedAt?.toISOString() ?? null,
          rejectedBy: row.rejectedBy,
          rejectedAt: row.rejectedAt?.toISOString() ?? null,
        }
      : null,
  };
}

export async function listPayouts(
  db: Db,
  filter: { status?: PayoutStatus; rail?: PayoutRail; limit: number },
  viewer?: string,
): Promise<PayoutView[]> {
  const views = (await payoutsRepository.list(db, filter)).map(payoutView);
  if (viewer === undefined) return views;
  // Who minted the operators each approval names, and the viewer (local mode lets one admin mint
  // a second operator identity: the console shows it next to the approval).
  const named = (view: PayoutView) =>
    [view.triggeredBy, view.approval?.reviewedBy, view.approval?.approvedBy, view.approval?.rejectedBy, viewer].filter(
      (o): o is string => Boolean(o),
    );
  const issued = await identitiesIssued(db, [...new Set(views.flatMap((view) => (view.approval ? named(view) : [])))]);
  return views.map((view) =>
    view.approval
      ? { ...view, approval: { ...view.approval, issued: issued.filter((row) => named(view).includes(row.operator)) } }
      : view,
  );
}

export const findPayout = (db: Db, id: string) => payoutsRepository.find(db, id);

/** Payout ids -> their statuses. */
export async function payoutStatuses(db: Db, ids: string[]): Promise<Map<string, PayoutStatus>> {
  return new Map((await payoutsRepository.statusesOf(db, [...new Set(ids)])).map((p) => [p.id, p.status]));
}

/**
 * A SEPA payout the payee's bank sent back after paying it (modules/bank/returns.ts, which books
 * the money in the same transaction): locked first, then marked `returned` with the bank's reason.
 */
export const lockPayout = (tx: Tx, id: string) => payoutsRepository.lock(tx, id);
export const markPayoutReturned = (tx: Tx, id: string, reason: string) =>
  payoutsRepository.update(tx, id, { status: 'returned', failureReason: reason.slice(0, 500), lockedUntil: null });

/** How many payouts wait for two operators. */
export const awaitingApprovalCount = (db: Db) => payoutsRepository.countAwaitingApproval(db);

/** An order's payouts (delivery, refund), oldest first. */
export const payoutsOfOrder = (db: Db, orderId: string) => payoutsRepository.ofOrder(db, orderId);

/**
 * The SEPA payouts that go into the next pain.001 file (modules/bank), locked until the caller's
 * transaction ends: then `markPayoutsInBankFile` hands them to the bank, each in one file only.
 */
export const lockPayoutsForBankFile = (tx: Tx, limit: number) => payoutsRepository.lockDueForBankFile(tx, limit);
export const markPayoutsInBankFile = (tx: Tx, ids: string[], exportId: string, now: Date) =>
  payoutsRepository.markInBankFile(tx, ids, exportId, now);

/** Payouts not yet final (pending, with a worker or with the executor), and those older than the cutoff. */
export const payoutsWaiting = (db: Db, cutoff: Date) => payoutsRepository.waiting(db, cutoff);

/**
 * The deposit watcher's side of chain payouts (chain/watcher.ts hooks): a broadcast payout's
 * transaction is in a block, or its block left the chain; one with the currency's confirmations is
 * completed (booked like any executor's report, `completed` with the mined txid).
 */
export const chainPayoutsInBlock = (tx: Tx, currency: string, txids: string[], height: number) =>
  payoutsRepository.markInBlock(tx, currency, txids, height);
export const chainPayoutsUnconfirmedAbove = (tx: Tx, currency: string, height: number) =>
  payoutsRepository.unconfirmAbove(tx, currency, height);
/** What the reconciliation subtracts: payouts mined but not yet booked out of the ledger. */
/** Whether this transaction is one of Muntly's payouts in `currency` (the XRP watcher skips its own payments). */
export const isPayoutTx = (db: Db, currency: string, txid: string) => payoutsRepository.hasTxid(db, currency, txid);
export const chainPayoutsInFlight = (db: Db, currency: string) => payoutsRepository.minedNotBooked(db, currency);
export const chainPayoutsCompletedAbove = (db: Db, currency: string, height: number) =>
  payoutsRepository.completedAbove(db, currency, height);

/**
 * Account chains (ether, issue 31): a transaction the house sent was mined. Its gas is known only
 * now (gas used × the effective price), so:
 * - a payout's: that is its real fee (`chainFee`), and the difference with the fee charged is
 *   booked at completion as for the Bitcoin family. Mined with status 0 (the destination, a
 *   contract, refused the ether), the ether never left but the gas did: at the confirmations, when
 *   a payout would complete, it fails instead (`completeConfirmedChainPayouts`), so a reorg before
 *   then undoes nothing that was booked;
 * - a sweep's or a gas funding's (the house moving ether between its own addresses): nothing
 *   changes owner, but the gas left the house's addresses: booked from the fees account to the
 *   chain account, so that the chain account keeps mirroring the balances on chain (reconciliation).
 * Keyed on the txid: a block seen twice books once.
 */
export async function chainHouseTxMined(
  tx: Tx,
  currency: string,
  mined: { txid: string; fee: bigint; failed: boolean; toHouse: boolean },
): Promise<void> {
  const payout = await payoutsRepository.lockBroadcastByTxid(tx, currency, mined.txid);
  if (payout) {
    await payoutsRepository.update(tx, payout.id, { chainFee: mined.fee });
    return;
  }
  // From the house to outside, and no payout reported it yet: a payout whose signer was killed
  // before its report. The report confirms it (bookLocked reads the mined transaction).
  if (!mined.toHouse) return;
  await bookHouseGas(tx, currency, mined.txid, mined.fee, null);
}

/** Gas the house paid with nothing delivered for it (a sweep, a funding, a failed payout): from the fees account to the chain account. */
async function bookHouseGas(
  tx: Tx,
  currency: string,
  txid: string,
  fee: bigint,
  payoutId: string | null,
): Promise<void> {
  if (fee <= 0n) return;
  await transfer(tx, {
    id: `chain-gas:${currency}:${txid}`,
    currency,
    debitAccountId: (await systemAccount(tx, 'fees', currency)).id,
    creditAccountId: (await systemAccount(tx, 'chain', currency)).id,
    amount: fee,
    code: 'network_fee_house',
    metadata: { txid, ...(payoutId ? { payoutId } : {}) },
  });
}

export async function completeConfirmedChainPayouts(
  db: Db,
  outcomes: PayoutOutcomes,
  currency: string,
  height: number,
): Promise<number> {
  let completed = 0;
  for (const row of await payoutsRepository.confirmedAtOrBelow(db, currency, height)) {
    // Account chains: mined with status 0, the ether never left: the payout fails, its gas the house's.
    const mined = await minedHouseTx(db, currency, row.txid!);
    if (mined?.failed) {
      const failed = await db.transaction(async (tx) => {
        const locked = await payoutsRepository.lock(tx, row.id);
        if (locked?.status !== 'broadcast' || locked.txid !== row.txid) return false;
        await bookHouseGas(tx, currency, row.txid!, mined.fee, row.id);
        await bookFailure(tx, outcomes, locked, {
          reason: 'the destination refused the transfer: its transaction failed on chain',
        });
        return true;
      });
      if (failed) completed++;
      continue;
    }
    const { booked } = await bookPayoutResult(db, outcomes, {
      id: row.id,
      result: { status: 'completed', txid: row.txid! },
    });
    if (booked) completed++;
  }
  return completed;
}
