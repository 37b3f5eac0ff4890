import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ChunkBoundary } from '../../../app/chunk-boundary';
import { useErrorText } from '../../../app/error-text';
import { useExchangeConfig } from '../../../app/exchange-config';
import { IslandPlaceholder } from '../../../ui/island';
import { keepOrderLink, useOrderLink } from '../order-link';
import { ExchangeSessionProvider } from '../session';
import { OrderForm } from './order-form';
import type { Order, OrderType } from '../api/types';
import '../exchange.css';

/**
 * The confirmation (with the GiroCode QR and the IBAN library, ~14 KB gzipped) is needed only
 * once an order is placed: it is in its own chunk, which the browser downloads in its idle time
 * (webpack's prefetch link) and which runs only when an order has been placed, not while the page
 * starts. Until it is there, or if it cannot be fetched, the placed order still shows its reference.
 */
const loadConfirmation = () => import(/* webpackPrefetch: true */ './confirmation');
const Confirmation = React.lazy(() => loadConfirmation().then((m) => ({ default: m.Confirmation })));

function PlacedReference({ order }: { order: Order }) {
  const { t } = useTranslation('exchange');
  return (
    <section className="confirmation" aria-labelledby="confirmation-heading">
      <h2 id="confirmation-heading">{t('order.heading', { reference: order.reference })}</h2>
      <p>{t('confirm.reference')}</p>
      <p className="reference" data-testid="order-reference">
        {order.reference}
      </p>
      <p className="small">{t('confirm.referenceHint')}</p>
    </section>
  );
}

/**
 * The buy, sell and swap pages' island, with the exchange session (the login SDK only for people
 * who logged in on this browser). Buying and selling can be switched off by the operator: the
 * pages then show the notice instead of the form.
 */
export function OrderIsland({ type }: { type: OrderType }) {
  const { t } = useTranslation('exchange');
  const errorText = useErrorText();
  const [placed, setPlaced] = React.useState<{ order: Order; email: string } | null>(null);
  // The order placed here before a reload: its signed link is in the address (order-link.ts).
  const linked = useOrderLink();
  React.useEffect(() => {
    if (linked.state === 'open') setPlaced((current) => current ?? { order: linked.order, email: linked.email });
  }, [linked]);
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
          <ChunkBoundary fallback={<PlacedReference order={placed.order} />}>
            <React.Suspense fallback={<PlacedReference order={placed.order} />}>
              <Confirmation
                order={placed.order}
                email={placed.email}
                onAnother={() => {
                  keepOrderLink(null);
                  setPlaced(null);
                  setFormKey((k) => k + 1);
                }}
              />
            </React.Suspense>
          </ChunkBoundary>
        ) : linked.state === 'opening' ? (
          <p role="status">{t('confirm.opening')}</p>
        ) : (
          <>
            {linked.state === 'failed' ? (
              <p role="alert" className="form-error">
                {errorText(linked.error)}
              </p>
            ) : null}
            <OrderForm
              key={formKey}
              type={type}
              onPlaced={(order, email) => {
                // A reload, a bookmark or the back button comes back to this order.
                if (order.link) keepOrderLink(order.link);
                setPlaced({ order, email });
              }}
              onDisabled={() => setRefused(true)}
            />
          </>
        )}
      </ExchangeSessionProvider>
    </IslandPlaceholder>
  );
}
