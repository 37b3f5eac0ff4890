import * as React from 'react';
import { IslandPlaceholder } from '../../../ui/island';
import { ExchangeSessionProvider } from '../session';
import { OrderHistory } from './order-history';
import '../exchange.css';

/** The order history page's island: lookup, the live order page and, logged in, the own orders. */
export function OrderHistoryIsland({ initialLookup }: { initialLookup?: { email: string; reference: string } }) {
  return (
    <IslandPlaceholder name="order-lookup">
      <ExchangeSessionProvider>
        <OrderHistory initialLookup={initialLookup} />
      </ExchangeSessionProvider>
    </IslandPlaceholder>
  );
}
