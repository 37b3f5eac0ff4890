import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts, ledgerTransfers } from '../../db/schema';
import { ApiError } from '../../errors';
import { currencyByCode } from '../../../../domain/currencies';
import { minorToDecimal } from '../../../../domain/money';

/**
 * The user's transactions: every ledger transfer touching one of their accounts, newest first,
 * with a cursor (created_at, id) that stays stable while new transfers arrive.
 */
export type TransactionView = {
  id: string;
  date: string;
  type: string;
  direction: 'in' | 'out';
  currency: string;
  amount: string;
  fee: string | null;
  eurValue: string | null;
  address: string | null;
  label: string | null;
  status: 'completed';
};

const encodeCursor = (date: Date, id: string) => Buffer.from(`${date.toISOString()}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { date: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(iso ?? '');
  if (!id || Number.isNaN(date.getTime())) throw new ApiError(400, 'validation_failed', 'cursor', 'Invalid cursor.');
  return { date, id };
}

export async function listTransactions(db: Db, ownerId: string, options: { currency?: string; cursor?: string; limit: number }) {
  const mine = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(options.currency ? and(eq(ledgerAccounts.ownerId, ownerId), eq(ledgerAccounts.currency, options.currency)) : eq(ledgerAccounts.ownerId, ownerId));
  const ids = mine.map((m) => m.id);
  if (ids.length === 0) return { transactions: [] as TransactionView[], nextCursor: null };
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  const rows = await db
    .select()
    .from(ledgerTransfers)
    .where(
      and(
        or(inArray(ledgerTransfers.debitAccountId, ids), inArray(ledgerTransfers.creditAccountId, ids)),
        after
          ? or(lt(ledgerTransfers.createdAt, after.date), and(eq(ledgerTransfers.createdAt, after.date), sql`${ledgerTransfers.id} < ${after.id}`))
          : undefined,
      ),
    )
    .orderBy(desc(ledgerTransfers.createdAt), desc(ledgerTransfers.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const transactions = page.map((row): TransactionView => {
    const meta = (row.metadata ?? {}) as Record<string, unknown>;
    const decimals = row.currency === 'EUR' ? 2 : currencyByCode(row.currency)?.decimals ?? 8;
    const text = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string) : null);
    return {
      id: row.id,
      date: row.createdAt.toISOString(),
      type: row.code,
      direction: ids.includes(row.creditAccountId) ? 'in' : 'out',
      currency: row.currency,
      amount: minorToDecimal(row.amount, decimals),
      fee: text('fee'),
      eurValue: text('eurValue'),
      address: text('address'),
      label: text('label'),
      status: 'completed',
    };
  });
  const last = page[page.length - 1];
  return { transactions, nextCursor: rows.length > options.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

const CSV_COLUMNS: (keyof TransactionView)[] = ['date', 'type', 'direction', 'currency', 'amount', 'fee', 'eurValue', 'address', 'label', 'status', 'id'];

/** RFC 4180, with formula-looking cells neutralised so a spreadsheet never runs them. */
export function toCsv(transactions: TransactionView[]): string {
  const cell = (value: string | null) => {
    let text = value ?? '';
    if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [CSV_COLUMNS.join(','), ...transactions.map((t) => CSV_COLUMNS.map((c) => cell(t[c] as string | null)).join(','))].join('\r\n') + '\r\n';
}
