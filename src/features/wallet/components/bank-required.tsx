import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../i18n/format';
import { LocalizedLink } from '../../../ui/localized-link';
import { getBankVerification, requestBankVerification, type BankVerification } from '../api/wallet';
import { useWalletApi } from './use-wallet-api';
import '../wallet.css';

/**
 * The wallet's bank verification: asked once per page. `undefined` while it is being asked;
 * `null` when it could not be (the API still refuses what needs it, and the page says so then).
 */
function useBankVerification() {
  const { token, language, errorText } = useWalletApi();
  const [bank, setBank] = React.useState<BankVerification | null | undefined>(undefined);
  const [busy, setBusy] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  React.useEffect(() => {
    token()
      .then((value) => getBankVerification(value, language))
      .then(setBank, () => setBank(null));
  }, [token, language]);
  const request = async () => {
    setBusy(true);
    setError(null);
    try {
      setBank(await requestBankVerification(await token(), language));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return { bank, busy, error, request };
}

/**
 * Shows the wallet feature only with a verified bank account; otherwise, before any form, what a
 * bank verification is and the one click that asks for it.
 */
export function BankGate({ children }: { children: React.ReactNode }) {
  const state = useBankVerification();
  if (state.bank === undefined) return <p className="muted">…</p>;
  if (state.bank === null || state.bank.phase === 'verified') return <>{children}</>;
  return <BankRequiredView {...state} bank={state.bank} />;
}

/** The same explanation when the API refused an action for want of a verified bank account. */
export function BankRequired() {
  const state = useBankVerification();
  return <BankRequiredView {...state} bank={state.bank ?? null} />;
}

export function BankRequiredView({
  bank,
  busy,
  error,
  request,
}: {
  bank: BankVerification | null;
  busy: boolean;
  error: string | null;
  request: () => Promise<void>;
}) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const started = bank && bank.phase !== 'not_enabled';
  return (
    <section className="bank-required" aria-labelledby="bank-required-title">
      <h2 id="bank-required-title">{t('bankRequired.title')}</h2>
      <p>{t('bankRequired.why')}</p>
      <p>{t('bankRequired.how')}</p>
      {started ? (
        <>
          <p>{t('bankRequired.started')}</p>
          <p>
            <LocalizedLink to="my_identity" className="button primary">
              {t('bankRequired.continue')}
            </LocalizedLink>
          </p>
        </>
      ) : bank?.requestedAt ? (
        <p role="status">{t('bankRequired.requested', { date: formatDate(new Date(bank.requestedAt), language) })}</p>
      ) : bank ? (
        <p>
          <button type="button" className="button primary" disabled={busy} onClick={() => void request()}>
            {busy ? t('bankRequired.requesting') : t('bankRequired.request')}
          </button>
        </p>
      ) : (
        // The state could not be read: the identity page explains and asks.
        <p>
          <LocalizedLink to="my_identity">{t('bankRequired.link')}</LocalizedLink>
        </p>
      )}
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
