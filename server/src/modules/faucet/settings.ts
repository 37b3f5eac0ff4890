import { decimalToMinor, EUR_DECIMALS } from '../../../../domain/money';
import type { Config } from '../../config';
import type { FaucetSettings } from './service';

/** The faucet's settings from the validated configuration (EUR strings to cents, seconds to ms). */
export function faucetSettings(config: Pick<Config, 'FAUCET_ROUND_SECONDS' | 'FAUCET_REWARD_EUR' | 'FAUCET_BUDGET_EUR'>): FaucetSettings {
  return {
    roundMs: Math.round(config.FAUCET_ROUND_SECONDS * 1000),
    rewardEurMinor: decimalToMinor(config.FAUCET_REWARD_EUR, EUR_DECIMALS)!,
    initialBudgetEurMinor: decimalToMinor(config.FAUCET_BUDGET_EUR, EUR_DECIMALS)!,
  };
}
