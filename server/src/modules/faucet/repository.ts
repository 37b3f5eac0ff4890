import { and, asc, count, desc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { rows } from '../../db/raw';
import { faucetEntries, faucetRounds, faucetSeedChains, faucetState } from '../../db/schema/faucet';
import type { FaucetState } from '#domain/faucet';
import type { Db } from '../../db/client';

export type Round = typeof faucetRounds.$inferSelect;
export type StateRow = typeof faucetState.$inferSelect;
export type EntryRow = typeof faucetEntries.$inferSelect;
export type SeedChainRow = typeof faucetSeedChains.$inferSelect;

/** What anyone may see of a seed chain: never its top seed. */
const publicChain = {
  id: faucetSeedChains.id,
  anchor: faucetSeedChains.anchor,
  length: faucetSeedChains.length,
  createdAt: faucetSeedChains.createdAt,
};

/** The faucet's one state row (the schema's `faucet_state_singleton` check). */
const STATE_ID = 1;

/** SQL for the faucet. Methods take the database or a transaction, so services compose them. */
export const faucetRepository = {
  /** The database clock: every replica agrees on it, whatever the machine clocks say. */
  async now(db: Db): Promise<Date> {
    // A select without a table, which the query builder cannot write.
    const [row] = await rows<{ now: Date | string }>(db, sql`select now() as now`);
    return new Date(row!.now);
  },

  async ensureState(db: Db, initialBudgetEurMinor: bigint): Promise<void> {
    await db.insert(faucetState).values({ id: STATE_ID, budgetEurMinor: initialBudgetEurMinor }).onConflictDoNothing();
  },

  async state(db: Db): Promise<StateRow | undefined> {
    const [state] = await db.select().from(faucetState).where(eq(faucetState.id, STATE_ID));
    return state;
  },

  /** The state row, locked until the transaction ends: every transition takes this lock first. */
  async lockState(db: Db): Promise<StateRow | undefined> {
    const [state] = await db.select().from(faucetState).where(eq(faucetState.id, STATE_ID)).for('update');
    return state;
  },

  async paused(db: Db): Promise<{ paused: boolean } | undefined> {
    const [state] = await db
      .select({ paused: faucetState.paused })
      .from(faucetState)
      .where(eq(faucetState.id, STATE_ID));
    return state;
  },

  /** Takes the reward out of the budget (the draw's transaction). */
  async spendBudget(db: Db, eurMinor: bigint, at: Date): Promise<void> {
    await db
      .update(faucetState)
      .set({ budgetEurMinor: sql`${faucetState.budgetEurMinor} - ${eurMinor.toString()}::bigint`, updatedAt: at })
      .where(eq(faucetState.id, STATE_ID));
  },

  async addBudget(db: Db, eurMinor: bigint): Promise<void> {
    await db
      .update(faucetState)
      .set({
        budgetEurMinor: sql`${faucetState.budgetEurMinor} + ${eurMinor.toString()}::bigint`,
        updatedAt: sql`now()`,
      })
      .where(eq(faucetState.id, STATE_ID));
  },

  async setPaused(db: Db, paused: boolean): Promise<void> {
    await db
      .update(faucetState)
      .set({ paused, updatedAt: sql`now()` })
      .where(eq(faucetState.id, STATE_ID));
  },

  /**
   * The round not yet finished (at most one, by a unique partial index); with `lock`, locked until
   * the transaction ends: `update` for a transition, `share` for an entry.
   */
  async currentRound(db: Db, lock?: 'update' | 'share'): Promise<Round | undefined> {
    const query = db.select().from(faucetRounds).where(isNull(faucetRounds.finishedAt));
    const [round] = lock ? await query.for(lock) : await query;
    return round;
  },

  async roundById(db: Db, id: number): Promise<Round | undefined> {
    const [round] = await db.select().from(faucetRounds).where(eq(faucetRounds.id, id));
    return round;
  },

  async insertRound(db: Db, values: typeof faucetRounds.$inferInsert): Promise<void> {
    await db.insert(faucetRounds).values(values);
  },

  /** Moves the round on, only from the state it was read in; false when another transition came first. */
  async moveRound(db: Db, round: Round, state: FaucetState, extra: Partial<Round> = {}): Promise<boolean> {
    const updated = await db
      .update(faucetRounds)
      .set({ state, ...extra })
      .where(and(eq(faucetRounds.id, round.id), eq(faucetRounds.state, round.state)))
      .returning({ id: faucetRounds.id });
    return updated.length === 1;
  },

  async finishRound(db: Db, id: number, at: Date): Promise<void> {
    await db.update(faucetRounds).set({ finishedAt: at }).where(eq(faucetRounds.id, id));
  },

  /**
   * What the public's fingerprint of the current round is made of (round, state, player count,
   * pause switch), in one small query; undefined when no round is current.
   */
  async currentFingerprint(db: Db) {
    const [row] = await db
      .select({
        id: faucetRounds.id,
        state: faucetRounds.state,
        gameOverReason: faucetRounds.gameOverReason,
        players: count(faucetEntries.id),
        paused: faucetState.paused,
      })
      .from(faucetRounds)
      .leftJoin(faucetEntries, eq(faucetEntries.roundId, faucetRounds.id))
      .leftJoin(faucetState, eq(faucetState.id, STATE_ID))
      .where(isNull(faucetRounds.finishedAt))
      .groupBy(faucetRounds.id, faucetState.id);
    return row;
  },

  /** What the draw needs of every entry of a round. */
  drawEntries(db: Db, roundId: number) {
    return db
      .select({
        id: faucetEntries.id,
        ticket: faucetEntries.ticket,
        accountId: faucetEntries.accountId,
        currency: faucetEntries.currency,
      })
      .from(faucetEntries)
      .where(eq(faucetEntries.roundId, roundId));
  },

  /** What anyone may see of a round's entries, in the order they came (never the salt). */
  publicEntries(db: Db, roundId: number) {
    return db
      .select({
        id: faucetEntries.id,
        ticket: faucetEntries.ticket,
        address: faucetEntries.address,
        currency: faucetEntries.currency,
      })
      .from(faucetEntries)
      .where(eq(faucetEntries.roundId, roundId))
      .orderBy(asc(faucetEntries.createdAt), asc(faucetEntries.ticket));
  },

  /** A player's most recent entries, newest first, with their secret salts (for that player only). */
  entriesOf(db: Db, accountId: string, limit: number) {
    return db
      .select({
        id: faucetEntries.id,
        roundId: faucetEntries.roundId,
        ticket: faucetEntries.ticket,
        address: faucetEntries.address,
        currency: faucetEntries.currency,
        salt: faucetEntries.salt,
        createdAt: faucetEntries.createdAt,
      })
      .from(faucetEntries)
      .where(eq(faucetEntries.accountId, accountId))
      .orderBy(desc(faucetEntries.createdAt))
      .limit(limit);
  },

  /** How each of these rounds ended (or not yet). */
  roundOutcomes(db: Db, ids: number[]) {
    return db
      .select({
        id: faucetRounds.id,
        state: faucetRounds.state,
        winnerEntryId: faucetRounds.winnerEntryId,
        rewardCurrency: faucetRounds.rewardCurrency,
        rewardAmount: faucetRounds.rewardAmount,
      })
      .from(faucetRounds)
      .where(inArray(faucetRounds.id, ids));
  },

  /** The entry, or undefined when this account already entered the round. */
  async insertEntry(db: Db, values: typeof faucetEntries.$inferInsert): Promise<EntryRow | undefined> {
    const [entry] = await db.insert(faucetEntries).values(values).onConflictDoNothing().returning();
    return entry;
  },

  /** The chain whose seeds are used now: the oldest one with seeds left. */
  async seedChainInUse(db: Db): Promise<SeedChainRow | undefined> {
    const [chain] = await db
      .select()
      .from(faucetSeedChains)
      .where(lte(faucetSeedChains.nextIndex, faucetSeedChains.length))
      .orderBy(asc(faucetSeedChains.id))
      .limit(1);
    return chain;
  },

  /** How many chains still have seeds left (the one in use and any published after it). */
  async seedChainsLeft(db: Db): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(faucetSeedChains)
      .where(lte(faucetSeedChains.nextIndex, faucetSeedChains.length));
    return row!.n;
  },

  async insertSeedChain(db: Db, values: { anchor: string; length: number; topSeed: string }): Promise<SeedChainRow> {
    const [chain] = await db.insert(faucetSeedChains).values(values).returning();
    return chain!;
  },

  /** Uses up the chain's next seed (the caller holds the faucet state lock: one round at a time). */
  async takeSeed(db: Db, chainId: number): Promise<void> {
    await db
      .update(faucetSeedChains)
      .set({ nextIndex: sql`${faucetSeedChains.nextIndex} + 1` })
      .where(eq(faucetSeedChains.id, chainId));
  },

  /** Every chain, oldest first: their anchors are public. */
  seedChains(db: Db, ids?: number[]) {
    return db
      .select(publicChain)
      .from(faucetSeedChains)
      .where(ids ? inArray(faucetSeedChains.id, ids.length ? ids : [-1]) : undefined)
      .orderBy(asc(faucetSeedChains.id));
  },

  /** The round that used a given seed of a chain (the one before a round in the chain). */
  async roundWithSeed(db: Db, chainId: number, index: number): Promise<number | undefined> {
    const [row] = await db
      .select({ id: faucetRounds.id })
      .from(faucetRounds)
      .where(and(eq(faucetRounds.seedChainId, chainId), eq(faucetRounds.seedIndex, index)));
    return row?.id;
  },

  /** Announced rounds, newest first (`before` pages back). */
  announcedRounds(db: Db, options: { before?: number; limit: number }): Promise<Round[]> {
    return db
      .select()
      .from(faucetRounds)
      .where(
        and(
          eq(faucetRounds.state, 'winner_announced'),
          options.before ? lt(faucetRounds.id, options.before) : undefined,
        ),
      )
      .orderBy(desc(faucetRounds.id))
      .limit(options.limit);
  },

  /** The rounds with ids from..to, oldest first. */
  roundsBetween(db: Db, from: number, to: number): Promise<Round[]> {
    return db
      .select()
      .from(faucetRounds)
      .where(and(gte(faucetRounds.id, from), lte(faucetRounds.id, to)))
      .orderBy(asc(faucetRounds.id));
  },

  /** The public side of every entry of these rounds, in the order they came (never the salt). */
  entriesOfRounds(db: Db, roundIds: number[]) {
    return db
      .select({
        id: faucetEntries.id,
        roundId: faucetEntries.roundId,
        ticket: faucetEntries.ticket,
        address: faucetEntries.address,
        currency: faucetEntries.currency,
      })
      .from(faucetEntries)
      .where(inArray(faucetEntries.roundId, roundIds.length ? roundIds : [-1]))
      .orderBy(asc(faucetEntries.roundId), asc(faucetEntries.createdAt), asc(faucetEntries.ticket));
  },
};
