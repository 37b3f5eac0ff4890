import fp from 'fastify-plugin';
import { knownDecimals } from '#domain/currencies';
import { minorToDecimal } from '#domain/money';
import { refreshNetworkFee } from '../modules/chain/fees';
import { confirmationsOf } from '../modules/chain/nodes';
import { DEFAULT_WATCHER_SETTINGS, scanChain, type WatcherHooks } from '../modules/chain/watcher';
import { chainDepositArrived, chainDepositReversed } from '../modules/incoming/service';
import { publishSnapshot } from '../modules/liabilities/service';
import { relayMail, smtpTransport, type MailTransport } from '../modules/notify/mail-relay';
import { writeAllWaitingEmails } from '../modules/notify/outbox-writer';
import { reconcileAll } from '../modules/ops/service';
import { expireUnpaidOrders } from '../modules/orders/intake';
import { processOrders, type SettlementDeps } from '../modules/orders/settlement';
import {
  chainHouseTxMined,
  completeConfirmedChainPayouts,
  chainPayoutsCompletedAbove,
  chainPayoutsInBlock,
  chainPayoutsUnconfirmedAbove,
  runPayouts,
} from '../modules/payouts/service';
import { applyRetention } from '../modules/retention/service';
import { createFaucetTicker, type FaucetTicker } from './faucet-ticker';
import { payoutAdapters, payoutOutcomes } from './payouts';
import { repeat } from './repeat';
import { xrpWorkers } from './xrp';
import type { NodeCurrency } from '#domain/chain';
import type { Config } from '../config';
import type { XrpChain } from '../modules/chain/nodes';
import type { CoinNode } from '../modules/chain/rpc';
import type { Chain, Xpubs } from '../modules/chain/service';
import type { FaucetSettings } from '../modules/faucet/service';
import type { PayoutAdapters } from '../modules/payouts/adapters';
import type { PayoutApproval } from '../modules/payouts/approval';
import type { PayoutOutcomes } from '../modules/payouts/service';
import type { RatesAdapter } from '../modules/rates/service';

/**
 * Background work, all of it started here (docs/decisions/0009). Every replica runs every worker; each
 * item goes to one of them (SKIP LOCKED, a lease, or the faucet's advisory lock):
 * - order processing: expires unpaid orders (ORDER_EXPIRY_DAYS), converts funded orders and books
 *   their delivery (ORDER_WORKER_INTERVAL_MS);
 * - payouts: hands booked payouts to the chain or bank adapter, outside any transaction, and books
 *   the result (PAYOUT_WORKER_INTERVAL_MS);
 * - retention: deletes what the privacy policy keeps no longer (RETENTION_INTERVAL_MS);
 * - proof of liabilities: publishes a snapshot once per LIABILITIES_INTERVAL_MS; every replica
 *   looks once a minute, the first to find the period without one publishes it (a unique index
 *   on the period, under an advisory lock: one snapshot per period whatever the replicas);
 * - mail relay: hands the outbox's emails to SMTP_URL;
 * - the faucet ticker: moves rounds along the clock. The process starts it after listening
 *   (`app.workers.start()` in main.ts); tests drive rounds themselves.
 * The interval workers start when the app is built and finish their current run on close.
 */
export type Workers = {
  faucetTicker: FaucetTicker;
  payoutAdapters: PayoutAdapters;
  /** Which payouts wait for two operators' approval, and what each payout's outcome means (tests drive the workers with them). */
  payoutApproval: PayoutApproval;
  payoutOutcomes: PayoutOutcomes;
  /** What converting orders needs (tests settle orders with it, or with their own rates). */
  settlement: SettlementDeps;
  /** Starts the faucet ticker (the interval workers run from the moment the app is built). */
  start(): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    workers: Workers;
  }
}

/** What the deposit watcher books through: deposits to wallets and orders, their reversal, the signer's payouts. */
export function watcherHooks(rates: RatesAdapter, outcomes: PayoutOutcomes): WatcherHooks {
  return {
    async credit(db, deposit) {
      const decimals = knownDecimals(deposit.currency);
      const booked = await chainDepositArrived(db, rates, {
        currency: deposit.currency,
        address: deposit.address,
        amount: minorToDecimal(deposit.amount, decimals),
        txid: deposit.txid,
      });
      return { creditedTo: booked.orderReference ?? 'wallet' };
    },
    async reverse(tx, output) {
      await chainDepositReversed(tx, {
        currency: output.currency,
        txid: `${output.txid}:${output.vout}`,
        amount: output.amount,
      });
    },
    payoutsInBlock: chainPayoutsInBlock,
    payoutsUnconfirmedAbove: chainPayoutsUnconfirmedAbove,
    completedPayoutsAbove: chainPayoutsCompletedAbove,
    completePayouts: (db, currency, height) => completeConfirmedChainPayouts(db, outcomes, currency, height),
    houseTxMined: chainHouseTxMined,
  };
}

type WorkerOptions = {
  /** The currencies with a real node (CHAIN_RPC_URL_<CUR>): the watcher follows them, the signer pays them. */
  nodes: Map<NodeCurrency, CoinNode>;
  /** The XRP Ledger server and house account (CHAIN_RPC_URL_XRP): the XRP watcher follows it, the signer pays XRP (workers/xrp.ts). */
  xrp?: XrpChain | null;
  config: Config;
  rates: RatesAdapter;
  approval: PayoutApproval;
  chain: Chain;
  xpubs: Xpubs;
  faucet: FaucetSettings;
  payoutAdapters?: Partial<PayoutAdapters>;
  mailTransport?: MailTransport;
};

export const workersPlugin = fp<WorkerOptions>(
  async (app, { config, rates, approval, chain, xpubs, faucet, nodes, xrp = null, ...given }) => {
    const adapters = payoutAdapters(
      config,
      app.db,
      given.payoutAdapters,
      new Set<string>([...nodes.keys(), ...(xrp ? ['XRP'] : [])]),
    );
    const outcomes = payoutOutcomes(approval, app.protection.links);
    const faucetTicker = createFaucetTicker({
      database: app.database,
      rates,
      settings: faucet,
      log: app.log,
      onAdvance: () => app.faucet.events.poke(),
    });
    const settlement = { rates, approval, buySellEnabled: config.BUY_SELL_ENABLED };
    app.decorate('workers', {
      faucetTicker,
      payoutAdapters: adapters,
      payoutApproval: approval,
      payoutOutcomes: outcomes,
      settlement,
      start: () => faucetTicker.start(),
    });

    repeat(app, 'order processing', config.ORDER_WORKER_INTERVAL_MS, async () => {
      await expireUnpaidOrders(app.db, config.ORDER_EXPIRY_DAYS);
      return processOrders(app.db, settlement);
    });
    repeat(app, 'payouts', config.PAYOUT_WORKER_INTERVAL_MS, () =>
      runPayouts(app.db, {
        adapters,
        outcomes,
        leaseMs: config.PAYOUT_LEASE_MS,
        beforeBooking:
          config.PAYOUT_BOOKING_DELAY_MS > 0
            ? () => new Promise((resolve) => setTimeout(resolve, config.PAYOUT_BOOKING_DELAY_MS))
            : undefined,
        onError: (error) => app.log.warn({ err: error }, 'payout adapter unreachable; the payout is tried again'),
      }),
    );
    // The deposit watcher, per currency with a real node (chain/watcher.ts).
    for (const [code, node] of nodes) {
      const settings = { ...DEFAULT_WATCHER_SETTINGS, confirmations: confirmationsOf(config, code) };
      repeat(app, `chain watcher ${code}`, config.CHAIN_POLL_MS, async () => {
        // The fee users are charged follows the node's estimate (chain/fees.ts).
        await refreshNetworkFee(node, config.NETWORK_FEE_MARGIN_PERCENT);
        return (await scanChain(app.db, node, watcherHooks(rates, outcomes), settings)).scanned;
      });
    }
    if (xrp) xrpWorkers(app, { xrp, rates, config });
    if (nodes.size > 0 || xrp)
      repeat(
        app,
        'reconciliation',
        config.RECONCILE_INTERVAL_MS,
        async () => (await reconcileAll(app.db, nodes, xpubs, xrp)).filter((r) => !r.ok).length,
      );
    repeat(app, 'retention', config.RETENTION_INTERVAL_MS, () => applyRetention(app.db));
    const liabilitiesInterval = config.LIABILITIES_INTERVAL_MS;
    repeat(app, 'proof of liabilities', Math.min(liabilitiesInterval, 60_000), () =>
      publishSnapshot(app.db, { chain, xpubs }, { intervalMs: liabilitiesInterval }),
    );
    // Emails kept as templates by the transactions that send them (an order's confirmation) are
    // written within a second, whether or not a relay sends them (notify/outbox-writer.ts).
    repeat(app, 'email writer', config.EMAIL_WRITER_INTERVAL_MS, () => writeAllWaitingEmails(app.db));
    if (config.SMTP_URL) {
      const transport = given.mailTransport ?? smtpTransport(config.SMTP_URL);
      repeat(app, 'mail relay', 2000, () => relayMail(app.db, transport, config.MAIL_FROM));
    }
    // The ticker must finish its transaction before the database closes.
    app.addHook('preClose', async () => faucetTicker.stop());
  },
);
