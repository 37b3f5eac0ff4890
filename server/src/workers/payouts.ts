import { simulatedAdapter } from '../dev/simulated-payouts';
import { bankPayoutOutcomes } from '../modules/bank/service';
import { chainReturnOutcomes } from '../modules/incoming/service';
import { orderPayoutOutcomes } from '../modules/orders/settlement';
import { externalAdapter, type PayoutAdapters } from '../modules/payouts/adapters';
import { sendPayoutOutcomes } from '../modules/wallet/sends';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { PayoutApproval } from '../modules/payouts/approval';
import type { PayoutOutcomes } from '../modules/payouts/service';
import type { SecurityLinks } from '../modules/protection/links';

/**
 * What an approved, completed or failed payout means, per purpose: the wallet's sends, the
 * orders', refunded bank payments', chain outputs sent back. An order whose delivery fails is refunded by a new payout,
 * which the approval policy judges as it judges any other. A completed send is told by a security
 * email, whose freeze link `links` makes.
 */
export const payoutOutcomes = (approval: PayoutApproval, links: SecurityLinks): PayoutOutcomes => ({
  send: sendPayoutOutcomes(links),
  ...orderPayoutOutcomes(approval),
  ...bankPayoutOutcomes,
  ...chainReturnOutcomes,
});

/**
 * The adapters CHAIN_PAYOUTS and BANK_PAYOUTS name: `simulated` (local mode only; the config
 * refuses it in production) or the external executor (`signer` for crypto, `external` for SEPA).
 */
export function payoutAdapters(
  config: Pick<Config, 'CHAIN_PAYOUTS' | 'BANK_PAYOUTS'>,
  db: Db,
  given: Partial<PayoutAdapters> = {},
  nodeCurrencies: ReadonlySet<string> = new Set(),
): PayoutAdapters {
  const chain = config.CHAIN_PAYOUTS === 'simulated' ? simulatedAdapter(db, 'chain') : externalAdapter('chain');
  // A currency with a real node (CHAIN_RPC_URL_<CUR>) is paid by the signer, whatever pays the others.
  const signer = externalAdapter('chain');
  return {
    chain:
      given.chain ??
      (nodeCurrencies.size === 0
        ? chain
        : {
            name: chain.name,
            submit: (payout) => (nodeCurrencies.has(payout.currency) ? signer : chain).submit(payout),
          }),
    bank: given.bank ?? (config.BANK_PAYOUTS === 'simulated' ? simulatedAdapter(db, 'bank') : externalAdapter('bank')),
  };
}
