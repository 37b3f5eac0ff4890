import * as React from 'react';
import { apiOrigin } from '../config';

/**
 * Whether buying and selling against euros are switched on: the server's BUY_SELL_ENABLED, read
 * when the page runs (one build serves both states). Texts that say buying and selling are
 * paused show only while it is off; until the answer is known — and in the prerendered HTML —
 * they show nothing, so no page says "paused" while a buy goes through.
 */
let asked: Promise<boolean | undefined> | undefined;
function buySellEnabled(): Promise<boolean | undefined> {
  asked ??= fetch(`${apiOrigin}/api/exchange/config`)
    .then(async (response) => (response.ok ? ((await response.json()) as { buySellEnabled: boolean }).buySellEnabled : undefined))
    .catch(() => {
      asked = undefined; // offline: ask again on the next page
      return undefined;
    });
  return asked;
}

/** true or false once the server said; undefined before, and when it could not be asked. */
export function useBuySellEnabled(): boolean | undefined {
  const [enabled, setEnabled] = React.useState<boolean | undefined>(undefined);
  React.useEffect(() => {
    let current = true;
    void buySellEnabled().then((value) => current && setEnabled(value));
    return () => {
      current = false;
    };
  }, []);
  return enabled;
}

/** Its children only while buying and selling are switched off. */
export function WhenBuySellDisabled({ children }: { children: React.ReactNode }) {
  return useBuySellEnabled() === false ? <>{children}</> : null;
}
