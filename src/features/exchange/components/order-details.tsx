import * as React from 'react';
import { useTranslation } from 'react-i18next';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
} from '#domain/limits';
import { eur } from '#domain/money';
import { useErrorText } from '../../../app/error-text';
import { usePageLanguage } from '../../../ui/localized-link';
import { isOpen, type Order } from '../api/types';
import { formatMoney } from '../format';
import { useLiveOrder } from '../use-live-order';
import { NextStep } from './confirmation';
import { OrderSummary } from './order-summary';
import { PayoutReturnPanel, type ReturnAccess } from './payout-return';
import { StatusStepper } from './status-stepper';
import type { OrderFollower } from '../api/orders';

/**
 * The order page, kept current live while the order is open: first what to do while the
 * payment is awaited, then the status (stepper, failure reason and where the money goes back
 * to), then the order's details grouped, the payout's hash linked to the configured explorer.
 */
export function LiveOrder({
  order,
  follower,
  refresh,
  returnAccess,
}: {
  order: Order;
  follower: OrderFollower | null;
  refresh?: () => Promise<Order>;
  returnAccess?: ReturnAccess;
}) {
  const live = useLiveOrder(order, follower, refresh);
  // A confirmed code changes the order at once; the live view follows it from there.
  const [confirmed, setConfirmed] = React.useState<Order | null>(null);
  // So does a new IBAN for a returned payout (the order itself is no longer open).
  const [changed, setChanged] = React.useState<Order | null>(null);
  const shown =
    changed ??
    (confirmed && confirmed.reference === live.order.reference && live.order.status === 'new' ? confirmed : live.order);
  return (
    <OrderDetails
      order={shown}
      connection={live.connection}
      onConfirmed={setConfirmed}
      returnAccess={returnAccess}
      onChanged={setChanged}
    />
  );
}

export function OrderDetails({
  order,
  connection,
  onConfirmed,
  returnAccess,
  onChanged,
}: {
  order: Order;
  connection?: string;
  onConfirmed?: (order: Order) => void;
  returnAccess?: ReturnAccess;
  onChanged?: (order: Order) => void;
}) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const errorText = useErrorText();
  const statusText = t(`order.status.${order.status}`);
  const open = isOpen(order.status);

  return (
    <article className="order-details" aria-labelledby="order-heading">
      <h2 id="order-heading" tabIndex={-1} className="wrap-anywhere">
        {t('order.heading', { reference: order.reference })}
      </h2>
      <NextStep order={order} language={language} onConfirmed={onConfirmed} />
      <StatusStepper status={order.status} />
      <p role="status" aria-live="polite" className="status-now" data-status={order.status}>
        {t('order.statusNow', { status: statusText })}
      </p>
      {order.status === 'completed_success' && order.actualAmountConverted ? (
        <p className="order-received" data-testid="order-received">
          <strong>
            {t('order.received', { amount: formatMoney(order.actualAmountConverted, order.currencyTo, language) })}
          </strong>
        </p>
      ) : null}
      {open ? <p className="small muted">{connection === 'polling' ? t('order.polling') : t('order.live')}</p> : null}
      {order.businessHold ? (
        <p className="notice" role="status">
          {t('order.businessHold')}
        </p>
      ) : null}
      {order.reviewHold ? (
        <p className="notice" role="status">
          {t('order.reviewHold')}
        </p>
      ) : null}
      {order.keptInEuros ? (
        <p className="notice" role="status">
          <strong>{t('order.keptInEuros')}</strong> <KeptReason reason={order.keptInEuros} />
        </p>
      ) : null}
      {order.payoutAwaitingApproval ? (
        <p className="notice" role="status">
          {t('order.payoutAwaitingApproval')}
        </p>
      ) : null}
      {order.payoutReturn ? (
        <PayoutReturnPanel order={order} access={returnAccess} onChanged={onChanged ?? (() => undefined)} />
      ) : null}
      {order.failure ? (
        <div className="failure" role="alert">
          <p>
            <strong>{t('order.failureReason')}</strong>{' '}
            {errorText(order.failure.reason, { currency: order.currencyFrom })}
          </p>
          {order.failure.refund ? <p>{t(`order.refund.${order.failure.refund}`)}</p> : null}
        </div>
      ) : null}
      <OrderSummary order={order} />
      {open ? <p className="small muted">{t('quote.floating')}</p> : null}
    </article>
  );
}

/** Why a deposit stayed in euros, with the limit in the page's language (domain/limits.ts). */
function KeptReason({ reason }: { reason: NonNullable<Order['keptInEuros']> }) {
  const { t } = useTranslation('exchange');
  const errorText = useErrorText();
  const language = usePageLanguage();
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  const limits = {
    first: money(FIRST_ORDER_LIMIT_EUR_MINOR),
    max: money(ORDER_LIMIT_EUR_MINOR),
    mobile: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR),
    id: money(ID_VERIFICATION_WEEKLY_EUR_MINOR),
  };
  const known = [
    'buy_sell_disabled',
    'first_order_limit',
    'order_limit',
    'mobile_verification_required',
    'id_verification_required',
  ] as const;
  const key = known.find((k) => k === reason);
  return <>{key ? t(`order.keptReason.${key}`, limits) : errorText(reason)}</>;
}
