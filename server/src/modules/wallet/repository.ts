import { and, asc, desc, eq, inArray, isNotNull, notExists, sql } from 'drizzle-orm';
import { lockKey } from '../../db/raw';
import { receptionAddresses, walletSends } from '../../db/schema/wallet';
import type { Db } from '../../db/client';

export type ReceptionAddress = typeof receptionAddresses.$inferSelect;
export type SendRow = typeof walletSends.$inferSelect;
type NewSend = typeof walletSends.$inferInsert;

/** SQL for the wallet. Methods take the database or a transaction, so services compose them. */
export const walletRepository = {
  /** The new address; the database refuses a second owner of an address or of a derivation index. */
  /** The owner's reception address among these canonical forms, if one is theirs. */
  async ownAddress(db: Db, ownerId: string, addresses: string[]): Promise<ReceptionAddress | undefined> {
    const [own] = await db
      .select()
      .from(receptionAddresses)
      .where(and(inArray(receptionAddresses.address, addresses), eq(receptionAddresses.ownerId, ownerId)));
    return own;
  },

  async insertAddress(db: Db, values: typeof receptionAddresses.$inferInsert): Promise<ReceptionAddress> {
    const [row] = await db.insert(receptionAddresses).values(values).returning();
    return row!;
  },

  /** Every reception address of every user (the house's addresses on its users' branch), by currency and index. */
  allAddresses(db: Db): Promise<{ currency: string; address: string }[]> {
    return db
      .select({ currency: receptionAddresses.currency, address: receptionAddresses.address })
      .from(receptionAddresses)
      .orderBy(asc(receptionAddresses.currency), asc(receptionAddresses.derivationIndex));
  },

  addressesOf(db: Db, ownerId: string): Promise<ReceptionAddress[]> {
    return db
      .select()
      .from(receptionAddresses)
      .where(eq(receptionAddresses.ownerId, ownerId))
      .orderBy(asc(receptionAddresses.createdAt));
  },

  /** The relabelled address, or undefined when no address of this owner has that id. */
  async relabelAddress(
    db: Db,
    ownerId: string,
    id: string,
    label: string | null,
  ): Promise<ReceptionAddress | undefined> {
    const [row] = await db
      .update(receptionAddresses)
      .set({ label })
      .where(and(eq(receptionAddresses.id, id), eq(receptionAddresses.ownerId, ownerId)))
      .returning();
    return row;
  },

  /** Holds, until the transaction ends, the right to create an address for this owner and currency. */
  async lockAddressCreation(db: Db, ownerId: string, currency: string): Promise<void> {
    await lockKey(db, `addresses:${ownerId}:${currency}`);
  },

  /** The owner's addresses in a currency that no internal send went to (a chain deposit is the ledger's to say). */
  async addressesNotSentTo(db: Db, ownerId: string, currency: string): Promise<string[]> {
    const sentTo = db
      .select({ one: sql`1` })
      .from(walletSends)
      .where(
        and(
          eq(walletSends.currency, currency),
          eq(walletSends.address, receptionAddresses.address),
          isNotNull(walletSends.recipientId),
        ),
      );
    const rows = await db
      .select({ address: receptionAddresses.address })
      .from(receptionAddresses)
      .where(
        and(eq(receptionAddresses.ownerId, ownerId), eq(receptionAddresses.currency, currency), notExists(sentTo)),
      );
    return rows.map((row) => row.address);
  },

  async findAddress(db: Db, currency: string, address: string): Promise<ReceptionAddress | undefined> {
    const [row] = await db
      .select()
      .from(receptionAddresses)
      .where(and(eq(receptionAddresses.currency, currency), eq(receptionAddresses.address, address)));
    return row;
  },

  async findSendByIdempotencyKey(db: Db, ownerId: string, idempotencyKey: string): Promise<SendRow | undefined> {
    const [existing] = await db
      .select()
      .from(walletSends)
      .where(and(eq(walletSends.ownerId, ownerId), eq(walletSends.idempotencyKey, idempotencyKey)));
    return existing;
  },

  /** The new send, or undefined when the owner's Idempotency-Key already has one (created by a request running at the same time). */
  async insertSend(db: Db, values: NewSend): Promise<SendRow | undefined> {
    const [row] = await db.insert(walletSends).values(values).onConflictDoNothing().returning();
    return row;
  },

  /** The chain transaction ids of those of the owner's sends that were paid out. */
  async paidOutTxids(db: Db, ownerId: string, sendIds: string[]): Promise<Map<string, string>> {
    if (sendIds.length === 0) return new Map();
    const rows = await db
      .select({ id: walletSends.id, txid: walletSends.txid })
      .from(walletSends)
      .where(and(eq(walletSends.ownerId, ownerId), inArray(walletSends.id, sendIds), isNotNull(walletSends.txid)));
    return new Map(rows.map((row) => [row.id, row.txid!]));
  },

  /** The owner's newest sends, whatever their status. */
  recentSends(db: Db, ownerId: string, limit: number): Promise<SendRow[]> {
    return db
      .select()
      .from(walletSends)
      .where(eq(walletSends.ownerId, ownerId))
      .orderBy(desc(walletSends.createdAt))
      .limit(limit);
  },

  async findSend(db: Db, ownerId: string, sendId: string): Promise<SendRow | undefined> {
    const [row] = await db
      .select()
      .from(walletSends)
      .where(and(eq(walletSends.id, sendId), eq(walletSends.ownerId, ownerId)));
    return row;
  },

  /** The owner's send, locked until the transaction ends: its confirmations run one at a time. */
  async lockSend(db: Db, ownerId: string, sendId: string): Promise<SendRow | undefined> {
    const [send] = await db
      .select()
      .from(walletSends)
      .where(and(eq(walletSends.id, sendId), eq(walletSends.ownerId, ownerId)))
      .for('update');
    return send;
  },

  async setCodeAttempts(db: Db, sendId: string, codeAttempts: number): Promise<void> {
    await db.update(walletSends).set({ codeAttempts }).where(eq(walletSends.id, sendId));
  },

  /** A send refused at its confirmation: failed, confirmed at `at`. */
  async failAtConfirmation(db: Db, sendId: string, at: Date): Promise<void> {
    await db.update(walletSends).set({ status: 'failed', confirmedAt: at }).where(eq(walletSends.id, sendId));
  },

  /** A send whose code was accepted and whose money was booked: processing (out to the chain) or completed (internal). */
  async markConfirmed(
    db: Db,
    sendId: string,
    values: Pick<NewSend, 'status' | 'confirmedAt' | 'eurValue' | 'completedAt'>,
  ): Promise<SendRow | undefined> {
    const [updated] = await db.update(walletSends).set(values).where(eq(walletSends.id, sendId)).returning();
    return updated;
  },

  /** Of these sends of the owner, those whose payout waits for approval. */
  async sendsAwaitingApproval(db: Db, ownerId: string, sendIds: string[]): Promise<string[]> {
    const rows = await db
      .select({ id: walletSends.id })
      .from(walletSends)
      .where(
        and(
          eq(walletSends.ownerId, ownerId),
          eq(walletSends.status, 'awaiting_approval'),
          inArray(walletSends.id, sendIds),
        ),
      );
    return rows.map((row) => row.id);
  },

  /** An external send whose payout two operators approved: processed from now on. */
  async markApproved(db: Db, sendId: string): Promise<void> {
    await db
      .update(walletSends)
      .set({ status: 'processing' })
      .where(and(eq(walletSends.id, sendId), eq(walletSends.status, 'awaiting_approval')));
  },

  /** An external send whose payout left: completed, with the chain's txid. */
  async markPaidOut(
    db: Db,
    sendId: string,
    completedAt: NewSend['completedAt'],
    txid: NewSend['txid'],
  ): Promise<SendRow | undefined> {
    const [row] = await db
      .update(walletSends)
      .set({ status: 'completed', completedAt, txid })
      .where(eq(walletSends.id, sendId))
      .returning();
    return row;
  },

  /** An external send whose payout failed. */
  async markPayoutFailed(db: Db, sendId: string, completedAt: NewSend['completedAt']): Promise<void> {
    await db.update(walletSends).set({ status: 'failed', completedAt }).where(eq(walletSends.id, sendId));
  },
};
