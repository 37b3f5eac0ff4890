import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { currencyByCode } from '#domain/currencies';
import { epcPayload } from '#domain/epc';
import { exchangeRefusal } from '#domain/gates';
import { localizePath } from '#domain/languages';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
} from '#domain/limits';
import { eur } from '#domain/money';
import { depositReference, EXAMPLE_ACCOUNT_KEY } from '#domain/references';
import { apiRequest } from '../../../app/api';
import { useExchangeConfig } from '../../../app/exchange-config';
import { SampleBadge } from '../../../app/operator';
import { formatIban } from '../../../i18n/format';
import { routes } from '../../../i18n/routes';
import { CopyButton } from '../../../ui/copy-button';
import { LocalizedLink, usePageLanguage } from '../../../ui/localized-link';
import { formatMoney } from '../format';
import { useExchangeSession } from '../session';
import { QrCode } from './qr-code';
import type { Me } from '#domain/contracts/accounts';
import type { ErrorCode } from '#domain/errors';

/**
 * Why a deposit to this account would not be converted on arrival (null: it would, within the
 * limits that count the amount), by the exchange gate's rule for a deposit into Bitcoin.
 */
function conversionRefusal(buySellEnabled: boolean, account: Me | null): ErrorCode | null {
  const to = currencyByCode('BTC') ?? null;
  const refusal = exchangeRefusal({
    path: 'deposit_conversion',
    type: 'buy',
    buySellEnabled,
    from: null,
    to,
    fromWallet: false,
    toWallet: true,
    phases: account?.verification ?? null,
  });
  return refusal?.code ?? null;
}

/**
 * Deposits, in the order a payer needs them: for a logged-in user their own reference first (to
 * copy, and in the GiroCode QR with the account), with their EUR deposit cap (GET /api/me); the
 * account to pay into; then the reference pattern (DEPOSIT + account key, optionally a currency
 * code to convert; any case, spaces allowed), explained with an example marked as one.
 */
export function Deposit() {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const session = useExchangeSession();
  // Undefined while asked; null (could not be asked) shows the "by email" note, as an API without an account does.
  const config = useExchangeConfig();
  const [account, setAccount] = React.useState<Me | null>(null);
  const [failed, setFailed] = React.useState(false);

  React.useEffect(() => {
    if (session.status !== 'authenticated') return;
    session
      .getToken()
      .then((token) => apiRequest<Me>(token, language, '/api/me'))
      .then(setAccount, () => setFailed(true));
  }, [session, language]);

  // What this account may do with a deposit, by the exchange gate's own rules (domain/gates.ts):
  // hold euros at all (a verified bank account), and convert on arrival (buying switched on).
  const refusal = conversionRefusal(config?.buySellEnabled !== false, account);
  // Logged out (login_required), the page tells what an account may do.
  const mayHold = refusal !== 'bank_verification_required';
  const mayConvert = refusal === null || refusal === 'login_required';
  // The pattern is explained with an example reference, marked as such; the account's own is above it.
  const example = depositReference(EXAMPLE_ACCOUNT_KEY);
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  const bank = config?.bank;
  // Local mode's sample account: marked beside each value.
  const sample = bank?.sample ? (
    <>
      {' '}
      <SampleBadge />
    </>
  ) : null;
  const own = session.status === 'authenticated' && account && mayHold ? account.depositReference : null;
  return (
    <>
      <section aria-labelledby="deposit-yours" className="deposit-yours">
        <h2 id="deposit-yours">{t('deposit.yoursHeading')}</h2>
        {session.status === 'authenticated' ? (
          account && !mayHold ? (
            <p className="notice" role="status" data-testid="deposit-bank-first">
              {t('deposit.bankFirst')} <LocalizedLink to="my_identity">{t('deposit.bankFirstLink')}</LocalizedLink>
            </p>
          ) : account ? (
            <div className="pay-details">
              <dl className="order-data">
                <dt>{t('deposit.yourReference')}</dt>
                <dd>
                  <code className="reference" data-testid="deposit-reference">
                    {account.depositReference}
                  </code>{' '}
                  <CopyButton value={account.depositReference} what={t('confirm.copy.reason')} />
                </dd>
                {mayConvert ? (
                  <>
                    <dt>{t('deposit.convertExample')}</dt>
                    <dd>
                      <code>{`${account.depositReference} BTC`}</code>{' '}
                      <CopyButton value={`${account.depositReference} BTC`} what={t('confirm.copy.reason')} />
                    </dd>
                  </>
                ) : null}
                <dt>{t('deposit.cap')}</dt>
                <dd>{formatMoney(account.depositLimitEur, 'EUR', language)}</dd>
              </dl>
              {bank ? (
                <figure className="qr">
                  <QrCode
                    text={epcPayload({
                      bic: bank.bic,
                      beneficiary: bank.beneficiary,
                      iban: bank.iban,
                      amountEur: '',
                      reason: account.depositReference,
                    })}
                    label={t('deposit.qrLabel', { beneficiary: bank.beneficiary, reason: account.depositReference })}
                    size={180}
                  />
                  <figcaption className="small">{t('deposit.qrHint')}</figcaption>
                </figure>
              ) : null}
            </div>
          ) : failed ? (
            <p role="alert">{t('deposit.loadError')}</p>
          ) : (
            <p className="muted">{t('deposit.loading')}</p>
          )
        ) : session.status === 'anonymous' ? (
          <p>
            <a
              href={`${localizePath(routes.login, language)}?returnTo=${encodeURIComponent(localizePath(routes.exchange_deposit, language))}`}
            >
              {t('deposit.login')}
            </a>
          </p>
        ) : (
          <p className="muted">{t('deposit.loading')}</p>
        )}
      </section>

      {/* Where to pay, unless this account may not take a deposit at all (it would be sent back). */}
      {account && !mayHold ? null : (
        <section aria-labelledby="deposit-bank">
          <h2 id="deposit-bank">{t('deposit.bankHeading')}</h2>
          {bank ? (
            <table className="data-table pairs">
              <tbody>
                <tr>
                  <th scope="row">{t('confirm.payment.beneficiary')}</th>
                  <td>
                    {bank.beneficiary}
                    {sample}
                  </td>
                </tr>
                <tr>
                  <th scope="row">{t('confirm.payment.iban')}</th>
                  <td>
                    <code>{formatIban(bank.iban)}</code> <CopyButton value={bank.iban} what={t('confirm.copy.iban')} />
                    {sample}
                  </td>
                </tr>
                <tr>
                  <th scope="row">{t('confirm.payment.bic')}</th>
                  <td>
                    <code>{bank.bic}</code>
                    {sample}
                  </td>
                </tr>
                <tr>
                  <th scope="row">{t('confirm.payment.reason')}</th>
                  <td>
                    <code>{own ?? t('deposit.yourReferencePlaceholder')}</code>
                  </td>
                </tr>
              </tbody>
            </table>
          ) : config !== undefined ? (
            <p>{t('deposit.bankByEmail')}</p>
          ) : (
            <p className="muted">{t('deposit.loading')}</p>
          )}
        </section>
      )}

      <section aria-labelledby="deposit-pattern" className="deposit-example">
        <h2 id="deposit-pattern">
          {t('deposit.patternHeading')} <span className="example-badge">{t('deposit.example')}</span>
        </h2>
        <ul>
          <li>{t('deposit.patternEur', { reference: example })}</li>
          {mayConvert ? <li>{t('deposit.patternConvert', { reference: example })}</li> : null}
          <li>{t('deposit.patternCase')}</li>
          <li>{t('deposit.patternCap')}</li>
        </ul>
        {mayConvert ? (
          <p>
            {t('deposit.convertRules', {
              first: money(FIRST_ORDER_LIMIT_EUR_MINOR),
              mobile: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR),
              id: money(ID_VERIFICATION_WEEKLY_EUR_MINOR),
            })}
          </p>
        ) : refusal === 'buy_sell_disabled' ? (
          <p className="notice" role="status">
            {t('deposit.convertPaused')}
          </p>
        ) : null}
      </section>
    </>
  );
}
