import { randomBytes } from 'node:crypto';
import { hashDown, roundSchedule, type GameOverReason } from '#domain/faucet';
import { drawAndPay } from './draw';
import { nodeSeedHash } from './hashes';
import { faucetRepository, type StateRow } from './repository';
import type { Db, Tx } from '../../db/client';
import type { Chain } from '../chain/service';
import type { RatesAdapter } from '../rates/service';

/**
 * The faucet game (issue 7, docs/decisions/0010).
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
 * - the seed never leaves the server before the winner is announced, and it is not chosen then:
 *   rounds take the seeds of a hash chain in order, whose anchor was public before the chain's
 *   first round (one per round, under the state lock; a unique index on chain and index);
 * - the draw mixes in the hash of the first block after registrations closed: the height is
 *   fixed when the round closes (read after the closing time), the draw waits for that block.
 *
 * This file moves rounds along the clock (the ticker's `advance`); `draw.ts` draws and pays,
 * `entries.ts` takes the players' entries, `views.ts` is what the public sees, `operator.ts` the
 * operator's actions; the SQL of all of them is in `repository.ts`.
 */
export type FaucetSettings = {
  /** Whole round length (all four phases). */
  roundMs: number;
  rewardEurMinor: bigint;
  /** The budget the faucet starts with when its state row is first created. */
  initialBudgetEurMinor: bigint;
  /** How many rounds one seed chain serves (hashing a seed down from the top costs one SHA-256 per step). */
  seedChainLength: number;
  /** Where the blocks mixed into draws come from: the simulated chain locally, Bitcoin with real payouts. */
  chain: Pick<Chain, 'name' | 'tip' | 'block'>;
};

export async function ensureState(
  db: Db,
  settings: Pick<FaucetSettings, 'initialBudgetEurMinor' | 'seedChainLength'>,
): Promise<void> {
  await faucetRepository.ensureState(db, settings.initialBudgetEurMinor);
  // The first chain's anchor is public before the first round starts.
  if (!(await faucetRepository.seedChainInUse(db))) await newSeedChain(db, settings.seedChainLength);
}

/** A new chain: a random top seed, hashed down to the anchor that is published from now on. */
async function newSeedChain(db: Db, length: number) {
  const topSeed = randomBytes(32).toString('hex');
  return faucetRepository.insertSeedChain(db, { topSeed, length, anchor: hashDown(topSeed, length, nodeSeedHash) });
}

/** The next seed of the chain in use (in the transaction that holds the state lock). */
async function takeSeed(
  tx: Tx,
  length: number,
): Promise<{ seed: string; seedHash: string; seedChainId: number; seedIndex: number }> {
  const chain = (await faucetRepository.seedChainInUse(tx)) ?? (await newSeedChain(tx, length));
  const index = chain.nextIndex;
  const seed = hashDown(chain.topSeed, chain.length - index, nodeSeedHash);
  await faucetRepository.takeSeed(tx, chain.id);
  // Its last seed: the next chain is published now, a whole round before its first seed is used.
  if (index === chain.length && (await faucetRepository.seedChainsLeft(tx)) === 0) await newSeedChain(tx, length);
  return { seed, seedHash: nodeSeedHash(seed), seedChainId: chain.id, seedIndex: index };
}

/** Why no round can start now, or null when one can. */
function gameOverReason(state: StateRow, settings: FaucetSettings): GameOverReason | null {
  if (state.paused) return 'paused';
  if (state.budgetEurMinor < settings.rewardEurMinor) return 'budget';
  return null;
}

async function startRound(tx: Tx, state: StateRow, now: Date, settings: FaucetSettings): Promise<void> {
  const reason = gameOverReason(state, settings);
  if (reason) {
    await faucetRepository.insertRound(tx, {
      state: 'game_over',
      gameOverReason: reason,
      rewardEurMinor: settings.rewardEurMinor,
      startsAt: now,
    });
    return;
  }
  const schedule = roundSchedule(now, settings.roundMs);
  await faucetRepository.insertRound(tx, {
    state: 'new',
    ...(await takeSeed(tx, settings.seedChainLength)),
    rewardEurMinor: settings.rewardEurMinor,
    ...schedule,
  });
}

/** One transition if one is due; false when the current round is where the clock says it should be. */
async function step(db: Db, rates: RatesAdapter, settings: FaucetSettings): Promise<boolean> {
  // The rate and the chain are asked before the transaction (a real feed or explorer is a network
  // call; no lock is held while waiting for it), and only when the next transition needs them.
  const peek = await faucetRepository.currentRound(db);
  const clock = peek ? await faucetRepository.now(db) : undefined;
  const past = (at: Date | null | undefined) => !!at && !!clock && clock.getTime() >= at.getTime();
  const ratesNow = peek?.state === 'registrations_closed' ? await rates.current() : undefined;
  // Read after the closing time, so the block after this tip did not exist when registrations closed.
  const tip = peek?.state === 'registrations_open' && past(peek.closesAt) ? await settings.chain.tip(db) : undefined;
  // Locally this mines the block; on a real chain it is null until the block is there.
  const mixed =
    peek?.state === 'registrations_closed' && past(peek.drawsAt) && peek.mixHeight !== null
      ? await settings.chain.block(db, peek.mixHeight)
      : undefined;
  return db.transaction(async (tx) => {
    const state = await faucetRepository.lockState(tx);
    if (!state) throw new Error('faucet_state is missing: ensureState() first');
    const round = await faucetRepository.currentRound(tx, 'update');
    const now = await faucetRepository.now(tx);
    if (!round) {
      await startRound(tx, state, now, settings);
      return true;
    }
    const due = (at: Date | null) => at !== null && now.getTime() >= at.getTime();
    switch (round.state) {
      case 'new':
        return due(round.opensAt) && faucetRepository.moveRound(tx, round, 'registrations_open');
      case 'registrations_open':
        if (!due(round.closesAt) || !tip) return false; // peeked before the closing time: the next tick reads the tip
        return faucetRepository.moveRound(tx, round, 'registrations_closed', {
          mixSource: settings.chain.name,
          mixHeight: tip.height + 1,
        });
      case 'registrations_closed': {
        if (!due(round.drawsAt)) return false;
        if (!ratesNow) return false; // peeked in an earlier state; the next tick has the rates
        // A round closed before blocks were mixed in draws without one.
        if (round.mixHeight !== null && round.mixHeight !== peek?.mixHeight) return false;
        const mix = round.mixHeight === null ? null : mixed?.hash;
        if (mix === undefined) return false; // the block is not there yet: the draw waits for it
        return drawAndPay(tx, round, now, ratesNow, mix);
      }
      case 'winner_announced':
        if (!due(round.endsAt)) return false;
        await faucetRepository.finishRound(tx, round.id, now);
        await startRound(tx, state, now, settings);
        return true;
      case 'game_over': {
        const reason = gameOverReason(state, settings);
        if (reason === round.gameOverReason) return false;
        if (reason) return faucetRepository.moveRound(tx, round, 'game_over', { gameOverReason: reason });
        await faucetRepository.finishRound(tx, round.id, now);
        await startRound(tx, state, now, settings);
        return true;
      }
    }
  });
}

// Bounded: a round has at most five transitions before it waits for the clock again.
const MAX_TRANSITIONS_PER_ADVANCE = 10;

/**
 * Brings the faucet up to date with the clock: every due transition, in order (a ticker that was
 * down for a while walks the round through its remaining phases). Returns how many it made.
 */
export async function advance(db: Db, rates: RatesAdapter, settings: FaucetSettings): Promise<number> {
  let transitions = 0;
  while (transitions < MAX_TRANSITIONS_PER_ADVANCE && (await step(db, rates, settings))) transitions++;
  return transitions;
}

/** How often the ticker (and each replica's stream poller) looks at the round: 50 times a round, 10 ms to 1 s. */
export const tickMsFor = (roundMs: number) => Math.min(1000, Math.max(10, Math.floor(roundMs / 50)));
