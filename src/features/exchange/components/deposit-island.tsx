import * as React from 'react';
import { IslandPlaceholder } from '../../../ui/island';
import { ExchangeSessionProvider } from '../session';
import { Deposit } from './deposit';
import '../exchange.css';

/** The deposit page's island: the reference pattern, the user's own reference and cap, the account. */
export function DepositIsland() {
  return (
    <IslandPlaceholder name="deposit">
      <ExchangeSessionProvider>
        <Deposit />
      </ExchangeSessionProvider>
    </IslandPlaceholder>
  );
}
