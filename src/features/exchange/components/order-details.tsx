import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../components/error-text';
import { usePageLanguage } from '../../../components/localized-link';
import { isOpen, type Order } from '../api/types';
import { formatDateTime, formatMoney, rateText } from '../format';
import { useLiveOrder } from '../use-live-order';
import { PaymentDetailsView, ReceivingView, displayAddress } from './confirmation';
import { StatusStepper } from './status-stepper';

/**
 * The order page: every field of the spec's Order, the status stepper, the failure reason and
 * where the money goes back to, kept current live while the order is open.
 */
export function LiveOrder({ order, email, refresh }: { order: Order; email: string | null; refresh?: () => Promise<Order> }) {
  const live = useLiveOrder(order, email, refresh);
  return <OrderDetails order={live.order} connection={live.connection} />;
}

export function OrderDetails({ order, connection }: { order: Order; connection?: string }) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const errorText = useErrorText();
  // A value not known yet (the actual rate before settlement) is left out rather than shown as a row saying so.
  const money = (value: string | null | undefined, currency: string) => (value ? formatMoney(value, currency, language) : null);
  const rate = (value: string | null | undefined) => (value ? rateText(order.currencyFrom, order.currencyTo, value, language) : null);
  const statusText = t(`order.status.${order.status}`);
  const open = isOpen(order.status);
  const all: [string, React.ReactNode][] = [
    [t('order.fields.reference'), <code key="r">{order.reference}</code>],
    [t('order.fields.shortReference'), <code key="s">{order.shortReference}</code>],
    [t('order.fields.type'), t(`order.types.${order.type}`)],
    [t('order.fields.currencyFrom'), order.currencyFrom],
    [t('order.fields.currencyTo'), order.currencyTo],
    [t('order.fields.amount'), money(order.amount, order.currencyFrom)],
    [
      t('order.fields.address'),
      order.address ? (
        <code key="a" className="address">
          {displayAddress(order.address, order.currencyTo)}
        </code>
      ) : (
        t('order.intoWallet')
      ),
    ],
    [t('order.fields.rateType'), t('order.floating')],
    [t('order.fields.paymentMethod'), order.paymentMethod ? t(`methods.${order.paymentMethod}`) : order.useMyWallet ? t('order.fromWallet') : t('order.cryptoTransfer')],
    [t('order.fields.estimatedAmountConverted'), money(order.estimatedAmountConverted, order.currencyTo)],
    [t('order.fields.actualAmountConverted'), money(order.actualAmountConverted, order.currencyTo)],
    [t('order.fields.amountReceived'), money(order.amountReceived, order.currencyFrom)],
    [t('order.fields.estimatedNetworkFee'), money(order.estimatedNetworkFee, order.currencyTo)],
    [t('order.fields.actualNetworkFee'), money(order.actualNetworkFee, order.currencyTo)],
    [t('order.fields.estimatedRate'), rate(order.estimatedRate)],
    [t('order.fields.actualRate'), rate(order.actualRate)],
    [t('order.fields.fee'), money(order.actualFee ?? order.fee, 'EUR')],
    [t('order.fields.status'), statusText],
    [t('order.fields.date'), formatDateTime(order.date, language)],
    [t('order.fields.completedAt'), order.completedAt ? formatDateTime(order.completedAt, language) : null],
    // Where the result went: only once it went (a failed order sent nothing; its refund is said above).
    [t('order.fields.delivery'), order.status === 'completed_success' ? delivery(order, t) : null],
  ];
  const rows = all.filter(([, value]) => value !== null);

  return (
    <article className="order-details" aria-labelledby="order-heading">
      <h2 id="order-heading" tabIndex={-1}>
        {t('order.heading', { reference: order.reference })}
      </h2>
      <StatusStepper status={order.status} />
      <p role="status" aria-live="polite" className="status-now" data-status={order.status}>
        {t('order.statusNow', { status: statusText })}
      </p>
      {open ? <p className="small muted">{connection === 'polling' ? t('order.polling') : t('order.live')}</p> : null}
      {order.businessHold ? (
        <p className="notice" role="status">
          {t('order.businessHold')}
        </p>
      ) : null}
      {order.failure ? (
        <div className="failure" role="alert">
          <p>
            <strong>{t('order.failureReason')}</strong> {errorText(order.failure.reason, { currency: order.currencyFrom })}
          </p>
          {order.failure.refund ? <p>{t(`order.refund.${order.failure.refund}`)}</p> : null}
        </div>
      ) : null}
      <dl className="order-data order-fields">
        {rows.map(([label, value]) => (
          <React.Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </React.Fragment>
        ))}
      </dl>
      {order.status === 'new' && order.paymentDetails ? <PaymentDetailsView details={order.paymentDetails} language={language} /> : null}
      {order.status === 'new' && order.receiving ? <ReceivingView receiving={order.receiving} language={language} /> : null}
      <p className="small muted">{t('quote.floating')}</p>
    </article>
  );
}

function delivery(order: Order, t: ReturnType<typeof useTranslation<'exchange'>>['t']): React.ReactNode {
  const where = order.sendToMyWallet ? t('order.intoWallet') : order.currencyTo === 'EUR' ? t('order.toBank') : t('order.toAddress');
  if (!order.payoutTxid) return where;
  return (
    <>
      {where}{' '}
      <span className="small">
        {t('order.txid')} <code className="address">{order.payoutTxid}</code>
      </span>
    </>
  );
}
