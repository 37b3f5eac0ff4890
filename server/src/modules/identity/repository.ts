import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { verificationCodes, verifications } from '../../db/schema/identity';
import type { VerificationKind, VerificationPhase } from '#domain/verification';
import type { Db } from '../../db/client';

export type VerificationRow = typeof verifications.$inferSelect;
export type CodeRow = typeof verificationCodes.$inferSelect;

/** SQL for identity verification. Methods take the database or a transaction. */
export const identityRepository = {
  list(db: Db, accountId: string): Promise<VerificationRow[]> {
    return db.select().from(verifications).where(eq(verifications.accountId, accountId)).orderBy(verifications.kind);
  },

  async find(db: Db, accountId: string, kind: VerificationKind): Promise<VerificationRow | undefined> {
    const [row] = await db
      .select()
      .from(verifications)
      .where(and(eq(verifications.accountId, accountId), eq(verifications.kind, kind)));
    return row;
  },

  /** The row, locked until the transaction ends (PGlite runs one transaction at a time anyway). */
  async lock(db: Db, accountId: string, kind: VerificationKind): Promise<VerificationRow | undefined> {
    const [row] = await db
      .select()
      .from(verifications)
      .where(and(eq(verifications.accountId, accountId), eq(verifications.kind, kind)))
      .for('update');
    return row;
  },

  async update(
    db: Db,
    accountId: string,
    kind: VerificationKind,
    values: Partial<Omit<VerificationRow, 'accountId' | 'kind'>> & { phase?: VerificationPhase },
  ) {
    await db
      .update(verifications)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(verifications.accountId, accountId), eq(verifications.kind, kind)));
  },

  /** Kinds users asked to have enabled, oldest request first; `pendingOnly`: those still not enabled. */
  listRequested(db: Db, pendingOnly: boolean) {
    return db
      .select({
        accountId: verifications.accountId,
        kind: verifications.kind,
        phase: verifications.phase,
        requestedAt: verifications.requestedAt,
      })
      .from(verifications)
      .where(
        and(isNotNull(verifications.requestedAt), pendingOnly ? eq(verifications.phase, 'not_enabled') : undefined),
      )
      .orderBy(asc(verifications.requestedAt));
  },

  /** Kinds of these in step 2 (details submitted, waiting for their check), oldest submission first. */
  listSubmitted(db: Db, kinds: VerificationKind[]) {
    return db
      .select({
        accountId: verifications.accountId,
        kind: verifications.kind,
        phase: verifications.phase,
        submittedAt: verifications.submittedAt,
      })
      .from(verifications)
      .where(and(eq(verifications.phase, 'step_2'), inArray(verifications.kind, kinds)))
      .orderBy(asc(verifications.submittedAt));
  },

  /** Requests waiting to be enabled, and submissions of these kinds waiting for their check. */
  async queueCounts(db: Db, documentKinds: VerificationKind[]): Promise<{ requests: number; documents: number }> {
    const [row] = await db
      .select({
        requests:
          sql<number>`count(*) filter (where ${verifications.phase} = 'not_enabled' and ${verifications.requestedAt} is not null)`.mapWith(
            Number,
          ),
        documents:
          sql<number>`count(*) filter (where ${verifications.phase} = 'step_2' and ${inArray(verifications.kind, documentKinds)})`.mapWith(
            Number,
          ),
      })
      .from(verifications);
    return row ?? { requests: 0, documents: 0 };
  },

  /**
   * Deletes the data of every row past its retention date (see deleteExpiredIdentityData) whose
   * account also meets `alsoEnded` (the retention job: the business relationship has ended).
   */
  eraseExpired(
    db: Db,
    now: Date,
    alsoEnded?: (accountId: typeof verifications.accountId) => SQL,
  ): Promise<{ accountId: string; kind: VerificationKind; phase: VerificationPhase }[]> {
    return db
      .update(verifications)
      .set({
        data: null,
        retainUntil: null,
        dataDeletedAt: now,
        updatedAt: now,
        phase: sql`case when ${verifications.phase} = 'step_2' then 'step_1' else ${verifications.phase} end`,
      })
      .where(and(lt(verifications.retainUntil, now), alsoEnded?.(verifications.accountId)))
      .returning({ accountId: verifications.accountId, kind: verifications.kind, phase: verifications.phase });
  },

  /** The live code (not used, not replaced), locked. */
  async lockLiveCode(db: Db, accountId: string, kind: VerificationKind): Promise<CodeRow | undefined> {
    const [row] = await db
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.accountId, accountId),
          eq(verificationCodes.kind, kind),
          isNull(verificationCodes.usedAt),
          isNull(verificationCodes.revokedAt),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1)
      .for('update');
    return row;
  },

  async liveCodes(db: Db, accountId: string) {
    return db
      .select({
        kind: verificationCodes.kind,
        expiresAt: verificationCodes.expiresAt,
        attempts: verificationCodes.attempts,
      })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.accountId, accountId),
          isNull(verificationCodes.usedAt),
          isNull(verificationCodes.revokedAt),
        ),
      );
  },

  async revokeLiveCodes(db: Db, accountId: string, kind: VerificationKind) {
    await db
      .update(verificationCodes)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(verificationCodes.accountId, accountId),
          eq(verificationCodes.kind, kind),
          isNull(verificationCodes.usedAt),
          isNull(verificationCodes.revokedAt),
        ),
      );
  },

  /** When the account's codes of every kind were sent since then (used, revoked and expired ones too). */
  async codesSentSince(db: Db, accountId: string, since: Date) {
    return db
      .select({ kind: verificationCodes.kind, createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.accountId, accountId), gt(verificationCodes.createdAt, since)));
  },

  async insertCode(db: Db, values: typeof verificationCodes.$inferInsert) {
    await db.insert(verificationCodes).values(values);
  },

  async countWrongAttempt(db: Db, codeId: string, revoke: boolean) {
    await db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1`, ...(revoke ? { revokedAt: new Date() } : {}) })
      .where(eq(verificationCodes.id, codeId));
  },

  async markCodeUsed(db: Db, codeId: string) {
    await db.update(verificationCodes).set({ usedAt: new Date() }).where(eq(verificationCodes.id, codeId));
  },
};
