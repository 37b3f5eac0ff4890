import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { RoundView } from '../../../../domain/faucet';
import { auditLog, faucetEntries, faucetRounds, faucetState, receptionAddresses } from '../../db/schema';
import { ApiError } from '../../errors';
import { requireVerifications } from '../identity/service';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { nodeHashes } from './hashes';
import type { Rates, RatesAdapter } from '../rates/service';
import { currencyByCode } from '../../../../domain/currencies';
import { decimalToMinor, eur, minorToDecimal } from '../../../../domain/money';
import {
  draw,
  entriesHashOf,
  FAUCET_CURRENCIES,
  isFaucetCurrency,
  maskAddress,
  phaseEndsAt,
  rewardInCurrency,
  roundSchedule,
  seedHashOf,
  ticketOf,
  type FaucetState,
} from '../../../../domain/faucet';

/**
 * The faucet game (issue 7, DESIGN.md section 6).
 *
 * Invariants:
 * - at most one current round (unique partial index); every transition happens in a transaction
 *   that first locks the faucet_state row, so transitions are serialized whichever replica runs
 *   them, and each is a conditional update from the expected state;
 * - time is the database clock against the stored schedule: a ticker that was down catches up,
 *   and entries are judged by the schedule, not by how promptly the ticker ran;
 * - one credit per round: the ledger transfer's id is `faucet:<roundId>` and it is booked in the
 *   same transaction as the move to winner_announced and the budget decrement;
 * - an entry is accepted only inside the registration window of the current round, under a share
 *   lock on the round row, so it either commits before the round closes or is refused;
 * - the seed never leaves the server before the winner is announced.
 */
export type FaucetSettings = {
  /** Whole round length (all four phases). */
  roundMs: number;
  rewardEurMinor: bigint;
  /** The budget the faucet starts with when its state row is first created. */
  initialBudgetEurMinor: bigint;
};

type Tx = Db;
type Round = typeof faucetRounds.$inferSelect;
type StateRow = typeof faucetState.$inferSelect;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The database clock: every replica agrees on it, whatever the machine clocks say. */
async function dbNow(db: Db): Promise<Date> {
  const [row] = rowsOf<{ now: Date | string }>(await db.execute(sql`select now() as now`));
  return new Date(row!.now);
}

export async function ensureState(db: Db, settings: Pick<FaucetSettings, 'initialBudgetEurMinor'>): Promise<void> {
  await db.insert(faucetState).values({ id: 1, budgetEurMinor: settings.initialBudgetEurMinor }).onConflictDoNothing();
}

async function currentRound(db: Db): Promise<Round | undefined> {
  const [round] = await db.select().from(faucetRounds).where(isNull(faucetRounds.finishedAt));
  return round;
}

/** Why no round can start now, or null when one can. */
function gameOverReason(state: StateRow, settings: FaucetSettings): 'paused' | 'budget' | null {
  if (state.paused) return 'paused';
  if (state.budgetEurMinor < settings.rewardEurMinor) return 'budget';
  return null;
}

async function startRound(tx: Tx, state: StateRow, now: Date, settings: FaucetSettings): Promise<void> {
  const reason = gameOverReason(state, settings);
  if (reason) {
    await tx.insert(faucetRounds).values({ state: 'game_over', gameOverReason: reason, rewardEurMinor: settings.rewardEurMinor, startsAt: now });
    return;
  }
  const seed = randomBytes(32).toString('hex');
  const schedule = roundSchedule(now, settings.roundMs);
  await tx.insert(faucetRounds).values({ state: 'new', seed, seedHash: seedHashOf(seed), rewardEurMinor: settings.rewardEurMinor, ...schedule });
}

async function moveTo(tx: Tx, round: Round, state: FaucetState, extra: Partial<Round> = {}): Promise<boolean> {
  const updated = await tx
    .update(faucetRounds)
    .set({ state, ...extra })
    .where(and(eq(faucetRounds.id, round.id), eq(faucetRounds.state, round.state)))
    .returning({ id: faucetRounds.id });
  return updated.length === 1;
}

/**
 * The draw and the credit, in the caller's transaction. The winner's ledger account is credited
 * from the faucet's system account at the current rate; the budget pays the EUR reward.
 */
async function drawAndPay(tx: Tx, round: Round, now: Date, rates: Rates): Promise<boolean> {
  const entries = await tx
    .select({ id: faucetEntries.id, ticket: faucetEntries.ticket, accountId: faucetEntries.accountId, currency: faucetEntries.currency })
    .from(faucetEntries)
    .where(eq(faucetEntries.roundId, round.id));
  if (entries.length === 0) {
    return moveTo(tx, round, 'winner_announced', { entryCount: 0, entriesHash: entriesHashOf([]), announcedAt: now });
  }
  const result = draw(round.seed!, round.id, entries.map((e) => e.ticket), nodeHashes);
  const winner = entries.find((e) => e.ticket === result.ticket)!;
  const rate = rates.rates[winner.currency];
  const currency = currencyByCode(winner.currency);
  if (!rate || !currency) throw new Error(`no EUR rate for ${winner.currency}: the draw waits for the next tick`);
  const amount = rewardInCurrency(round.rewardEurMinor, rate, currency.decimals);
  const moved = await moveTo(tx, round, 'winner_announced', {
    entryCount: entries.length,
    entriesHash: result.entriesHash,
    winnerEntryId: winner.id,
    rewardCurrency: winner.currency,
    rewardAmount: amount,
    rewardRate: rate,
    announcedAt: now,
  });
  if (!moved) return false;
  await tx
    .update(faucetState)
    .set({ budgetEurMinor: sql`${faucetState.budgetEurMinor} - ${round.rewardEurMinor.toString()}::bigint`, updatedAt: now })
    .where(eq(faucetState.id, 1));
  const [from, to] = await Promise.all([systemAccount(tx, 'faucet', winner.currency), userAccount(tx, winner.accountId, winner.currency)]);
  await transfer(tx, {
    id: `faucet:${round.id}`,
    currency: winner.currency,
    debitAccountId: from.id,
    creditAccountId: to.id,
    amount,
    code: 'faucet',
    metadata: { roundId: round.id, ticket: winner.ticket, rewardEur: eur(round.rewardEurMinor), rate },
  });
  return true;
}

/** One transition if one is due; false when the current round is where the clock says it should be. */
async function step(db: Db, rates: RatesAdapter, settings: FaucetSettings): Promise<boolean> {
  // The rate is fetched before the transaction (a real feed is a network call; no lock is held
  // while waiting for it), and only when the next transition may be the draw.
  const peek = await currentRound(db);
  const ratesNow = peek?.state === 'registrations_closed' ? await rates.current() : undefined;
  return db.transaction(async (tx) => {
    const [state] = await tx.select().from(faucetState).where(eq(faucetState.id, 1)).for('update');
    if (!state) throw new Error('faucet_state is missing: ensureState() first');
    const [round] = await tx.select().from(faucetRounds).where(isNull(faucetRounds.finishedAt)).for('update');
    const now = await dbNow(tx);
    if (!round) {
      await startRound(tx, state, now, settings);
      return true;
    }
    const due = (at: Date | null) => at !== null && now.getTime() >= at.getTime();
    switch (round.state as FaucetState) {
      case 'new':
        return due(round.opensAt) && moveTo(tx, round, 'registrations_open');
      case 'registrations_open':
        return due(round.closesAt) && moveTo(tx, round, 'registrations_closed');
      case 'registrations_closed':
        if (!due(round.drawsAt)) return false;
        if (!ratesNow) return false; // peeked in an earlier state; the next tick has the rates
        return drawAndPay(tx, round, now, ratesNow);
      case 'winner_announced':
        if (!due(round.endsAt)) return false;
        await tx.update(faucetRounds).set({ finishedAt: now }).where(eq(faucetRounds.id, round.id));
        await startRound(tx, state, now, settings);
        return true;
      case 'game_over': {
        const reason = gameOverReason(state, settings);
        if (reason === round.gameOverReason) return false;
        if (reason) return moveTo(tx, round, 'game_over', { gameOverReason: reason });
        await tx.update(faucetRounds).set({ finishedAt: now }).where(eq(faucetRounds.id, round.id));
        await startRound(tx, state, now, settings);
        return true;
      }
    }
  });
}

/**
 * Brings the faucet up to date with the clock: every due transition, in order (a ticker that was
 * down for a while walks the round through its remaining phases). Returns how many it made.
 */
export async function advance(db: Db, rates: RatesAdapter, settings: FaucetSettings): Promise<number> {
  let transitions = 0;
  // Bounded: a round has at most five transitions before it waits for the clock again.
  while (transitions < 10 && (await step(db, rates, settings))) transitions++;
  return transitions;
}

/** POST /api/faucet/entries: the logged-in player enters the current round with one of their addresses. */
export async function enter(db: Db, input: { accountId: string; address: string }) {
  await requireVerifications(db, input.accountId, { usesWallet: true });
  const [own] = await db
    .select()
    .from(receptionAddresses)
    .where(and(eq(receptionAddresses.address, input.address.trim()), eq(receptionAddresses.ownerId, input.accountId)));
  if (!own || !isFaucetCurrency(own.currency)) throw new ApiError(400, 'not_your_address', 'address');
  return db.transaction(async (tx) => {
    // Shares the lock with other entries, waits for a transition in progress: the ticker cannot
    // close the round between this check and the insert.
    const [round] = await tx.select().from(faucetRounds).where(isNull(faucetRounds.finishedAt)).for('share');
    const now = await dbNow(tx);
    if (!round || round.state === 'game_over') throw new ApiError(409, 'faucet_game_over');
    const open =
      (round.state === 'new' || round.state === 'registrations_open') &&
      now.getTime() >= round.opensAt!.getTime() &&
      now.getTime() < round.closesAt!.getTime();
    if (!open) throw new ApiError(409, 'registrations_closed');
    const ticket = ticketOf(round.id, own.address);
    const [entry] = await tx
      .insert(faucetEntries)
      .values({ roundId: round.id, accountId: input.accountId, addressId: own.id, currency: own.currency, address: own.address, ticket })
      .onConflictDoNothing()
      .returning();
    if (!entry) throw new ApiError(409, 'already_entered');
    return { roundId: round.id, ticket, address: own.address, currency: own.currency };
  });
}

export type { RoundView } from '../../../../domain/faucet';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What anyone may see of a round. The seed only once the winner is announced. */
export async function roundView(db: Db, round: Round, rates: RatesAdapter): Promise<RoundView> {
  const [entries, [state], now, current] = await Promise.all([
    db
      .select({ id: faucetEntries.id, ticket: faucetEntries.ticket, address: faucetEntries.address, currency: faucetEntries.currency })
      .from(faucetEntries)
      .where(eq(faucetEntries.roundId, round.id))
      .orderBy(asc(faucetEntries.createdAt), asc(faucetEntries.ticket)),
    db.select({ paused: faucetState.paused }).from(faucetState).where(eq(faucetState.id, 1)),
    dbNow(db),
    rates.current(),
  ]);
  const phase = round.state as FaucetState;
  const announced = phase === 'winner_announced';
  const winnerEntry = round.winnerEntryId ? entries.find((e) => e.id === round.winnerEntryId) : undefined;
  const amounts = Object.fromEntries(
    FAUCET_CURRENCIES.filter((code) => current.rates[code]).map((code) => {
      const decimals = currencyByCode(code)!.decimals;
      return [code, minorToDecimal(rewardInCurrency(round.rewardEurMinor, current.rates[code]!, decimals), decimals)];
    }),
  );
  const ends = round.state === 'game_over' ? null : phaseEndsAt(phase, { opensAt: round.opensAt!, closesAt: round.closesAt!, drawsAt: round.drawsAt!, endsAt: round.endsAt! });
  return {
    id: round.id,
    state: phase,
    gameOverReason: (round.gameOverReason as 'paused' | 'budget' | null) ?? null,
    endsAt: iso(ends),
    schedule: { startsAt: round.startsAt.toISOString(), opensAt: iso(round.opensAt), closesAt: iso(round.closesAt), drawsAt: iso(round.drawsAt), endsAt: iso(round.endsAt) },
    serverTime: now.toISOString(),
    seedHash: round.seedHash,
    seed: announced ? round.seed : null,
    entriesHash: announced ? round.entriesHash : null,
    reward: { eur: eur(round.rewardEurMinor), amounts },
    playerCount: entries.length,
    players: entries.map((e) => ({ ticket: e.ticket, address: maskAddress(e.address), currency: e.currency })),
    winner:
      announced && winnerEntry && round.rewardCurrency && round.rewardAmount !== null
        ? {
            ticket: winnerEntry.ticket,
            address: maskAddress(winnerEntry.address),
            currency: round.rewardCurrency,
            amount: minorToDecimal(round.rewardAmount, currencyByCode(round.rewardCurrency)!.decimals),
            rate: round.rewardRate!,
          }
        : null,
    paused: state?.paused ?? false,
  };
}

/** GET /api/faucet: the current round, or null before the ticker first ran. */
export async function currentView(db: Db, rates: RatesAdapter): Promise<RoundView | null> {
  const round = await currentRound(db);
  return round ? roundView(db, round, rates) : null;
}

export async function roundById(db: Db, rates: RatesAdapter, id: number): Promise<RoundView> {
  const [round] = await db.select().from(faucetRounds).where(eq(faucetRounds.id, id));
  if (!round) throw new ApiError(404, 'not_found');
  return roundView(db, round, rates);
}

/**
 * A cheap fingerprint of what the public sees (round, state, player count, pause switch): the
 * live-update stream rebuilds and pushes the full view only when it changes.
 */
export async function currentVersion(db: Db): Promise<string> {
  const [row] = rowsOf<{ v: string | null }>(
    await db.execute(sql`
      select r.id || ':' || r.state || ':' || coalesce(r.game_over_reason, '') || ':' ||
             (select count(*) from faucet_entries e where e.round_id = r.id) || ':' ||
             coalesce((select paused::text from faucet_state where id = 1), '') as v
      from faucet_rounds r where r.finished_at is null`),
  );
  return row?.v ?? 'none';
}

/** The player's own recent entries and how each ended (GET /api/faucet/me). */
export async function myEntries(db: Db, accountId: string, limit = 20) {
  const entries = await db
    .select({ id: faucetEntries.id, roundId: faucetEntries.roundId, ticket: faucetEntries.ticket, address: faucetEntries.address, currency: faucetEntries.currency, createdAt: faucetEntries.createdAt })
    .from(faucetEntries)
    .where(eq(faucetEntries.accountId, accountId))
    .orderBy(desc(faucetEntries.createdAt))
    .limit(limit);
  const rounds = entries.length
    ? await db
        .select({ id: faucetRounds.id, state: faucetRounds.state, winnerEntryId: faucetRounds.winnerEntryId, rewardCurrency: faucetRounds.rewardCurrency, rewardAmount: faucetRounds.rewardAmount })
        .from(faucetRounds)
        .where(inArray(faucetRounds.id, [...new Set(entries.map((e) => e.roundId))]))
    : [];
  const byId = new Map(rounds.map((r) => [r.id, r]));
  return entries.map((e) => {
    const round = byId.get(e.roundId)!;
    const decided = round.state === 'winner_announced' || round.winnerEntryId !== null;
    const won = decided ? round.winnerEntryId === e.id : null;
    return {
      roundId: e.roundId,
      ticket: e.ticket,
      address: e.address,
      currency: e.currency,
      createdAt: e.createdAt.toISOString(),
      result: won === null ? ('pending' as const) : won ? ('won' as const) : ('lost' as const),
      amount: won && round.rewardAmount !== null ? minorToDecimal(round.rewardAmount, currencyByCode(round.rewardCurrency!)!.decimals) : null,
    };
  });
}

/** Operator: pause (the current round is played out, then GAME OVER), resume, or add budget. */
export async function operate(
  db: Db,
  settings: FaucetSettings,
  action: { kind: 'pause' } | { kind: 'resume' } | { kind: 'fund'; eur: string } | { kind: 'status' },
  actor: string,
): Promise<{ paused: boolean; budgetEur: string; round: { id: number; state: string } | null }> {
  await ensureState(db, settings);
  if (action.kind !== 'status') {
    await db.transaction(async (tx) => {
      if (action.kind === 'fund') {
        const amount = decimalToMinor(action.eur, 2);
        if (amount === null || amount <= 0n) throw new ApiError(400, 'invalid_amount', 'eur');
        await tx
          .update(faucetState)
          .set({ budgetEurMinor: sql`${faucetState.budgetEurMinor} + ${amount.toString()}::bigint`, updatedAt: sql`now()` })
          .where(eq(faucetState.id, 1));
      } else {
        await tx.update(faucetState).set({ paused: action.kind === 'pause', updatedAt: sql`now()` }).where(eq(faucetState.id, 1));
      }
      await tx.insert(auditLog).values({ actor, action: `faucet.${action.kind}`, detail: action.kind === 'fund' ? { eur: action.eur } : null });
    });
  }
  const [state] = await db.select().from(faucetState).where(eq(faucetState.id, 1));
  const round = await currentRound(db);
  return { paused: state!.paused, budgetEur: eur(state!.budgetEurMinor), round: round ? { id: round.id, state: round.state } : null };
}
