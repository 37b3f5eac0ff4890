import { knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import { minorToDecimal } from '#domain/money';
import { toCsv as csvOf } from '../../csv';
import { ownerAccountIds, transfersPage } from '../ledger/service';
import { walletRepository } from './repository';
import type { TransactionsPage, WalletTransaction } from '#domain/contracts/wallet';
import type { Db } from '../../db/client';

/**
 * The user's transactions: every ledger transfer touching one of their accounts, newest first,
 * with a cursor (created_at, id) that stays stable while new transfers arrive. A transaction is
 * shown as the contract says (domain/contracts/wallet.ts).
 */
export type TransactionView = WalletTransaction;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const encodeCursor = (date: Date, id: string) => Buffer.from(`${date.toISOString()}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { date: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(iso ?? '');
  if (!id || Number.isNaN(date.getTime())) throw new DomainError('validation_failed', 'cursor', 'Invalid cursor.');
  return { date, id };
}

export async function listTransactions(
  db: Db,
  ownerId: string,
  options: { currency?: string; cursor?: string; limit: number },
): Promise<TransactionsPage> {
  const ids = await ownerAccountIds(db, ownerId, options.currency);
  if (ids.length === 0) return { transactions: [], nextCursor: null };
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  // One more than the page, to know whether a next page exists.
  const rows = await transfersPage(db, ids, after, options.limit + 1);
  const page = rows.slice(0, options.limit);
  const metaOf = (row: (typeof page)[number]) => (row.metadata ?? {}) as Record<string, unknown>;
  // A send's rows (the amount and its network fee) carry the chain's hash once the send was paid
  // out; the send knows it, its rows were booked before.
  const sendIds = [
    ...new Set(
      page.map((row) => metaOf(row).sendId).filter((id): id is string => typeof id === 'string' && UUID.test(id)),
    ),
  ];
  const sendTxids = await walletRepository.paidOutTxids(db, ownerId, sendIds);
  // A send held for four eyes says so on its rows (the send and its fee) until it is approved.
  const awaiting = new Set(sendIds.length ? await walletRepository.sendsAwaitingApproval(db, ownerId, sendIds) : []);
  const transactions = page.map((row): TransactionView => {
    const meta = metaOf(row);
    const decimals = knownDecimals(row.currency);
    const text = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string) : null);
    const direction = ids.includes(row.creditAccountId) ? 'in' : 'out';
    return {
      id: row.id,
      date: row.createdAt.toISOString(),
      type: row.code,
      direction,
      currency: row.currency,
      amount: minorToDecimal(row.amount, decimals),
      fee: text('fee'),
      // Euros are their own value; other rows carry theirs from when they were booked.
      eurValue: row.currency === 'EUR' ? minorToDecimal(row.amount, 2) : text('eurValue'),
      address: text('address'),
      // A label is its writer's private note: the sender's label of an internal send is not the
      // recipient's to read (a deposit's label is the recipient's own, of their address).
      label: row.code === 'internal' && direction === 'in' ? null : text('label'),
      // A chain deposit's hash, or a paid-out send's.
      txid: text('txid') ?? sendTxids.get(text('sendId') ?? '') ?? null,
      status: direction === 'out' && awaiting.has(text('sendId') ?? '') ? 'awaiting_approval' : 'completed',
    };
  });
  const last = page[page.length - 1];
  return {
    transactions,
    nextCursor: rows.length > options.limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}

const CSV_COLUMNS: (keyof TransactionView)[] = [
  'date',
  'type',
  'direction',
  'currency',
  'amount',
  'fee',
  'eurValue',
  'address',
  'label',
  'status',
  'txid',
  'id',
];

/** RFC 4180, with formula-looking cells neutralised (a leading apostrophe) so a spreadsheet never runs them. */
export const toCsv = (transactions: TransactionView[]): string => csvOf(CSV_COLUMNS, transactions);
