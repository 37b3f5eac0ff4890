import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_CONFIRMATIONS, isNodeCurrency } from '#domain/chain';
import { CURRENCIES } from '#domain/currencies';
import {
  ETH_GAS_LIMIT,
  FEES,
  FEE_OPTION_MAX_BASIS_POINTS,
  FEE_OPTION_MINIMUM_EUR_MINOR,
  FEE_OPTION_STEP_BASIS_POINTS,
  NETWORK_FEES_MINOR,
  feeDisplayOptions,
  orderTypesAt,
} from '#domain/fees';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
  WEEKLY_VOLUME_DAYS,
} from '#domain/limits';
import { eur, type Money } from '#domain/money';
import { PLACED_ORDER_TYPES } from '#domain/orders';
import { DEFAULT_ADDRESS_HOLD_HOURS } from '#domain/protection';
import { quote, type Quote } from '#domain/quotes';
import { formatMinor, formatMoney, formatNumber, formatPercent } from '../../../i18n/format';
import { CurrencyIcon } from '../../../ui/currency-icon';
import { useCurrencyName } from '../../../ui/currency-name';
import { LocalizedLink } from '../../../ui/localized-link';
import type { Language } from '#domain/languages';

/**
 * The fees page body. Invariant: every number on it is read from domain/ (fees, network fee
 * estimates, limits, verification thresholds) and formatted with Intl for the page language;
 * the texts in locales/<lng>/info.json carry placeholders, never figures.
 */
/** The fee a buy of `amountEurMinor` pays, computed by the same rule as every quote. */
function buyFee(amountEurMinor: bigint): Money {
  const result = quote({
    type: 'buy',
    currencyFrom: 'EUR',
    currencyTo: 'BTC',
    amount: eur(amountEurMinor),
    rates: { BTC: '1' },
    toMuntlyWallet: true,
  });
  return (result as Quote).fee;
}

/** A sell whose fee shows the rounding: 1.50 % of 133.34 EUR is 2.0001 EUR, charged 2.00 EUR. */
const ROUNDING_EXAMPLE_EUR_MINOR = 13_334n;

function sellFee(amountEurMinor: bigint): Money {
  const result = quote({
    type: 'sell',
    currencyFrom: 'BTC',
    currencyTo: 'EUR',
    amount: eur(amountEurMinor),
    rates: { BTC: '1' },
  });
  return (result as Quote).fee;
}

export function FeeSchedule({ language }: { language: Language }) {
  const { t } = useTranslation('info');
  const nameOf = useCurrencyName();
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  const percent = (basisPoints: number) => formatPercent(basisPoints, language);
  const fullySupported = CURRENCIES.filter((c) => c.support === 'full' && NETWORK_FEES_MINOR[c.code] !== undefined);
  const smallBuy = FEES.buy.minimumEurMinor * 25n; // below the point where 1.50 % reaches the minimum
  const largeBuy = 100_000n;

  return (
    <>
      <section aria-labelledby="fees-exchange">
        <h2 id="fees-exchange">{t('fees.exchange.heading')}</h2>
        <table className="data-table stack">
          <caption className="visually-hidden">{t('fees.exchange.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('fees.exchange.type')}</th>
              <th scope="col">{t('fees.exchange.rate')}</th>
              <th scope="col">{t('fees.exchange.minimum')}</th>
            </tr>
          </thead>
          <tbody>
            {PLACED_ORDER_TYPES.map((type) => (
              <tr key={type} data-order-type={type}>
                <th scope="row">{t(`fees.exchange.${type}`)}</th>
                <td className="num" data-label={t('fees.exchange.rate')}>
                  {percent(FEES[type].basisPoints)}
                </td>
                <td
                  className={FEES[type].minimumEurMinor > 0n ? 'num' : undefined}
                  data-label={t('fees.exchange.minimum')}
                >
                  {FEES[type].minimumEurMinor > 0n ? money(FEES[type].minimumEurMinor) : t('fees.exchange.noMinimum')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          {t('fees.exchange.example', {
            small: money(smallBuy),
            smallFee: formatMinor(buyFee(smallBuy), language),
            large: money(largeBuy),
            largeFee: formatMinor(buyFee(largeBuy), language),
          })}
        </p>
        <p>{t('fees.exchange.rateNote')}</p>
        <p>
          {t('fees.exchange.rounding', {
            rate: percent(FEES.sell.basisPoints),
            value: money(ROUNDING_EXAMPLE_EUR_MINOR),
            fee: formatMinor(sellFee(ROUNDING_EXAMPLE_EUR_MINOR), language),
          })}
        </p>
      </section>

      <section aria-labelledby="fees-extra">
        <h2 id="fees-extra">{t('fees.extra.heading')}</h2>
        <p>{t('fees.extra.bank')}</p>
        <p>{t('fees.extra.network')}</p>
        <table className="data-table narrow stack">
          <caption className="visually-hidden">{t('fees.extra.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('fees.extra.currency')}</th>
              <th scope="col">{t('fees.extra.estimate')}</th>
              <th scope="col">{t('fees.extra.confirmations')}</th>
            </tr>
          </thead>
          <tbody>
            {fullySupported.map((currency) => (
              <tr key={currency.code} data-currency={currency.code}>
                <th scope="row">
                  <CurrencyIcon code={currency.code} />
                  {nameOf(currency.code, currency.name)} ({currency.code})
                </th>
                <td className="num" data-label={t('fees.extra.estimate')}>
                  {formatMinor({ minor: NETWORK_FEES_MINOR[currency.code]!, currency: currency.code }, language)}
                </td>
                <td
                  className={isNodeCurrency(currency.code) ? 'num' : undefined}
                  data-label={t('fees.extra.confirmations')}
                >
                  {isNodeCurrency(currency.code) ? formatNumber(DEFAULT_CONFIRMATIONS[currency.code], language) : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>{t('fees.extra.confirmationsNote')}</p>
        <p>{t('fees.extra.eth', { gasLimit: formatNumber(ETH_GAS_LIMIT, language) })}</p>
        <p>{t('fees.extra.partial')}</p>
      </section>

      <section aria-labelledby="fees-wallet">
        <h2 id="fees-wallet">{t('fees.wallet.heading')}</h2>
        <ul>
          <li>{t('fees.wallet.noNetwork')}</li>
          <li>{t('fees.wallet.internal')}</li>
          <li>{t('fees.wallet.newAccount', { hours: formatNumber(DEFAULT_ADDRESS_HOLD_HOURS, language) })}</li>
        </ul>
      </section>

      <section aria-labelledby="fees-limits">
        <h2 id="fees-limits">{t('fees.limits.heading')}</h2>
        <ul>
          <li>{t('fees.limits.firstOrder', { amount: money(FIRST_ORDER_LIMIT_EUR_MINOR) })}</li>
          <li>{t('fees.limits.anyOrder', { amount: money(ORDER_LIMIT_EUR_MINOR) })}</li>
        </ul>
        <p>{t('fees.limits.newCustomer')}</p>
        <h3>{t('fees.verification.heading')}</h3>
        <ul>
          <li>{t('fees.verification.mobile', { amount: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR) })}</li>
          <li>{t('fees.verification.id', { amount: money(ID_VERIFICATION_WEEKLY_EUR_MINOR) })}</li>
          <li>{t('fees.verification.bank')}</li>
          <li>{t('fees.verification.business')}</li>
        </ul>
        <p>{t('fees.verification.counted', { days: formatNumber(WEEKLY_VOLUME_DAYS, language) })}</p>
        <p>{t('fees.verification.anonymous', { amount: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR) })}</p>
        <p>
          <LocalizedLink to="identity">{t('fees.verification.more')}</LocalizedLink>
        </p>
      </section>

      <section aria-labelledby="fees-levels">
        <h2 id="fees-levels">{t('fees.levels.heading')}</h2>
        <p>
          {t('fees.levels.text', {
            lowest: percent(0),
            highest: percent(FEE_OPTION_MAX_BASIS_POINTS),
            step: percent(FEE_OPTION_STEP_BASIS_POINTS),
            minimum: money(FEE_OPTION_MINIMUM_EUR_MINOR),
          })}
        </p>
        <table className="data-table narrow fee-levels">
          <caption className="visually-hidden">{t('fees.levels.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('fees.levels.level')}</th>
              <th scope="col">{t('fees.levels.inUse')}</th>
            </tr>
          </thead>
          <tbody>
            {feeDisplayOptions().map((option) => {
              const types = orderTypesAt(option);
              const label =
                option.minimumEurMinor > 0n
                  ? t('fees.levels.withMinimum', {
                      rate: percent(option.basisPoints),
                      minimum: money(option.minimumEurMinor),
                    })
                  : percent(option.basisPoints);
              return (
                <tr
                  key={`${option.basisPoints}-${option.minimumEurMinor}`}
                  className={types.length ? 'in-use' : undefined}
                >
                  <th scope="row">{label}</th>
                  <td>{types.map((type) => t(`fees.levels.${type}`)).join(', ')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </>
  );
}
