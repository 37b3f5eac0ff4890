import { asc, desc, eq, sql } from 'drizzle-orm';
import { bankExports, bankPayments, payoutReturns } from '../../db/schema/bank';
import type { BankPaymentStatus } from '#domain/bank';
import type { Db } from '../../db/client';
import type { PayoutRow } from '../payouts/service';
import type { StatementLine } from './camt';

/** SQL of the bank files; the service decides, this only reads and writes rows. */
export type BankPaymentRow = typeof bankPayments.$inferSelect;
export type NewBankPayment = typeof bankPayments.$inferInsert;
export type BankExportRow = typeof bankExports.$inferSelect;
export type PayoutReturnRow = typeof payoutReturns.$inferSelect;

/** A statement line as its bank_payments row (returns.ts adds what a return says). */
export const paymentValues = (line: StatementLine, statementId: string | null) => ({
  entryRef: line.ref,
  statementId,
  amount: line.amount!,
  currency: line.currency,
  payerName: line.partyName,
  payerIban: line.partyIban,
  remittance: line.remittance,
  bookingDate: line.bookingDate,
  status: 'open' as const,
});

export const bankRepository = {
  /** Inserts the payment once per bank reference; undefined when it was imported before (or is being imported now). */
  async insertPayment(db: Db, values: NewBankPayment): Promise<BankPaymentRow | undefined> {
    const [row] = await db
      .insert(bankPayments)
      .values(values)
      .onConflictDoNothing({ target: bankPayments.entryRef })
      .returning();
    return row;
  },

  /** insertPayment for many: the rows inserted (a bank reference imported before, or twice in the list, is inserted once). */
  async insertPayments(db: Db, values: NewBankPayment[]): Promise<BankPaymentRow[]> {
    if (values.length === 0) return [];
    return db.insert(bankPayments).values(values).onConflictDoNothing({ target: bankPayments.entryRef }).returning();
  },

  /** Payments matched on import, each to its order, in one statement. */
  async markMatched(db: Db, matched: { id: string; orderId: string }[]): Promise<void> {
    if (matched.length === 0) return;
    const values = sql.join(
      matched.map((m) => sql`(${m.id}::uuid, ${m.orderId}::uuid)`),
      sql`, `,
    );
    await db.execute(
      sql`update bank_payments set status = 'matched', order_id = v.order_id from (values ${values}) as v(id, order_id) where bank_payments.id = v.id`,
    );
  },

  async lockPayment(db: Db, id: string): Promise<BankPaymentRow | undefined> {
    const [row] = await db.select().from(bankPayments).where(eq(bankPayments.id, id)).for('update');
    return row;
  },

  async updatePayment(
    db: Db,
    id: string,
    values: Partial<
      Pick<
        BankPaymentRow,
        'status' | 'orderId' | 'unmatchedReason' | 'candidates' | 'resolution' | 'resolvedBy' | 'resolvedAt'
      >
    >,
  ): Promise<BankPaymentRow> {
    const [row] = await db.update(bankPayments).set(values).where(eq(bankPayments.id, id)).returning();
    return row!;
  },

  /** The unmatched queue oldest first; the others newest first. */
  async listPayments(db: Db, filter: { status?: BankPaymentStatus; limit: number }): Promise<BankPaymentRow[]> {
    return db
      .select()
      .from(bankPayments)
      .where(filter.status ? eq(bankPayments.status, filter.status) : undefined)
      .orderBy(filter.status === 'open' ? asc(bankPayments.importedAt) : desc(bankPayments.importedAt))
      .limit(filter.limit);
  },

  /** The payment that paid an order (its refund goes back there), or the one a refund payout returns. */
  async paymentOfPayout(
    db: Db,
    payout: Pick<PayoutRow, 'orderId' | 'bankPaymentId'>,
  ): Promise<BankPaymentRow | undefined> {
    const where = payout.bankPaymentId
      ? eq(bankPayments.id, payout.bankPaymentId)
      : payout.orderId
        ? eq(bankPayments.orderId, payout.orderId)
        : undefined;
    if (!where) return undefined;
    const [row] = await db.select().from(bankPayments).where(where).orderBy(desc(bankPayments.importedAt)).limit(1);
    return row;
  },

  /** The unmatched queue's length. */
  async countOpen(db: Db): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(bankPayments)
      .where(eq(bankPayments.status, 'open'));
    return row?.n ?? 0;
  },

  /** The statement payments booked to an order (matched on import or assigned by an operator). */
  paymentsOfOrder(db: Db, orderId: string): Promise<BankPaymentRow[]> {
    return db
      .select()
      .from(bankPayments)
      .where(eq(bankPayments.orderId, orderId))
      .orderBy(asc(bankPayments.importedAt));
  },

  async insertExport(db: Db, values: typeof bankExports.$inferInsert): Promise<BankExportRow> {
    const [row] = await db.insert(bankExports).values(values).returning();
    return row!;
  },

  async findExport(db: Db, id: string): Promise<BankExportRow | undefined> {
    const [row] = await db.select().from(bankExports).where(eq(bankExports.id, id));
    return row;
  },

  async listExports(db: Db, limit: number): Promise<Omit<BankExportRow, 'xml'>[]> {
    return db
      .select({
        id: bankExports.id,
        messageId: bankExports.messageId,
        payoutCount: bankExports.payoutCount,
        total: bankExports.total,
        createdBy: bankExports.createdBy,
        createdAt: bankExports.createdAt,
      })
      .from(bankExports)
      .orderBy(desc(bankExports.createdAt))
      .limit(limit);
  },

  // Returned payouts (returns.ts).

  async insertReturn(db: Db, values: typeof payoutReturns.$inferInsert): Promise<PayoutReturnRow> {
    const [row] = await db.insert(payoutReturns).values(values).returning();
    return row!;
  },

  async findReturn(db: Db, id: string): Promise<PayoutReturnRow | undefined> {
    const [row] = await db.select().from(payoutReturns).where(eq(payoutReturns.id, id));
    return row;
  },

  async lockReturn(db: Db, id: string): Promise<PayoutReturnRow | undefined> {
    const [row] = await db.select().from(payoutReturns).where(eq(payoutReturns.id, id)).for('update');
    return row;
  },

  /** The order's latest return (an order's payout may come back again from the new IBAN). */
  async latestReturnOfOrder(db: Db, orderId: string): Promise<PayoutReturnRow | undefined> {
    const [row] = await db
      .select()
      .from(payoutReturns)
      .where(eq(payoutReturns.orderId, orderId))
      .orderBy(desc(payoutReturns.createdAt))
      .limit(1);
    return row;
  },

  async updateReturn(
    db: Db,
    id: string,
    values: Partial<
      Pick<PayoutReturnRow, 'replacementPayoutId' | 'holderName' | 'linkNonce' | 'linkExpiresAt' | 'updatedAt'>
    >,
  ): Promise<void> {
    await db.update(payoutReturns).set(values).where(eq(payoutReturns.id, id));
  },

  /** The holder's name given with a new IBAN, by the new payout. */
  async holderNameOfReplacement(db: Db, payoutId: string): Promise<string | null> {
    const [row] = await db
      .select({ holderName: payoutReturns.holderName })
      .from(payoutReturns)
      .where(eq(payoutReturns.replacementPayoutId, payoutId));
    return row?.holderName ?? null;
  },

  /** Every returned payout, oldest first (returns are rare: the service keeps those still waiting for an IBAN). */
  allReturns(db: Db): Promise<PayoutReturnRow[]> {
    return db.select().from(payoutReturns).orderBy(asc(payoutReturns.createdAt));
  },
};
