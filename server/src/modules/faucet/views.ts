import { currencyByCode } from '../../../../domain/currencies';
import { DomainError } from '../../../../domain/errors';
import { FAUCET_CURRENCIES, maskAddress, phaseEndsAt, rewardInCurrency } from '../../../../domain/faucet';
import { eur, minorToDecimal } from '../../../../domain/money';
import { faucetRepository, type Round } from './repository';
import type { Round as RoundView } from '../../../../domain/contracts/faucet';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

// What the public sees of the faucet: GET /api/faucet, any past round, and the fingerprint the
// live updates (events.ts) watch.

/** What anyone may see of a round (domain/contracts/faucet.ts). */
export type { RoundView };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What anyone may see of a round. The seed only once the winner is announced. */
export async function roundView(db: Db, round: Round, rates: RatesAdapter): Promise<RoundView> {
  const [entries, state, now, current] = await Promise.all([faucetRepository.publicEntries(db, round.id), faucetRepository.paused(db), faucetRepository.now(db), rates.current()]);
  const phase = round.state;
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
    gameOverReason: round.gameOverReason ?? null,
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
  const round = await faucetRepository.currentRound(db);
  return round ? roundView(db, round, rates) : null;
}

export async function roundById(db: Db, rates: RatesAdapter, id: number): Promise<RoundView> {
  const round = await faucetRepository.roundById(db, id);
  if (!round) throw new DomainError('not_found');
  return roundView(db, round, rates);
}

/**
 * A cheap fingerprint of what the public sees (round, state, player count, pause switch): the
 * live-update stream rebuilds and pushes the full view only when it changes.
 */
export async function currentVersion(db: Db): Promise<string> {
  const round = await faucetRepository.currentFingerprint(db);
  return round ? [round.id, round.state, round.gameOverReason ?? '', round.players, round.paused ?? ''].join(':') : 'none';
}
