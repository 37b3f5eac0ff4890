import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath, type Language } from '#domain/languages';
import { SampleBadge } from '../../../app/operator';
import { formatIban } from '../../../i18n/format';
import { routes } from '../../../i18n/routes';
import { CopyButton } from '../../../ui/copy-button';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { usePageLanguage } from '../../../ui/localized-link';
import { formatDateTime, formatMoney, plainEurAmount, splitXrp } from '../format';
import { displayAddress, OrderSummary } from './order-summary';
import { QrCode } from './qr-code';
import { StatusStepper } from './status-stepper';
import { WalletOrderCode } from './wallet-order-code';
import type { Order, PaymentDetails, Receiving } from '../api/types';

/**
 * What the customer sees right after placing an order, in the order they need it: what to do
 * now (the transfer to make, each value with a copy button and the GiroCode, or the crypto to
 * send with its QR code), the reference to keep, the status, then the order's details grouped.
 */
export type LookupState = { lookup: { reference: string; email: string } };

export const payVariant = (order: Order) => (order.useMyWallet ? 'wallet' : order.type === 'buy' ? 'bank' : 'send');
export const deliveryVariant = (order: Order) =>
  order.sendToMyWallet ? 'wallet' : order.type === 'sell' ? 'iban' : 'address';

export function Confirmation({
  order: placed,
  email,
  onAnother,
}: {
  order: Order;
  email: string;
  onAnother: () => void;
}) {
  const { t } = useTranslation('exchange');
  // An order paid from the wallet to an outside destination changes here once its code is confirmed.
  const [order, setOrder] = React.useState(placed);
  const language = usePageLanguage();
  const heading = React.useRef<HTMLHeadingElement>(null);
  React.useEffect(() => heading.current?.focus(), []);
  const type = order.type === 'deposit' ? 'buy' : order.type;
  const follow: LookupState = { lookup: { reference: order.reference, email } };

  return (
    <section className="confirmation" aria-labelledby="confirmation-heading">
      <h2 id="confirmation-heading" ref={heading} tabIndex={-1}>
        {t(`confirm.heading.${type}`)}
      </h2>
      <NextStep order={order} language={language} onConfirmed={setOrder} />
      <div className="reference-box">
        <p>{t('confirm.reference')}</p>
        <p className="reference-line">
          <span className="reference" data-testid="order-reference">
            {order.reference}
          </span>
          <CopyButton value={order.reference} what={t('confirm.copy.reference')} />
        </p>
        <p className="small">{t('confirm.referenceHint')}</p>
        {order.link ? <p className="small">{t('confirm.kept')}</p> : null}
      </div>
      <StatusStepper status={order.status} />
      <OrderSummary
        order={order}
        deliveryNote={t(`confirm.delivery.${deliveryVariant(order)}`, {
          currency: order.currencyTo,
          address: displayAddress(order.address, order.currencyTo),
        })}
      />
      <p className="small muted">{t('quote.floating')}</p>

      <p className="actions">
        <Link className="button primary" to={localizePath(routes.exchange_order_history, language)} state={follow}>
          {t('confirm.follow')}
        </Link>
        <button type="button" className="button" onClick={onAnother}>
          {t('confirm.another')}
        </button>
      </p>
    </section>
  );
}

/**
 * What the customer must do for an order that waits for their payment: the code emailed for one
 * paid from the wallet to a destination outside it, nothing for one paid from the wallet into it,
 * else the transfer or the crypto to send. Gone once the payment arrived.
 */
export function NextStep({
  order,
  language,
  onConfirmed,
}: {
  order: Order;
  language: Language;
  onConfirmed?: (order: Order) => void;
}) {
  const { t } = useTranslation('exchange');
  const id = React.useId();
  if (order.status !== 'new') return null;
  if (order.awaitingCode)
    return <WalletOrderCode order={order} language={language} onConfirmed={onConfirmed ?? (() => undefined)} />;
  const amount = formatMoney(order.amount, order.currencyFrom, language);
  const pay = t(`confirm.pay.${payVariant(order)}`, { amount, reason: order.shortReference });
  if (order.useMyWallet) return <p className="next-step-note">{pay}</p>;
  if (!order.paymentDetails && !order.receiving)
    return order.type === 'buy' ? null : <p className="next-step-note">{t('confirm.receivingByEmail')}</p>;
  return (
    <section className="next-step" aria-labelledby={`${id}-next`}>
      <h3 id={`${id}-next`}>{t('confirm.next')}</h3>
      <p>{pay}</p>
      {order.payBy ? (
        <p className="notice" data-testid="pay-by">
          {/* Coins are sent, not paid: a sell or swap says so. */}
          {t(order.paymentDetails ? 'confirm.deadline' : 'confirm.deadlineSend', {
            date: formatDateTime(order.payBy, language),
          })}
        </p>
      ) : null}
      {order.paymentDetails ? <PaymentDetailsView details={order.paymentDetails} language={language} /> : null}
      {order.receiving ? <ReceivingView receiving={order.receiving} language={language} /> : null}
      <p className="small">{order.paymentDetails ? t('confirm.outcomesBank') : t('confirm.outcomesSend')}</p>
    </section>
  );
}

/** One value to type into a banking app or wallet: its label above, the value (wrapping, never cut) and its copy button. */
function Fact({
  label,
  copy,
  what,
  mark,
  children,
}: {
  label: string;
  copy?: string;
  what?: string;
  mark?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="pay-fact">
      <dt>{label}</dt>
      <dd>
        <span className="pay-value">{children}</span>
        {copy && what ? <CopyButton value={copy} what={what} /> : null}
        {mark}
      </dd>
    </div>
  );
}

export function PaymentDetailsView({ details, language }: { details: PaymentDetails; language: Language }) {
  const { t } = useTranslation('exchange');
  const { t: tc } = useTranslation('common');
  const amount = formatMoney(details.amount, 'EUR', language);
  // Local mode's sample account and holder: marked beside each value, never taken for real ones.
  const sample = details.sample ? <SampleBadge /> : null;
  return (
    <div className="pay-details">
      <p className="small pay-payee">{tc('operator.payee', { name: details.beneficiary })}</p>
      <dl className="pay-facts" aria-label={t('confirm.payment.heading')}>
        <Fact
          label={t('confirm.payment.amount')}
          copy={plainEurAmount(details.amount, language)}
          what={t('confirm.copy.amount')}
        >
          <WithCurrencyIcon code="EUR">
            <strong>{amount}</strong>
          </WithCurrencyIcon>
        </Fact>
        <Fact label={t('confirm.payment.iban')} copy={details.iban} what={t('confirm.copy.iban')} mark={sample}>
          <code>{formatIban(details.iban)}</code>
        </Fact>
        <Fact
          label={t('confirm.payment.beneficiary')}
          copy={details.beneficiary}
          what={t('confirm.copy.beneficiary')}
          mark={sample}
        >
          {details.beneficiary}
        </Fact>
        <Fact label={t('confirm.payment.reason')} copy={details.reason} what={t('confirm.copy.reason')}>
          <code className="reason">{details.reason}</code>
        </Fact>
        <Fact label={t('confirm.payment.bic')} copy={details.bic} what={t('confirm.copy.bic')} mark={sample}>
          <code>{details.bic}</code>
        </Fact>
        <Fact label={t('confirm.payment.methods')}>
          {details.methods.map((m) => t(`methods.${m as 'sepa'}`, { defaultValue: m })).join(', ')}
        </Fact>
      </dl>
      <figure className="qr">
        <QrCode
          text={details.epcPayload}
          label={t('confirm.payment.qrLabel', { amount, beneficiary: details.beneficiary, reason: details.reason })}
        />
        <figcaption className="small">{t('confirm.payment.qrHint')}</figcaption>
      </figure>
    </div>
  );
}

export function ReceivingView({ receiving, language }: { receiving: Receiving; language: Language }) {
  const { t } = useTranslation('exchange');
  const { t: tcur } = useTranslation('currencies');
  // The API sends the tag apart; an address:tag form is split the same way.
  const split =
    receiving.tag === null ? splitXrp(receiving.address) : { address: receiving.address, tag: receiving.tag };
  return (
    <div className="receiving">
      <p className="notice send-only" role="note" data-testid="send-only">
        <strong>
          {t('confirm.receiving.exactly', { amount: formatMoney(receiving.amount, receiving.currency, language) })}
        </strong>{' '}
        {tcur(`sendOnly.${receiving.currency}` as 'sendOnly.BTC', { defaultValue: '' })}
      </p>
      <div className="pay-details">
        <dl className="pay-facts" aria-label={t('confirm.receiving.heading', { currency: receiving.currency })}>
          <Fact label={t('confirm.receiving.amount')} copy={receiving.amount} what={t('confirm.copy.amount')}>
            <WithCurrencyIcon code={receiving.currency}>
              <strong>{formatMoney(receiving.amount, receiving.currency, language)}</strong>
            </WithCurrencyIcon>
          </Fact>
          <Fact label={t('confirm.receiving.address')} copy={split.address} what={t('confirm.copy.address')}>
            <code className="address">{split.address}</code>
          </Fact>
          {split.tag !== null ? (
            <Fact label={t('confirm.receiving.tag')} copy={split.tag} what={t('confirm.copy.tag')}>
              <strong className="tag">{split.tag}</strong>
            </Fact>
          ) : null}
        </dl>
        <figure className="qr">
          <QrCode text={split.address} label={t('confirm.receiving.qrLabel', { address: split.address })} size={180} />
        </figure>
      </div>
      {split.tag !== null ? (
        <p className="notice" role="note">
          {t('confirm.receiving.tagHint', { tag: split.tag })}
        </p>
      ) : null}
      {(receiving.incoming ?? []).map((deposit) => (
        <p key={deposit.txid} className="notice" role="status">
          {t('confirm.receiving.incoming', {
            amount: formatMoney(deposit.amount, receiving.currency, language),
            confirmations: deposit.confirmations,
            required: deposit.required,
          })}
        </p>
      ))}
    </div>
  );
}
