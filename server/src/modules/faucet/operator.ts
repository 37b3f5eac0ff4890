import { DomainError } from '../../../../domain/errors';
import { decimalToMinor, eur, EUR_DECIMALS } from '../../../../domain/money';
import { faucetRepository } from './repository';
import { ensureState, type FaucetSettings } from './service';
import type { FaucetStatus } from '../../../../domain/contracts/faucet';
import type { Db } from '../../db/client';

/** Operator: pause (the current round is played out, then GAME OVER), resume, or add budget. */
export async function operate(
  db: Db,
  settings: FaucetSettings,
  action: { kind: 'pause' } | { kind: 'resume' } | { kind: 'fund'; eur: string } | { kind: 'status' },
  actor: string,
): Promise<FaucetStatus> {
  await ensureState(db, settings);
  if (action.kind !== 'status') {
    await db.transaction(async (tx) => {
      if (action.kind === 'fund') {
        const amount = decimalToMinor(action.eur, EUR_DECIMALS);
        if (amount === null || amount <= 0n) throw new DomainError('invalid_amount', 'eur');
        await faucetRepository.addBudget(tx, amount);
      } else {
        await faucetRepository.setPaused(tx, action.kind === 'pause');
      }
      await faucetRepository.audit(tx, { actor, action: `faucet.${action.kind}`, detail: action.kind === 'fund' ? { eur: action.eur } : null });
    });
  }
  const state = await faucetRepository.state(db);
  const round = await faucetRepository.currentRound(db);
  return { paused: state!.paused, budgetEur: eur(state!.budgetEurMinor), round: round ? { id: round.id, state: round.state } : null };
}
