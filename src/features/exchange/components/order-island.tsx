import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useExchangeConfig } from '../../../components/exchange-config';
import { IslandPlaceholder } from '../../../components/island';
import { ExchangeSessionProvider } from '../session';
import { Confirmation } from './confirmation';
import { OrderForm } from './order-form';
import type { Order, OrderType } from '../api/types';
import '../exchange.css';

/**
 * The buy, sell and swap pages' island, with the exchange session (the login SDK only for people
 * who logged in on this browser). Buying and selling can be switched off by the operator: the
 * pages then show the notice instead of the form.
 */
export function OrderIsland({ type }: { type: OrderType }) {
  const { t } = useTranslation('exchange');
  const [placed, setPlaced] = React.useState<{ order: Order; email: string } | null>(null);
  // Without an answer the form still works: a switched-off API answers buy_sell_disabled.
  const switchedOff = useExchangeConfig(type !== 'swap')?.buySellEnabled === false;
  const [refused, setRefused] = React.useState(false);
  const disabled = switchedOff || refused;
  const [formKey, setFormKey] = React.useState(0);

  return (
    <IslandPlaceholder name="order-form">
      <ExchangeSessionProvider>
        {disabled ? (
          <p className="notice" role="status" data-testid="buy-sell-disabled">
            {t('buy.disabled')}
          </p>
        ) : placed ? (
          <Confirmation
            order={placed.order}
            email={placed.email}
            onAnother={() => {
              setPlaced(null);
              setFormKey((k) => k + 1);
            }}
          />
        ) : (
          <OrderForm key={formKey} type={type} onPlaced={(order, email) => setPlaced({ order, email })} onDisabled={() => setRefused(true)} />
        )}
      </ExchangeSessionProvider>
    </IslandPlaceholder>
  );
}
