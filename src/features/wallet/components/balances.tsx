import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { decimalToMinor } from '#domain/money';
import { usePolled } from '../../../app/use-polled';
import { formatMoney } from '../../../i18n/format';
import { CurrencyIcon } from '../../../ui/currency-icon';
import { useCurrencyName } from '../../../ui/currency-name';
import { LocalizedLink } from '../../../ui/localized-link';
import { getBalances, type Balance } from '../api/wallet';
import { WALLET_REFRESH_MS } from './refresh';
import { useBankVerification, useWalletApi } from './use-wallet-api';
import '../wallet.css';

const held = (b: Balance) => /[1-9]/.test(b.balance);
const eurCents = (b: Balance) => decimalToMinor(b.eurEstimate, 2) ?? 0n;

/** What is held, most valuable first, then (behind "show all") the currencies at zero. */
export function sortBalances(balances: Balance[]): { held: Balance[]; zero: Balance[] } {
  const nonZero = balances.filter(held);
  nonZero.sort((a, b) => (eurCents(a) === eurCents(b) ? 0 : eurCents(a) > eurCents(b) ? -1 : 1));
  return { held: nonZero, zero: balances.filter((b) => !held(b)) };
}

/**
 * Balances per currency with their EUR estimate, and the total, kept current while the page is
 * visible (a deposit or a send shows without a reload).
 */
export function Balances() {
  const { t } = useTranslation('wallet');
  const nameOf = useCurrencyName();
  const { token, language, errorText } = useWalletApi();
  const { data, error } = usePolled(async () => getBalances(await token(), language), language, WALLET_REFRESH_MS);
  const [showAll, setShowAll] = React.useState(false);
  if (!data && error) return <p role="alert">{errorText(error)}</p>;
  if (!data) return <p className="muted">…</p>;
  const { held: heldRows, zero } = sortBalances(data.balances);
  const rows = showAll ? [...heldRows, ...zero] : heldRows;
  const partialShown = rows.some((b) => b.support === 'partial');
  return (
    <section aria-labelledby="balances-heading">
      <h2 id="balances-heading">{t('balances.total', { amount: formatMoney(data.totalEur, 'EUR', language) })}</h2>
      {heldRows.length === 0 ? <EmptyNext /> : null}
      {rows.length > 0 ? (
        <table className="data-table stack balances-table" id="balances-table">
          <thead>
            <tr>
              <th scope="col">{t('balances.currency')}</th>
              <th scope="col">{t('balances.balance')}</th>
              <th scope="col">{t('balances.eurEstimate')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.currency} className={held(b) ? undefined : 'balance-zero'}>
                <th scope="row">
                  <CurrencyIcon code={b.currency} />
                  {nameOf(b.currency, b.name)} <span className="muted">{b.currency}</span>
                  {b.support === 'partial' ? (
                    <>
                      <span className="footnote-mark" aria-hidden="true">
                        *
                      </span>
                      <span className="visually-hidden">{t('balances.partial')}</span>
                    </>
                  ) : null}
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
      ) : null}
      {zero.length > 0 ? (
        <button
          type="button"
          className="button small"
          aria-expanded={showAll}
          aria-controls={rows.length > 0 ? 'balances-table' : undefined}
          onClick={() => setShowAll((open) => !open)}
        >
          {showAll ? t('balances.hideZero') : t('balances.showAll')}
        </button>
      ) : null}
      {partialShown ? (
        <p className="muted small partial-notice">
          <span aria-hidden="true">* </span>
          {t('balances.partialNotice')}
        </p>
      ) : null}
    </section>
  );
}

/**
 * An empty wallet says what fills it (issue 35): without a verified bank account, that
 * verification first (it unlocks the wallet); with one, an address to receive crypto at, or a
 * purchase delivered into the wallet.
 */
function EmptyNext() {
  const { t } = useTranslation('wallet');
  const bank = useBankVerification();
  const verified = bank?.phase === 'verified';
  return (
    <div className="empty-next" data-testid="balances-empty">
      <p>{t('balances.empty')}</p>
      {bank === undefined ? null : (
        <ul className="actions">
          {verified ? (
            <li>
              <LocalizedLink to="wallet_receive" className="button primary">
                {t('balances.emptyReceive')}
              </LocalizedLink>
            </li>
          ) : (
            <li>
              <LocalizedLink to="my_identity" className="button primary">
                {t('balances.emptyVerify')}
              </LocalizedLink>
            </li>
          )}
          <li>
            <LocalizedLink to="exchange" className="button">
              {t('balances.emptyBuy')}
            </LocalizedLink>
          </li>
        </ul>
      )}
      {bank !== undefined && !verified ? <p className="muted small">{t('balances.emptyVerifyWhy')}</p> : null}
    </div>
  );
}
