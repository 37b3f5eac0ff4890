import { knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import {
  FAUCET_CURRENCIES,
  maskAddress,
  phaseEndsAt,
  rewardInCurrency,
  ROUNDS_FORMAT,
  type PublishedRound,
  type RoundsFile,
} from '#domain/faucet';
import { eur, minorToDecimal } from '#domain/money';
import { faucetRepository, type Round } from './repository';
import type { Round as RoundView, RoundsResponse, SeedChainsResponse } from '#domain/contracts/faucet';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

// What the public sees of the faucet: GET /api/faucet, any past round, and the fingerprint the
// live updates (events.ts) watch.

/** What anyone may see of a round (domain/contracts/faucet.ts). */
export type { RoundView };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type PublicEntry = Awaited<ReturnType<typeof faucetRepository.publicEntries>>[number];

/** Where a round's seed comes from: its chain's anchor and the round that revealed the seed before it. */
async function seedChainLink(db: Db, round: Round): Promise<RoundView['seedChain']> {
  if (round.seedChainId === null || round.seedIndex === null) return null;
  const [[chain], previousRoundId] = await Promise.all([
    faucetRepository.seedChains(db, [round.seedChainId]),
    round.seedIndex > 1
      ? faucetRepository.roundWithSeed(db, round.seedChainId, round.seedIndex - 1)
      : Promise.resolve(undefined),
  ]);
  return {
    id: round.seedChainId,
    index: round.seedIndex,
    anchor: chain!.anchor,
    previousRoundId: previousRoundId ?? null,
  };
}

const mixOf = (round: Round): RoundView['mix'] =>
  round.mixSource && round.mixHeight !== null
    ? { source: round.mixSource, height: round.mixHeight, hash: round.mixHash }
    : null;

/** What anyone may see of a round. The seed only once the winner is announced. */
export async function roundView(
  db: Db,
  round: Round,
  rates: RatesAdapter,
  given?: { entries: PublicEntry[]; paused: boolean; now: Date },
): Promise<RoundView> {
  const [entries, state, now, current, seedChain] = await Promise.all([
    given?.entries ?? faucetRepository.publicEntries(db, round.id),
    given ? { paused: given.paused } : faucetRepository.paused(db),
    given?.now ?? faucetRepository.now(db),
    rates.current(),
    seedChainLink(db, round),
  ]);
  const phase = round.state;
  const announced = phase === 'winner_announced';
  const winnerEntry = round.winnerEntryId ? entries.find((e) => e.id === round.winnerEntryId) : undefined;
  const amounts = Object.fromEntries(
    FAUCET_CURRENCIES.filter((code) => current.rates[code]).map((code) => {
      const decimals = knownDecimals(code);
      return [code, minorToDecimal(rewardInCurrency(round.rewardEurMinor, current.rates[code]!, decimals), decimals)];
    }),
  );
  const ends =
    round.state === 'game_over'
      ? null
      : phaseEndsAt(phase, {
          opensAt: round.opensAt!,
          closesAt: round.closesAt!,
          drawsAt: round.drawsAt!,
          endsAt: round.endsAt!,
        });
  return {
    id: round.id,
    state: phase,
    gameOverReason: round.gameOverReason ?? null,
    endsAt: iso(ends),
    schedule: {
      startsAt: round.startsAt.toISOString(),
      opensAt: iso(round.opensAt),
      closesAt: iso(round.closesAt),
      drawsAt: iso(round.drawsAt),
      endsAt: iso(round.endsAt),
    },
    serverTime: now.toISOString(),
    announcedAt: iso(round.announcedAt),
    seedHash: round.seedHash,
    seed: announced ? round.seed : null,
    seedChain,
    mix: mixOf(round),
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
            amount: minorToDecimal(round.rewardAmount, knownDecimals(round.rewardCurrency)),
            rate: round.rewardRate!,
          }
        : null,
    paused: state?.paused ?? false,
  };
}

/** GET /api/faucet: the current round, or null before the ticker first ran. */
export async function currentView(db: Db, rates: RatesAdapter): Promise<RoundView | null> {
  const round = await faucetRepository.currentRound(db);
  return round ? roundView(db, round, rates) : null;
}

export async function roundById(db: Db, rates: RatesAdapter, id: number): Promise<RoundView> {
  const round = await faucetRepository.roundById(db, id);
  if (!round) throw new DomainError('not_found');
  return roundView(db, round, rates);
}

/** GET /api/faucet/rounds: announced rounds, newest first, `limit` a page. */
export async function announcedRounds(
  db: Db,
  rates: RatesAdapter,
  options: { before?: number; limit: number },
): Promise<RoundsResponse> {
  const rows = await faucetRepository.announcedRounds(db, { before: options.before, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const [entries, state, now] = await Promise.all([
    faucetRepository.entriesOfRounds(
      db,
      page.map((r) => r.id),
    ),
    faucetRepository.paused(db),
    faucetRepository.now(db),
  ]);
  const rounds = await Promise.all(
    page.map((round) =>
      roundView(db, round, rates, {
        entries: entries.filter((e) => e.roundId === round.id),
        paused: state?.paused ?? false,
        now,
      }),
    ),
  );
  return { rounds, next: rows.length > options.limit ? page[page.length - 1]!.id : null };
}

/** GET /api/faucet/seed-chains: every chain's anchor (never its top seed). */
export async function seedChains(db: Db): Promise<SeedChainsResponse> {
  const chains = await faucetRepository.seedChains(db);
  return {
    chains: chains.map((c) => ({
      id: c.id,
      anchor: c.anchor,
      length: c.length,
      publishedAt: c.createdAt.toISOString(),
    })),
  };
}

/**
 * GET /api/faucet/rounds/export: rounds from..to with everything a check needs (domain/faucet.ts
 * RoundsFile, what `npm run verify:faucet` reads), and the chains their seeds come from. A round
 * not yet announced shows no seed.
 */
export async function exportRounds(db: Db, from: number, to: number): Promise<RoundsFile> {
  const rounds = await faucetRepository.roundsBetween(db, from, to);
  const entries = await faucetRepository.entriesOfRounds(
    db,
    rounds.map((r) => r.id),
  );
  const chainIds = [...new Set(rounds.map((r) => r.seedChainId).filter((id): id is number => id !== null))];
  const chains = await faucetRepository.seedChains(db, chainIds);
  const published = rounds.map((round): PublishedRound => {
    const announced = round.state === 'winner_announced';
    const mine = entries.filter((e) => e.roundId === round.id);
    return {
      id: round.id,
      state: round.state,
      announcedAt: iso(round.announcedAt),
      seedChain:
        round.seedChainId !== null && round.seedIndex !== null
          ? { id: round.seedChainId, index: round.seedIndex }
          : null,
      seedHash: round.seedHash,
      seed: announced ? round.seed : null,
      mix: mixOf(round),
      entriesHash: announced ? round.entriesHash : null,
      tickets: mine.map((e) => e.ticket),
      winnerTicket: announced ? (mine.find((e) => e.id === round.winnerEntryId)?.ticket ?? null) : null,
    };
  });
  return {
    format: ROUNDS_FORMAT,
    chains: chains.map((c) => ({
      id: c.id,
      anchor: c.anchor,
      length: c.length,
      publishedAt: c.createdAt.toISOString(),
    })),
    rounds: published,
  };
}

/**
 * A cheap fingerprint of what the public sees (round, state, player count, pause switch): the
 * live-update stream rebuilds and pushes the full view only when it changes.
 */
export async function currentVersion(db: Db): Promise<string> {
  const round = await faucetRepository.currentFingerprint(db);
  return round
    ? [round.id, round.state, round.gameOverReason ?? '', round.players, round.paused ?? ''].join(':')
    : 'none';
}
