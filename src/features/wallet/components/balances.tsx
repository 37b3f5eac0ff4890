import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrencyName } from '../../../components/currency-name';
import { formatMoney } from '../../../i18n/format';
import { getBalances, type Balance } from '../api/wallet';
import { useWalletApi } from './use-wallet-api';

/** Balances per currency with their EUR estimate, and the total. */
export function Balances() {
  const { t } = useTranslation('wallet');
  const nameOf = useCurrencyName();
  const { token, language, errorText } = useWalletApi();
  const [data, setData] = React.useState<{ balances: Balance[]; totalEur: string } | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  React.useEffect(() => {
    token()
      .then((value) => getBalances(value, language))
      .then(setData, (e: unknown) => setError(errorText(e)));
  }, [token, language, errorText]);
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p className="muted">…</p>;
  return (
    <section aria-labelledby="balances-heading">
      <h2 id="balances-heading">{t('balances.total', { amount: formatMoney(data.totalEur, 'EUR', language) })}</h2>
      <table className="data-table stack">
        <thead>
          <tr>
            <th scope="col">{t('balances.currency')}</th>
            <th scope="col">{t('balances.balance')}</th>
            <th scope="col">{t('balances.eurEstimate')}</th>
          </tr>
        </thead>
        <tbody>
          {data.balances.map((b) => (
            <tr key={b.currency}>
              <th scope="row">
                {nameOf(b.currency, b.name)} <span className="muted">{b.currency}</span>
                {b.support === 'partial' ? <div className="muted small">{t('balances.partial')}</div> : null}
              </th>
              <td className="num" data-label={t('balances.balance')}>
                {formatMoney(b.balance, b.currency, language)}
              </td>
              <td className="num" data-label={t('balances.eurEstimate')}>
                {formatMoney(b.eurEstimate, 'EUR', language)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
