import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, formatNumber } from '../i18n/format';
import { CurrencyIcon } from './currency-icon';
import type { SnapshotSummary } from '#domain/contracts/liabilities';
import type { Language } from '#domain/languages';
import './solvency.css';

/**
 * The parts of the proof of solvency shown both on the public page (/proof/) and in the wallet
 * (/wallet/proof/): owed against held per currency, and what the proof shows and what it does
 * not. Texts in the `proof` namespace, which both pages load.
 */

/** A snapshot's instant, in UTC (it is one instant for everyone; the text says UTC). */
export const formatInstant = (iso: string, language: Language) =>
  formatDateTime(new Date(iso), language, { seconds: true, utc: true });

const isNegative = (decimal: string) => decimal.trim().startsWith('-');

/** Per currency: owed, held, the difference (marked when negative), the block height and the proofs of control. */
export function OwedHeldTable({
  summary,
  listed,
  language,
}: {
  summary: SnapshotSummary;
  listed?: ReadonlyMap<string, number>;
  language: Language;
}) {
  const { t } = useTranslation('proof');
  const money = (value: string, currency: string) => formatMoney(value, currency, language);
  if (summary.currencies.length === 0) return <p>{t('table.nothingOwed')}</p>;
  return (
    <table className="data-table stack solvency-table">
      <thead>
        <tr>
          <th scope="col">{t('table.currency')}</th>
          <th scope="col">{t('table.owed')}</th>
          <th scope="col">{t('table.held')}</th>
          <th scope="col">{t('table.difference')}</th>
          <th scope="col">{t('table.height')}</th>
          <th scope="col">{t('table.control')}</th>
        </tr>
      </thead>
      <tbody>
        {summary.currencies.map((c) => {
          const count = listed?.get(c.currency);
          const short = c.difference !== null && isNegative(c.difference);
          return (
            <tr key={c.currency} data-currency={c.currency}>
              <th scope="row">
                <span className="solvency-currency">
                  <CurrencyIcon code={c.currency} />
                  {c.currency}
                </span>
              </th>
              <td className="num" data-label={t('table.owed')}>
                {money(c.total, c.currency)}
              </td>
              <td className="num" data-label={t('table.held')}>
                {c.held === null ? <span className="muted">{t('table.notRead')}</span> : money(c.held, c.currency)}
              </td>
              <td className="num" data-label={t('table.difference')}>
                {c.difference === null ? (
                  <span className="muted">—</span>
                ) : (
                  <span className={short ? 'solvency-short' : 'solvency-covered'}>
                    <span aria-hidden="true">{short ? '⚠ ' : '✓ '}</span>
                    {money(c.difference, c.currency)}{' '}
                    <span className="solvency-verdict">({short ? t('table.short') : t('table.covered')})</span>
                  </span>
                )}
              </td>
              <td className="num" data-label={t('table.height')}>
                {c.height === null ? <span className="muted">—</span> : formatNumber(c.height, language)}
              </td>
              <td data-label={t('table.control')}>
                {count === undefined
                  ? formatNumber(c.controlled, language)
                  : count === 0
                    ? t('table.noAddresses')
                    : t('table.controlled', {
                        controlled: formatNumber(c.controlled, language),
                        listed: formatNumber(count, language),
                      })}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** What the proof shows and what it does not, in plain words. */
export function ProofExplained({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const { t } = useTranslation('proof');
  const Heading = `h${headingLevel}` as const;
  const Sub = `h${headingLevel + 1}` as 'h3' | 'h4';
  return (
    <section aria-labelledby="proof-explained" className="proof-explained">
      <Heading id="proof-explained">{t('explain.heading')}</Heading>
      <Sub>{t('explain.shows')}</Sub>
      <ul>
        <li>{t('explain.showsOwed')}</li>
        <li>{t('explain.showsYours')}</li>
        <li>{t('explain.showsHeld')}</li>
      </ul>
      <Sub>{t('explain.not')}</Sub>
      <ul>
        <li>{t('explain.notCount')}</li>
        <li>{t('explain.notDebts')}</li>
        <li>{t('explain.notOthers')}</li>
      </ul>
    </section>
  );
}
