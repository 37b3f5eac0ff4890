import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_TYPES } from '#domain/orders';
import { TxHash } from '../../../app/tx-hash';
import { usePolled } from '../../../app/use-polled';
import { formatDateTime, formatMoney } from '../../../i18n/format';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { getTransactions, getTransactionsCsv, type Transaction } from '../api/wallet';
import { CurrencySelect } from './currency-select';
import { WALLET_REFRESH_MS } from './refresh';
import { useWalletApi } from './use-wallet-api';

/**
 * An order's rows carry the order's kind where a send carries the user's label (the settlement
 * books `label: order.type`, a refund `label: 'refund'`): that word is no note of the user's, and
 * in English. The row says the kind in the page's language instead, and shows no label.
 */
const ORDER_KINDS: readonly string[] = [...ORDER_TYPES, 'refund'];
type OrderKind = (typeof ORDER_TYPES)[number] | 'refund';
const orderKindOf = (row: Transaction): OrderKind | null =>
  row.type === 'order' && row.label && ORDER_KINDS.includes(row.label) ? (row.label as OrderKind) : null;

/** The newest rows first, each once (a row the newest page and an older page both hold, when new rows pushed it down). */
function mergeById(newest: Transaction[], older: Transaction[]): Transaction[] {
  const seen = new Set(newest.map((row) => row.id));
  return [...newest, ...older.filter((row) => !seen.has(row.id))];
}

/**
 * Transactions: filter by currency, load more, download as CSV; kept current while the page is
 * visible. A row with a chain transaction (a deposit, a paid-out send) links its hash to the
 * block explorer configured for its currency.
 */
export function Transactions() {
  const { t } = useTranslation('wallet');
  const { token, language, errorText } = useWalletApi();
  const [currency, setCurrency] = React.useState('');
  // The newest page, asked again while the page is visible (a deposit or a send shows without a reload)…
  const key = `${language}:${currency}`;
  const first = usePolled(
    async () => getTransactions(await token(), language, { currency: currency || undefined }),
    key,
    WALLET_REFRESH_MS,
  );
  const newest = first.loadedKey === key ? first.data : null;
  // …and the older pages loaded with "Load more", for this filter.
  const [older, setOlder] = React.useState<{ currency: string; rows: Transaction[]; cursor: string | null } | null>(
    null,
  );
  const [moreError, setMoreError] = React.useState<unknown>(null);
  const more = older?.currency === currency ? older : null;
  const rows = newest ? mergeById(newest.transactions, more?.rows ?? []) : null;
  const cursor = more ? more.cursor : (newest?.nextCursor ?? null);
  const error = moreError ?? (newest ? null : first.error);

  const loadMore = async (next: string) => {
    try {
      const page = await getTransactions(await token(), language, { currency: currency || undefined, cursor: next });
      setOlder({ currency, rows: [...(more?.rows ?? []), ...page.transactions], cursor: page.nextCursor });
      setMoreError(null);
    } catch (e) {
      setMoreError(e);
    }
  };

  const download = async () => {
    const csv = await getTransactionsCsv(await token(), language, currency || undefined);
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'muntly-transactions.csv';
    link.click();
    URL.revokeObjectURL(url);
  };
  const date = (iso: string) => formatDateTime(new Date(iso), language);

  return (
    <>
      <div className="inline-form">
        <CurrencySelect
          id="tx-currency"
          label={t('transactions.filter')}
          allLabel={t('transactions.all')}
          value={currency}
          onChange={(code) => {
            setCurrency(code);
            setMoreError(null);
          }}
        />
        <button type="button" className="button" onClick={() => void download()}>
          {t('transactions.csv')}
        </button>
      </div>
      {error ? <p role="alert">{errorText(error)}</p> : null}
      {rows && rows.length === 0 ? <p className="muted">{t('transactions.none')}</p> : null}
      {rows && rows.length > 0 ? (
        <table className="data-table stack transactions-table">
          <thead>
            <tr>
              {(['date', 'type', 'amount', 'eurValue', 'address', 'txid', 'label'] as const).map((c) => (
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
                <td data-label={t('transactions.columns.type')}>
                  {orderKindOf(row)
                    ? t(`transactions.orderKinds.${orderKindOf(row)!}`)
                    : t(`transactions.types.${row.type}` as 'transactions.types.deposit', { defaultValue: row.type })}
                  {row.status === 'awaiting_approval' ? (
                    <span className="send-status send-status-awaiting_approval">
                      {' '}
                      · {t('transactions.awaitingApproval')}
                    </span>
                  ) : null}
                </td>
                <td
                  data-label={t('transactions.columns.amount')}
                  className={`num ${row.direction === 'in' ? 'amount-in' : 'amount-out'}`}
                >
                  <WithCurrencyIcon code={row.currency}>
                    {row.direction === 'in' ? '+' : '−'}
                    {formatMoney(row.amount, row.currency, language)}
                  </WithCurrencyIcon>
                </td>
                <td
                  data-label={t('transactions.columns.eurValue')}
                  className="num"
                  data-empty={row.eurValue ? undefined : ''}
                >
                  {row.eurValue ? formatMoney(row.eurValue, 'EUR', language) : ''}
                </td>
                <td data-label={t('transactions.columns.address')} data-empty={row.address ? undefined : ''}>
                  <code className="address">{row.address ?? ''}</code>
                </td>
                <td data-label={t('transactions.columns.txid')} data-empty={row.txid ? undefined : ''}>
                  {row.txid ? <TxHash txid={row.txid} currency={row.currency} short /> : null}
                </td>
                <td
                  data-label={t('transactions.columns.label')}
                  data-empty={row.label && !orderKindOf(row) ? undefined : ''}
                >
                  {orderKindOf(row) ? '' : (row.label ?? '')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {cursor ? (
        <button type="button" className="button" onClick={() => void loadMore(cursor)}>
          {t('transactions.loadMore')}
        </button>
      ) : null}
    </>
  );
}
