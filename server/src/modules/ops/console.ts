import { normalizeCode } from '#domain/codes';
import { DomainError } from '#domain/errors';
import { findAccountByKey, searchAccounts } from '../accounts/service';
import { auditAbout, readPersonalData, recordAudit } from '../audit/service';
import { bankPaymentsOfOrder, unmatchedCount } from '../bank/service';
import { chainQueueCounts } from '../chain/service';
import { listDocumentsWaiting, verificationQueueCounts, verificationStates } from '../identity/service';
import { searchOrders, type OrderRow } from '../orders/service';
import { opsOrderSummaryOf, orderMoney } from '../orders/views';
import { awaitingApprovalCount, payoutsOfOrder, payoutView } from '../payouts/service';
import { recentSendsOf, sendView } from '../wallet/sends';
import { walletBalances } from '../wallet/service';
import type { AuditEntry } from '#domain/contracts/audit';
import type {
  OpsAccountResponse,
  OpsAccountsResponse,
  OpsOrderResponse,
  OpsOrdersQuery,
  OpsOrdersResponse,
  OpsQueues,
  OrderEvent,
} from '#domain/contracts/console';
import type { Db } from '../../db/client';
import type { PayoutApproval } from '../payouts/approval';
import type { RatesAdapter } from '../rates/service';

/**
 * What the operator console reads (domain/contracts/console.ts), the same for `npm run ops`: the
 * queues' counts, orders and accounts by search with their detail. It only reads, through the
 * services of the modules that own the data; every answer that shows customers' personal data
 * (emails, payout addresses, balances) is written to the audit trail as `personal.read` first, in
 * the same transaction, naming the view and, for one order or account, which.
 */

/** How much waits in each queue the console's navigation counts. */
export async function opsQueues(db: Db): Promise<OpsQueues> {
  const [verification, unmatchedPayments, payoutsAwaitingApproval, chain] = await Promise.all([
    verificationQueueCounts(db),
    unmatchedCount(db),
    awaitingApprovalCount(db),
    chainQueueCounts(db),
  ]);
  return {
    verificationRequests: verification.requests,
    documents: verification.documents,
    unmatchedPayments,
    payoutsAwaitingApproval,
    chainAlerts: chain.alerts,
    chainUnmatched: chain.unmatched,
  };
}

/** The submissions waiting for a document check (emails in it: a read of personal data). */
export const documentsWaiting = (db: Db, actor: string) =>
  readPersonalData(db, actor, 'verification-documents', listDocumentsWaiting);

/** Orders found by the console's or the CLI's search. */
export async function findOrders(
  db: Db,
  query: Required<Pick<OpsOrdersQuery, 'limit'>> & Omit<OpsOrdersQuery, 'limit'>,
  actor: string,
): Promise<OpsOrdersResponse> {
  const { limit, ...filter } = query;
  const rows = await readPersonalData(db, actor, 'orders', (tx) => searchOrders(tx, filter, Number(limit)));
  return { orders: rows.map((row) => opsOrderSummaryOf(row, row.accountKey)) };
}

/** One order (by its full reference, any case or spacing) and its whole history. */
export async function orderDetail(db: Db, reference: string, actor: string): Promise<OpsOrderResponse> {
  return db.transaction(async (tx) => {
    const normalized = normalizeCode(reference);
    const [row] = normalized ? await searchOrders(tx, { q: normalized }, 1) : [];
    if (!row) throw new DomainError('not_found', 'reference');
    await recordAudit(tx, { actor, action: 'personal.read', target: row.reference, after: { view: 'order', rows: 1 } });
    // One after the other: a transaction is one connection, which runs one query at a time.
    const payments = await bankPaymentsOfOrder(tx, row.id);
    const payouts = await payoutsOfOrder(tx, row.id);
    const audit = await auditAbout(tx, [row.reference, ...payments.map((p) => p.id), ...payouts.map((p) => p.id)]);
    const money = orderMoney(row);
    return {
      order: {
        ...opsOrderSummaryOf(row, row.accountKey),
        address: row.address,
        receivingAddress: row.receivingAddress,
        amountReceived: money.amountReceived,
        actualAmountConverted: money.actualAmountConverted,
        payoutTxid: row.payoutTxid,
        refund: row.refund ?? null,
        language: row.language,
        businessHold: row.businessHold,
        payoutAwaitingApproval: row.payoutAwaitingApproval,
        reviewHold: row.reviewHold,
        payerIban: row.payerKey,
      },
      history: orderHistory(row, payouts.map(payoutView), audit),
    };
  });
}

const event = (
  at: Date | string,
  kind: OrderEvent['kind'],
  fields: Partial<Omit<OrderEvent, 'at' | 'kind'>> = {},
): OrderEvent => ({
  at: typeof at === 'string' ? at : at.toISOString(),
  kind,
  actor: null,
  action: null,
  status: null,
  amount: null,
  currency: null,
  detail: null,
  ...fields,
});

const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/**
 * The order's history, oldest first: its own times, its payouts' and the audit rows about it, its
 * bank payments and its payouts. Events at the same moment keep this order (placed before paid …).
 */
function orderHistory(row: OrderRow, payouts: ReturnType<typeof payoutView>[], audit: AuditEntry[]): OrderEvent[] {
  const money = orderMoney(row);
  const events: OrderEvent[] = [
    event(row.createdAt, 'placed', { status: 'new', amount: money.amount, currency: row.currencyFrom }),
  ];
  if (row.fundedAt)
    events.push(
      event(row.fundedAt, 'funded', { status: 'processing', amount: money.amountReceived, currency: row.currencyFrom }),
    );
  if (row.settledAt)
    events.push(event(row.settledAt, 'settled', { amount: money.actualAmountConverted, currency: row.currencyTo }));
  for (const payout of payouts) {
    const waiting = payout.approval ? `${payout.purpose} · ${payout.approval.reason}` : payout.purpose;
    events.push(
      event(payout.createdAt, 'payout_requested', {
        status: payout.approval ? 'awaiting_approval' : 'pending',
        amount: payout.amount,
        currency: payout.currency,
        detail: waiting,
      }),
    );
    if (payout.submittedAt)
      events.push(
        event(payout.submittedAt, 'payout_submitted', {
          status: 'submitted',
          amount: payout.amount,
          currency: payout.currency,
        }),
      );
    if (payout.completedAt && payout.status === 'completed')
      events.push(
        event(payout.completedAt, 'payout_completed', {
          status: 'completed',
          amount: payout.amount,
          currency: payout.currency,
          detail: payout.txid,
        }),
      );
    if (payout.completedAt && payout.status === 'failed')
      events.push(
        event(payout.completedAt, 'payout_failed', {
          status: 'failed',
          amount: payout.amount,
          currency: payout.currency,
          detail: payout.failureReason,
        }),
      );
  }
  // Reads of the order (this one's too) are the trail's business, not events of the order.
  for (const entry of audit.filter((e) => e.action !== 'personal.read' && e.action !== 'identity.read')) {
    const after = entry.after ?? {};
    events.push(
      event(entry.at, 'audit', {
        actor: entry.actor,
        action: entry.action,
        status: text(after.status),
        amount: text(after.amount),
        currency: text(after.currency) ?? (after.amount !== undefined ? 'EUR' : null),
        detail: text(after.reason) ?? text(after.unmatchedReason) ?? text(after.entryRef) ?? text(after.txid),
      }),
    );
  }
  if (row.expiredAt) events.push(event(row.expiredAt, 'expired'));
  if (row.completedAt)
    events.push(event(row.completedAt, 'completed', { status: row.status, detail: row.failureReason ?? null }));
  return events
    .map((e, index) => ({ e, index }))
    .sort((a, b) => a.e.at.localeCompare(b.e.at) || a.index - b.index)
    .map(({ e }) => e);
}

/** Accounts by email (part of it) or account key. */
export async function findAccounts(db: Db, q: string, limit: number, actor: string): Promise<OpsAccountsResponse> {
  const rows = await readPersonalData(db, actor, 'accounts', (tx) => searchAccounts(tx, q, limit));
  return {
    accounts: rows.map((a) => ({
      accountKey: a.accountKey,
      email: a.email,
      displayName: a.displayName,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

const RECENT = 10;

/** One account: balances, verification phases (no identity data), recent orders and sends, frozen or not, its audit rows. */
export async function accountDetail(
  db: Db,
  deps: { rates: RatesAdapter; approval: Pick<PayoutApproval, 'accountFrozen'> },
  accountKey: string,
  actor: string,
): Promise<OpsAccountResponse> {
  return db.transaction(async (tx) => {
    const account = await findAccountByKey(tx, accountKey.trim().toUpperCase());
    if (!account) throw new DomainError('not_found', 'accountKey');
    await recordAudit(tx, {
      actor,
      action: 'personal.read',
      target: account.accountKey,
      after: { view: 'account', rows: 1 },
    });
    // One after the other: a transaction is one connection, which runs one query at a time.
    const balances = await walletBalances(tx, deps.rates, account.id);
    const verifications = await verificationStates(tx, account.id);
    const orders = await searchOrders(tx, { account: { id: account.id, email: account.email } }, RECENT);
    const sends = await recentSendsOf(tx, account.id, RECENT);
    const frozen = deps.approval.accountFrozen ? await deps.approval.accountFrozen(tx, account.id) : null;
    const audit = await auditAbout(tx, [account.accountKey], 20);
    return {
      account: {
        accountKey: account.accountKey,
        email: account.email,
        displayName: account.displayName,
        createdAt: account.createdAt.toISOString(),
      },
      balances,
      verifications,
      orders: orders.map((row) => opsOrderSummaryOf(row, row.accountKey)),
      sends: sends.map((row) => {
        const view = sendView(row);
        return {
          id: view.id,
          status: view.status,
          currency: view.currency,
          amount: view.amount,
          address: view.address,
          internal: view.internal,
          createdAt: row.createdAt.toISOString(),
          confirmedAt: row.confirmedAt?.toISOString() ?? null,
        };
      }),
      sendsFrozen: frozen,
      audit: audit.reverse(),
    };
  });
}
