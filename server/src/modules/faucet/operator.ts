import { DomainError } from '#domain/errors';
import { decimalToMinor, eur, EUR_DECIMALS } from '#domain/money';
import { recordAudit } from '../audit/service';
import { faucetRepository } from './repository';
import { ensureState, type FaucetSettings } from './service';
import type { FaucetStatus } from '#domain/contracts/faucet';
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
      // Under the lock every tick takes first: the state read here is the one changed.
      const before = (await faucetRepository.lockState(tx))!;
      if (action.kind === 'fund') {
        const amount = decimalToMinor(action.eur, EUR_DECIMALS);
        if (amount === null || amount <= 0n) throw new DomainError('invalid_amount', 'eur');
        await faucetRepository.addBudget(tx, amount);
      } else {
        await faucetRepository.setPaused(tx, action.kind === 'pause');
      }
      const after = (await faucetRepository.state(tx))!;
      const shown = (state: typeof before) => ({ paused: state.paused, budgetEur: eur(state.budgetEurMinor) });
      await recordAudit(tx, { actor, action: `faucet.${action.kind}`, before: shown(before), after: shown(after) });
    });
  }
  const state = await faucetRepository.state(db);
  const round = await faucetRepository.currentRound(db);
  return {
    paused: state!.paused,
    budgetEur: eur(state!.budgetEurMinor),
    round: round ? { id: round.id, state: round.state } : null,
  };
}
