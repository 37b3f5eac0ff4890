import * as React from 'react';
import { useExchangeConfig } from './exchange-config';

/**
 * Whether buying and selling against euros are switched on: the server's BUY_SELL_ENABLED, read
 * when the page runs (one build serves both states). Texts that say buying and selling are
 * paused show only while it is off; until the answer is known — and in the prerendered HTML —
 * they show nothing, so no page says "paused" while a buy goes through.
 */

/** true or false once the server said; undefined before, and when it could not be asked. */
export function useBuySellEnabled(): boolean | undefined {
  return useExchangeConfig()?.buySellEnabled;
}

/** Its children only while buying and selling are switched off. */
export function WhenBuySellDisabled({ children }: { children: React.ReactNode }) {
  return useBuySellEnabled() === false ? <>{children}</> : null;
}
