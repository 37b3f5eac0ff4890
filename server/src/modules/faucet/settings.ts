import { decimalToMinor, EUR_DECIMALS } from '#domain/money';
import type { Config } from '../../config';
import type { FaucetSettings } from './service';

/** The faucet's settings from the validated configuration (EUR strings to cents, seconds to ms) and the chain its draws mix blocks from. */
export function faucetSettings(
  config: Pick<Config, 'FAUCET_ROUND_SECONDS' | 'FAUCET_REWARD_EUR' | 'FAUCET_BUDGET_EUR' | 'FAUCET_SEED_CHAIN_LENGTH'>,
  chain: FaucetSettings['chain'],
): FaucetSettings {
  return {
    seedChainLength: config.FAUCET_SEED_CHAIN_LENGTH,
    chain,
    roundMs: Math.round(config.FAUCET_ROUND_SECONDS * 1000),
    rewardEurMinor: decimalToMinor(config.FAUCET_REWARD_EUR, EUR_DECIMALS)!,
    initialBudgetEurMinor: decimalToMinor(config.FAUCET_BUDGET_EUR, EUR_DECIMALS)!,
  };
}
