import { Link } from 'gatsby';
import { friendlyFormatIBAN } from 'ibantools';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath, type Language } from '../../../../domain/languages';
import { usePageLanguage } from '../../../components/localized-link';
import { routes } from '../../../i18n/routes';
import { formatDateTime, formatMoney, rateText, splitXrp } from '../format';
import { QrCode } from './qr-code';
import type { Order, PaymentDetails, Receiving } from '../api/types';

/**
 * What the customer sees right after placing an order: the reference to keep, what to do next
 * (the text depends on the order type and the own-wallet options), the estimates, and either the
 * bank transfer to make (table + GiroCode) or the address to send the crypto to (+ QR, XRP tag).
 */
export type LookupState = { lookup: { reference: string; email: string } };

export const payVariant = (order: Order) => (order.useMyWallet ? 'wallet' : order.type === 'buy' ? 'bank' : 'send');
export const deliveryVariant = (order: Order) => (order.sendToMyWallet ? 'wallet' : order.type === 'sell' ? 'iban' : 'address');

export function displayAddress(address: string | null, currency: string): string {
  if (!address) return '';
  if (currency === 'EUR') return friendlyFormatIBAN(address) ?? address;
  return address;
}

export function Confirmation({ order, email, onAnother }: { order: Order; email: string; onAnother: () => void }) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const heading = React.useRef<HTMLHeadingElement>(null);
  React.useEffect(() => heading.current?.focus(), []);
  const amount = formatMoney(order.amount, order.currencyFrom, language);
  const type = order.type === 'deposit' ? 'buy' : order.type;
  const follow: LookupState = { lookup: { reference: order.reference, email } };

  return (
    <section className="confirmation" aria-labelledby="confirmation-heading">
      <h2 id="confirmation-heading" ref={heading} tabIndex={-1}>
        {t(`confirm.heading.${type}`)}
      </h2>
      <div className="reference-box">
        <p>{t('confirm.reference')}</p>
        <p className="reference" data-testid="order-reference">
          {order.reference}
        </p>
        <p className="small">{t('confirm.referenceHint')}</p>
      </div>
      <p>{t(`confirm.pay.${payVariant(order)}`, { amount, reason: order.shortReference })}</p>
      {/* It names the whole address or IBAN, which must wrap on a phone rather than push the page sideways. */}
      <p className="wrap-anywhere">
        {t(`confirm.delivery.${deliveryVariant(order)}`, {
          currency: order.currencyTo,
          address: displayAddress(order.address, order.currencyTo),
        })}
      </p>

      {order.paymentDetails ? <PaymentDetailsView details={order.paymentDetails} language={language} /> : null}
      {order.receiving ? <ReceivingView receiving={order.receiving} language={language} /> : null}
      {!order.useMyWallet && order.type !== 'buy' && !order.receiving ? <p>{t('confirm.receivingByEmail')}</p> : null}

      <h3>{t('confirm.estimates')}</h3>
      <dl className="order-data">
        <dt>{t('order.fields.shortReference')}</dt>
        <dd>
          <code>{order.shortReference}</code>
        </dd>
        <dt>{t('order.fields.amount')}</dt>
        <dd>{amount}</dd>
        <dt>{t('order.fields.estimatedAmountConverted')}</dt>
        <dd>{formatMoney(order.estimatedAmountConverted, order.currencyTo, language)}</dd>
        <dt>{t('order.fields.estimatedRate')}</dt>
        <dd>{rateText(order.currencyFrom, order.currencyTo, order.estimatedRate, language)}</dd>
        <dt>{t('order.fields.fee')}</dt>
        <dd>{formatMoney(order.fee, 'EUR', language)}</dd>
        <dt>{t('order.fields.estimatedNetworkFee')}</dt>
        <dd>{formatMoney(order.estimatedNetworkFee, order.currencyTo, language)}</dd>
        <dt>{t('order.fields.date')}</dt>
        <dd>{formatDateTime(order.date, language)}</dd>
      </dl>
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

export function PaymentDetailsView({ details, language }: { details: PaymentDetails; language: Language }) {
  const { t } = useTranslation('exchange');
  const amount = formatMoney(details.amount, 'EUR', language);
  return (
    <div className="payment-details">
      <table className="data-table pairs">
        <caption>{t('confirm.payment.heading')}</caption>
        <tbody>
          <tr>
            <th scope="row">{t('confirm.payment.beneficiary')}</th>
            <td>{details.beneficiary}</td>
          </tr>
          <tr>
            <th scope="row">{t('confirm.payment.iban')}</th>
            <td>
              <code>{friendlyFormatIBAN(details.iban) ?? details.iban}</code>
            </td>
          </tr>
          <tr>
            <th scope="row">{t('confirm.payment.bic')}</th>
            <td>
              <code>{details.bic}</code>
            </td>
          </tr>
          <tr>
            <th scope="row">{t('confirm.payment.amount')}</th>
            <td>{amount}</td>
          </tr>
          <tr>
            <th scope="row">{t('confirm.payment.reason')}</th>
            <td>
              <code className="reason">{details.reason}</code>
            </td>
          </tr>
          <tr>
            <th scope="row">{t('confirm.payment.methods')}</th>
            <td>{details.methods.map((m) => t(`methods.${m as 'sepa'}`, { defaultValue: m })).join(', ')}</td>
          </tr>
        </tbody>
      </table>
      <figure className="qr">
        <QrCode text={details.epcPayload} label={t('confirm.payment.qrLabel', { amount, beneficiary: details.beneficiary, reason: details.reason })} />
        <figcaption className="small">{t('confirm.payment.qrHint')}</figcaption>
      </figure>
    </div>
  );
}

export function ReceivingView({ receiving, language }: { receiving: Receiving; language: Language }) {
  const { t } = useTranslation('exchange');
  // The API sends the tag apart; an address:tag form is split the same way.
  const split = receiving.tag === null ? splitXrp(receiving.address) : { address: receiving.address, tag: receiving.tag };
  return (
    <div className="receiving">
      <h3>{t('confirm.receiving.heading', { currency: receiving.currency })}</h3>
      <div className="receiving-body">
        <QrCode text={split.address} label={t('confirm.receiving.qrLabel', { address: split.address })} size={180} />
        <dl className="order-data">
          <dt>{t('confirm.receiving.amount')}</dt>
          <dd>
            <strong>{formatMoney(receiving.amount, receiving.currency, language)}</strong>
          </dd>
          <dt>{t('confirm.receiving.address')}</dt>
          <dd>
            <code className="address">{split.address}</code>
          </dd>
          {split.tag !== null ? (
            <>
              <dt>{t('confirm.receiving.tag')}</dt>
              <dd>
                <strong className="tag">{split.tag}</strong>
              </dd>
            </>
          ) : null}
        </dl>
      </div>
      {split.tag !== null ? (
        <p className="notice" role="note">
          {t('confirm.receiving.tagHint', { tag: split.tag })}
        </p>
      ) : null}
    </div>
  );
}
