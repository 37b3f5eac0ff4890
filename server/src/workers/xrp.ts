import { minorToDecimal } from '#domain/money';
import { XRP_DECIMALS } from '#domain/xrp';
import { refreshXrpNetworkFee } from '../modules/chain/xrp-fees';
import { DEFAULT_XRP_WATCHER_SETTINGS, scanXrp, type XrpWatcherHooks } from '../modules/chain/xrp-watcher';
import { chainDepositArrived } from '../modules/incoming/service';
import { isPayoutTx } from '../modules/payouts/service';
import { repeat } from './repeat';
import type { Config } from '../config';
import type { XrpChain } from '../modules/chain/nodes';
import type { RatesAdapter } from '../modules/rates/service';
import type { FastifyInstance } from 'fastify';

/**
 * What the XRP watcher books through (chain/xrp-watcher.ts): deposits to wallets and orders by the
 * same path as the Bitcoin family's (`chain-deposit:XRP:<hash>`), and the payouts' hashes.
 */
export function xrpWatcherHooks(rates: RatesAdapter): XrpWatcherHooks {
  return {
    async credit(db, deposit) {
      const booked = await chainDepositArrived(db, rates, {
        currency: 'XRP',
        address: deposit.address,
        amount: minorToDecimal(deposit.amount, XRP_DECIMALS),
        txid: deposit.txid,
      });
      return { creditedTo: booked.orderReference ?? 'wallet' };
    },
    isPayoutTx: (db, hash) => isPayoutTx(db, 'XRP', hash),
  };
}

/** The XRP deposit watcher, every CHAIN_POLL_MS on every replica (its bookings are idempotent by hash). */
export function xrpWorkers(
  app: FastifyInstance,
  {
    xrp,
    rates,
    config,
  }: {
    xrp: XrpChain;
    rates: RatesAdapter;
    config: Pick<Config, 'CHAIN_POLL_MS' | 'XRP_FEE_CAP_DROPS' | 'NETWORK_FEE_MARGIN_PERCENT'>;
  },
): void {
  const hooks = xrpWatcherHooks(rates);
  let warned = false;
  repeat(app, 'chain watcher XRP', config.CHAIN_POLL_MS, async () => {
    // The fee users are charged follows what the signer will pay (chain/xrp-fees.ts).
    await refreshXrpNetworkFee(xrp.node, config.XRP_FEE_CAP_DROPS, config.NETWORK_FEE_MARGIN_PERCENT);
    const result = await scanXrp(app.db, xrp.node, hooks, { ...DEFAULT_XRP_WATCHER_SETTINGS, house: xrp.house });
    // Loud once per process (the console's alert stays open until an operator resolves it).
    if (result.requireDestTag === false && !warned)
      app.log.warn(
        'XRP_ADDRESS does not require destination tags (lsfRequireDestTag): see docs/chains.md "XRP Ledger"',
      );
    warned ||= result.requireDestTag === false;
    return result.credited + result.unmatched;
  });
}
