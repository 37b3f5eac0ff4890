import { randomBytes } from 'node:crypto';
import { normalizeAddress } from '#domain/addresses';
import { knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import { FAUCET_CURRENCIES, isFaucetCurrency, SALT_BYTES, ticketOf } from '#domain/faucet';
import { minorToDecimal } from '#domain/money';
import { requireVerifications } from '../identity/service';
import { ownReceptionAddress } from '../wallet/addresses';
import { faucetRepository } from './repository';
import type { Entry, MyEntry } from '#domain/contracts/faucet';
import type { Db } from '../../db/client';

// The players' side of the faucet: entering the current round (the share lock of the service's
// invariants) and reading back their own entries.

/** POST /api/faucet/entries: the logged-in player enters the current round with one of their addresses. */
export async function enter(db: Db, input: { accountId: string; address: string }): Promise<Entry> {
  await requireVerifications(db, input.accountId, { usesWallet: true });
  // The address in any valid spelling (bech32 in capitals, cashaddr without its prefix or the same
  // key in legacy form, ETH in any case) is the player's address in its stored, canonical form.
  const spellings = [
    ...new Set(
      FAUCET_CURRENCIES.map((currency) => normalizeAddress(currency, input.address)).filter(
        (a): a is string => a !== null,
      ),
    ),
  ];
  const own = spellings.length ? await ownReceptionAddress(db, input.accountId, spellings) : undefined;
  if (!own || !isFaucetCurrency(own.currency)) throw new DomainError('not_your_address', 'address');
  return db.transaction(async (tx) => {
    // Shares the lock with other entries, waits for a transition in progress: the ticker cannot
    // close the round between this check and the insert.
    const round = await faucetRepository.currentRound(tx, 'share');
    const now = await faucetRepository.now(tx);
    if (!round || round.state === 'game_over') throw new DomainError('faucet_game_over');
    const open =
      (round.state === 'new' || round.state === 'registrations_open') &&
      now.getTime() >= round.opensAt!.getTime() &&
      now.getTime() < round.closesAt!.getTime();
    if (!open) throw new DomainError('registrations_closed');
    // A fresh secret salt per entry (domain/faucet.ts): without it anyone with a list of candidate
    // addresses could recompute the tickets and unmask the players. Only the player is told it.
    const salt = randomBytes(SALT_BYTES).toString('hex');
    const ticket = ticketOf(round.id, own.address, salt);
    const entry = await faucetRepository.insertEntry(tx, {
      roundId: round.id,
      accountId: input.accountId,
      addressId: own.id,
      currency: own.currency,
      address: own.address,
      ticket,
      salt,
    });
    if (!entry) throw new DomainError('already_entered');
    return { roundId: round.id, ticket, address: own.address, currency: own.currency, salt };
  });
}

/** The player's own recent entries and how each ended (GET /api/faucet/me). */
export async function myEntries(db: Db, accountId: string, limit = 20): Promise<MyEntry[]> {
  const entries = await faucetRepository.entriesOf(db, accountId, limit);
  const rounds = entries.length
    ? await faucetRepository.roundOutcomes(db, [...new Set(entries.map((e) => e.roundId))])
    : [];
  const byId = new Map(rounds.map((r) => [r.id, r]));
  return entries.map((e): MyEntry => {
    const round = byId.get(e.roundId)!;
    const decided = round.state === 'winner_announced' || round.winnerEntryId !== null;
    const won = decided ? round.winnerEntryId === e.id : null;
    return {
      roundId: e.roundId,
      ticket: e.ticket,
      address: e.address,
      currency: e.currency,
      salt: e.salt,
      createdAt: e.createdAt.toISOString(),
      result: won === null ? 'pending' : won ? 'won' : 'lost',
      amount:
        won && round.rewardAmount !== null
          ? minorToDecimal(round.rewardAmount, knownDecimals(round.rewardCurrency!))
          : null,
    };
  });
}
