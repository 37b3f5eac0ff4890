import * as React from 'react';
import { asTransition } from '../ui/transition';
import { askOnce } from './ask-once';
import type { BankAccount } from '#domain/contracts/orders';

/** Per currency, a block explorer's page for a transaction: `{txid}` is where the hash goes. None in local mode. */
export type Explorers = Partial<Record<string, string>>;

/**
 * GET /api/exchange/config: whether buying and selling are on (the server's BUY_SELL_ENABLED),
 * the account buyers and depositors pay into, and the block explorers transaction hashes link to.
 * Nothing in it depends on the page's language, so one answer serves every page of the visit.
 */
export type ExchangeConfig = { buySellEnabled: boolean; bank: BankAccount | null; explorers: Explorers };

// A server without the endpoint (404) is taken as "on" with nothing to show: a switched-off API
// still answers buy_sell_disabled to an order.
const ask = askOnce<Partial<ExchangeConfig> & { buySellEnabled: boolean }>('/api/exchange/config', {
  absent: { buySellEnabled: true },
});

/** The one reader of the exchange's run-time configuration: asked once per visit, again after a failure; undefined when it could not be had. */
export async function exchangeConfig(): Promise<ExchangeConfig | undefined> {
  const answer = await ask();
  return (
    answer && { buySellEnabled: answer.buySellEnabled, bank: answer.bank ?? null, explorers: answer.explorers ?? {} }
  );
}

/**
 * The configuration for a component: undefined until the server answered (and in the
 * prerendered HTML), null when it could not be asked. `needed` false asks nothing (yet).
 */
export function useExchangeConfig(needed = true): ExchangeConfig | null | undefined {
  const [config, setConfig] = React.useState<ExchangeConfig | null | undefined>(undefined);
  React.useEffect(() => {
    if (!needed) return;
    let current = true;
    const update = asTransition(setConfig);
    void exchangeConfig().then((answer) => current && update(answer ?? null));
    return () => {
      current = false;
    };
  }, [needed]);
  return config;
}
