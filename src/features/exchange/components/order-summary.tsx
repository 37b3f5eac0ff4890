import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { TxHash } from '../../../app/tx-hash';
import { formatIban } from '../../../i18n/format';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { usePageLanguage } from '../../../ui/localized-link';
import { formatDateTime, formatMoney, rateCurrency, rateText } from '../format';
import type { Order } from '../api/types';

/**
 * An order's details in two groups: "Your order" (type, amounts, rates, fees, dates) and
 * "Delivery" (where the result goes, and once it went, how, with the transaction hash or, for a
 * bank transfer, its reference). A value not known yet (the actual rate before settlement) has no
 * row rather than a row saying so, and neither has one that does not apply: the estimates once the
 * actual figures are known (or the order failed), a network fee of nothing (into the wallet, or
 * euros to a bank), the rate type of a closed order.
 */
type Row = [label: string, value: React.ReactNode];

const isZero = (value: string | null | undefined) => value != null && /^0*(\.0*)?$/.test(value);

export function displayAddress(address: string | null, currency: string): string {
  if (!address) return '';
  if (currency === 'EUR') return formatIban(address);
  return address;
}

export function OrderSummary({ order, deliveryNote }: { order: Order; deliveryNote?: string }) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const id = React.useId();
  // Every amount and rate with its currency's logo.
  const money = (value: string | null | undefined, currency: string) =>
    value ? <WithCurrencyIcon code={currency}>{formatMoney(value, currency, language)}</WithCurrencyIcon> : null;
  const rate = (value: string | null | undefined) =>
    value ? (
      <WithCurrencyIcon code={rateCurrency(order.currencyFrom, order.currencyTo)}>
        {rateText(order.currencyFrom, order.currencyTo, value, language)}
      </WithCurrencyIcon>
    ) : null;
  const settled = order.actualAmountConverted !== null;
  const closed = order.status === 'completed_success' || order.status === 'completed_failure';
  // Estimates while they are what we know; the actual figures replace them, never beside them.
  const estimate = (value: React.ReactNode) => (settled || order.status === 'completed_failure' ? null : value);
  const networkFee = (value: string | null | undefined) =>
    isZero(value) || order.currencyTo === 'EUR' ? null : money(value, order.currencyTo);
  const paymentMethod = order.paymentMethod
    ? t(`methods.${order.paymentMethod}`)
    : order.useMyWallet
      ? t('order.fromWallet')
      : t('order.cryptoTransfer');

  const yours: Row[] = [
    [t('order.fields.type'), t(`order.types.${order.type}`)],
    [t('order.fields.amount'), money(order.amount, order.currencyFrom)],
    [t('order.fields.amountReceived'), money(order.amountReceived, order.currencyFrom)],
    [t('order.fields.estimatedAmountConverted'), estimate(money(order.estimatedAmountConverted, order.currencyTo))],
    [t('order.fields.actualAmountConverted'), money(order.actualAmountConverted, order.currencyTo)],
    [t('order.fields.estimatedRate'), estimate(rate(order.estimatedRate))],
    [t('order.fields.actualRate'), rate(order.actualRate)],
    [t('order.fields.fee'), money(order.actualFee ?? order.fee, 'EUR')],
    [t('order.fields.estimatedNetworkFee'), estimate(networkFee(order.estimatedNetworkFee))],
    [t('order.fields.actualNetworkFee'), networkFee(order.actualNetworkFee)],
    [t('order.fields.paymentMethod'), paymentMethod],
    [t('order.fields.rateType'), closed || order.type === 'deposit' ? null : t('order.floating')],
    // The payment reason of the bank transfer that pays the order: one paid otherwise has none.
    [
      t('order.fields.shortReference'),
      order.paymentDetails ? (
        <code key="s" className="address">
          {order.shortReference}
        </code>
      ) : null,
    ],
    [t('order.fields.date'), formatDateTime(order.date, language)],
    [t('order.fields.completedAt'), order.completedAt ? formatDateTime(order.completedAt, language) : null],
  ];
  const delivery: Row[] = [
    [
      // Euros go to a bank account, named as the order form asked for it; crypto to an address.
      order.currencyTo === 'EUR' && order.address ? t('form.iban') : t('order.fields.address'),
      // The confirmation says where in a sentence (deliveryNote); no row repeats it.
      deliveryNote ? null : order.address ? (
        // An IBAN breaks between its groups of four, an address anywhere.
        <code key="a" className={order.currencyTo === 'EUR' ? 'iban' : 'address'}>
          {displayAddress(order.address, order.currencyTo)}
        </code>
      ) : (
        t('order.intoWallet')
      ),
    ],
    // A sell to an IBAN: whose account it is, as the transfer names it (the payee's bank checks it).
    [t('order.fields.beneficiary'), order.beneficiary],
    // How the result went: only once it went (a failed order sent nothing; its refund is said above).
    [t('order.fields.delivery'), order.status === 'completed_success' ? deliveredBy(order, t) : null],
    // Euros leave by bank transfer, whose reference is no transaction hash.
    order.currencyTo === 'EUR'
      ? [
          t('order.fields.payoutReference'),
          order.payoutTxid ? (
            <code key="x" className="address">
              {order.payoutTxid}
            </code>
          ) : null,
        ]
      : [
          t('order.fields.payoutTxid'),
          order.payoutTxid ? <TxHash key="x" txid={order.payoutTxid} currency={order.currencyTo} /> : null,
        ],
  ];

  return (
    <div className="order-summary order-fields">
      <section className="order-group" aria-labelledby={`${id}-order`}>
        <h3 id={`${id}-order`}>{t('order.groups.order')}</h3>
        <Rows rows={yours} />
      </section>
      <section className="order-group" aria-labelledby={`${id}-delivery`}>
        <h3 id={`${id}-delivery`}>{t('order.groups.delivery')}</h3>
        {deliveryNote ? <p className="wrap-anywhere">{deliveryNote}</p> : null}
        <Rows rows={delivery} />
      </section>
    </div>
  );
}

function Rows({ rows }: { rows: Row[] }) {
  return (
    <dl className="order-data">
      {rows
        .filter(([, value]) => value !== null)
        .map(([label, value]) => (
          <React.Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </React.Fragment>
        ))}
    </dl>
  );
}

function deliveredBy(order: Order, t: ReturnType<typeof useTranslation<'exchange'>>['t']): string {
  return order.sendToMyWallet
    ? t('order.intoWallet')
    : order.currencyTo === 'EUR'
      ? t('order.toBank')
      : t('order.toAddress');
}
