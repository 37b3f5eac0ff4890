import { currencyByCode } from '#domain/currencies';
import { draw, entriesHashOf, rewardInCurrency } from '#domain/faucet';
import { eur } from '#domain/money';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { nodeHashes } from './hashes';
import { faucetRepository, type Round } from './repository';
import type { Tx } from '../../db/client';
import type { Rates } from '../rates/service';

/**
 * The draw (with the block hash `mix` mixed in; null for a round closed before blocks were) and
 * the credit, in the caller's transaction. The winner's ledger account is credited
 * from the faucet's system account at the current rate; the budget pays the EUR reward.
 */
export async function drawAndPay(tx: Tx, round: Round, now: Date, rates: Rates, mix: string | null): Promise<boolean> {
  const entries = await faucetRepository.drawEntries(tx, round.id);
  if (entries.length === 0) {
    return faucetRepository.moveRound(tx, round, 'winner_announced', {
      entryCount: 0,
      entriesHash: entriesHashOf([]),
      mixHash: mix,
      announcedAt: now,
    });
  }
  const result = draw(
    round.seed!,
    round.id,
    entries.map((e) => e.ticket),
    mix,
    nodeHashes,
  );
  const winner = entries.find((e) => e.ticket === result.ticket)!;
  const rate = rates.rates[winner.currency];
  const currency = currencyByCode(winner.currency);
  if (!rate || !currency) throw new Error(`no EUR rate for ${winner.currency}: the draw waits for the next tick`);
  const amount = rewardInCurrency(round.rewardEurMinor, rate, currency.decimals);
  const moved = await faucetRepository.moveRound(tx, round, 'winner_announced', {
    entryCount: entries.length,
    entriesHash: result.entriesHash,
    winnerEntryId: winner.id,
    rewardCurrency: winner.currency,
    rewardAmount: amount,
    rewardRate: rate,
    mixHash: mix,
    announcedAt: now,
  });
  if (!moved) return false;
  await faucetRepository.spendBudget(tx, round.rewardEurMinor, now);
  const [from, to] = await Promise.all([
    systemAccount(tx, 'faucet', winner.currency),
    userAccount(tx, winner.accountId, winner.currency),
  ]);
  await transfer(tx, {
    id: `faucet:${round.id}`,
    currency: winner.currency,
    debitAccountId: from.id,
    creditAccountId: to.id,
    amount,
    code: 'faucet',
    metadata: {
      roundId: round.id,
      ticket: winner.ticket,
      rewardEur: eur(round.rewardEurMinor),
      eurValue: eur(round.rewardEurMinor),
      rate,
    },
  });
  return true;
}
