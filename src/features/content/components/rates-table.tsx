import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENCIES } from '#domain/currencies';
import { SampleBadge } from '../../../app/operator';
import { CurrencyIcon } from '../../../ui/currency-icon';
import { useCurrencyName } from '../../../ui/currency-name';
import { LocalizedLink } from '../../../ui/localized-link';
import { getRates } from '../api/get-rates';
import { usePolled } from '../api/use-polled';
import { formatRate, formatTime } from '../format';
import type { Language } from '#domain/languages';

export const RATES_REFRESH_MS = 30_000;

/** The live table of floating EUR rates (GET /api/rates), refreshed every 30 seconds. */
export function RatesTable({ language }: { language: Language }) {
  const { t } = useTranslation('info');
  const nameOf = useCurrencyName();
  const { data, failed } = usePolled(() => getRates(language), language, RATES_REFRESH_MS);

  return (
    <section aria-labelledby="rates-heading">
      <h2 id="rates-heading">{t('rates.tableHeading', { count: CURRENCIES.length })}</h2>
      <p aria-live="polite" className="muted">
        {failed
          ? t('rates.failed')
          : data
            ? t('rates.updated', { time: formatTime(new Date(data.at), language) })
            : t('rates.loading')}
        {data?.sample ? (
          <>
            {' '}
            <SampleBadge />
          </>
        ) : null}
      </p>
      <table className="data-table stack">
        <caption className="visually-hidden">{t('rates.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('rates.currency')}</th>
            <th scope="col">{t('rates.rate')}</th>
            <th scope="col">{t('rates.support')}</th>
          </tr>
        </thead>
        <tbody>
          {CURRENCIES.map((currency) => {
            const rate = data?.rates[currency.code];
            return (
              <tr key={currency.code} data-currency={currency.code}>
                <th scope="row">
                  <CurrencyIcon code={currency.code} />
                  {nameOf(currency.code, currency.name)} <span className="muted">{currency.code}</span>
                </th>
                <td className="num" data-label={t('rates.rate')}>
                  {rate ? formatRate(rate, language) : '…'}
                </td>
                <td data-label={t('rates.support')}>
                  {currency.support === 'full' ? t('rates.full') : t('rates.partial')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p>{t('rates.supportNote')}</p>
      <p>
        <LocalizedLink to="charts">{t('rates.toCharts')}</LocalizedLink>
      </p>
    </section>
  );
}
