import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat, formatMoney } from '../../../i18n/format';
import { getTransactions, getTransactionsCsv, type Transaction } from '../api/wallet';
import { CurrencySelect } from './currency-select';
import { useWalletApi } from './use-wallet-api';

/** Transactions: filter by currency, load more, download as CSV. */
export function Transactions() {
  const { t } = useTranslation('wallet');
  const { token, language, errorText } = useWalletApi();
  const [currency, setCurrency] = React.useState('');
  const [rows, setRows] = React.useState<Transaction[] | null>(null);
  const [cursor, setCursor] = React.useState<string | null>(null);
  const [error, setError] = React.useState<string | null>(null);

  const load = React.useCallback(
    async (next?: string) => {
      try {
        const page = await getTransactions(await token(), language, { currency: currency || undefined, cursor: next });
        setRows((current) => (next ? [...(current ?? []), ...page.transactions] : page.transactions));
        setCursor(page.nextCursor);
      } catch (e) {
        setError(errorText(e));
      }
    },
    [token, language, currency, errorText],
  );
  React.useEffect(() => {
    void load();
  }, [load]);

  const download = async () => {
    const csv = await getTransactionsCsv(await token(), language, currency || undefined);
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'muntly-transactions.csv';
    link.click();
    URL.revokeObjectURL(url);
  };
  const date = (iso: string) => dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  return (
    <>
      <div className="inline-form">
        <CurrencySelect id="tx-currency" label={t('transactions.filter')} allLabel={t('transactions.all')} value={currency} onChange={(e) => setCurrency(e.target.value)} />
        <button type="button" className="button" onClick={() => void download()}>
          {t('transactions.csv')}
        </button>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {rows && rows.length === 0 ? <p className="muted">{t('transactions.none')}</p> : null}
      {rows && rows.length > 0 ? (
        <table className="data-table stack">
          <thead>
            <tr>
              {(['date', 'type', 'amount', 'eurValue', 'address', 'label'] as const).map((c) => (
                <th key={c} scope="col">
                  {t(`transactions.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td data-label={t('transactions.columns.date')}>{date(row.date)}</td>
                <td data-label={t('transactions.columns.type')}>{t(`transactions.types.${row.type}` as 'transactions.types.deposit', { defaultValue: row.type })}</td>
                <td data-label={t('transactions.columns.amount')} className={`num ${row.direction === 'in' ? 'amount-in' : 'amount-out'}`}>
                  {row.direction === 'in' ? '+' : '−'}
                  {formatMoney(row.amount, row.currency, language)}
                </td>
                <td data-label={t('transactions.columns.eurValue')} className="num" data-empty={row.eurValue ? undefined : ''}>
                  {row.eurValue ? formatMoney(row.eurValue, 'EUR', language) : ''}
                </td>
                <td data-label={t('transactions.columns.address')} data-empty={row.address ? undefined : ''}>
                  <code className="address">{row.address ?? ''}</code>
                </td>
                <td data-label={t('transactions.columns.label')} data-empty={row.label ? undefined : ''}>
                  {row.label ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {cursor ? (
        <button type="button" className="button" onClick={() => void load(cursor)}>
          {t('transactions.loadMore')}
        </button>
      ) : null}
    </>
  );
}
