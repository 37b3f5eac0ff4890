import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../app/error-text';
import { displayName, useSession } from '../../../app/session';
import { formatMoney, formatNumber } from '../../../i18n/format';
import { LocalizedLink } from '../../../ui/localized-link';
import { VerificationSteps } from '../../../ui/verification-steps';
import {
  getBalances,
  getSecurity,
  getVerifications,
  type Balance,
  type IdentityKind,
  type SecurityOverview,
} from '../api/wallet';
import { sortBalances } from './balances';
import { useWalletApi } from './use-wallet-api';
import type { RouteName } from '../../../i18n/routes';
import '../wallet.css';

/** What a logged-in user's home knows: each part may fail alone (null), the rest still shows. */
type HomeData = {
  balances: { totalEur: string; balances: Balance[] } | null;
  kinds: IdentityKind[] | null;
  security: SecurityOverview | null;
};

/** One suggestion of what to do next: its text and the page that does it. */
export type NextStep = { key: 'bank' | 'receive' | 'buy' | 'phrase' | 'book'; to: RouteName };

/**
 * What a user should do next, most pressing first (issue 35): the wallet needs a verified bank
 * account; an empty wallet is filled by receiving or buying; then the protection a first send
 * needs — the phrase that tells Muntly's emails from fakes, and the addresses whose hold must run.
 */
export function nextSteps(data: HomeData): NextStep[] {
  const steps: NextStep[] = [];
  const bank = data.kinds?.find((k) => k.kind === 'bank');
  if (bank && bank.phase !== 'verified') steps.push({ key: 'bank', to: 'my_identity' });
  const empty = data.balances !== null && sortBalances(data.balances.balances).held.length === 0;
  if (empty && bank?.phase === 'verified') steps.push({ key: 'receive', to: 'wallet_receive' });
  if (empty) steps.push({ key: 'buy', to: 'exchange' });
  if (data.security && !data.security.phrase) steps.push({ key: 'phrase', to: 'wallet_security' });
  if (data.security && data.security.addressBook.length === 0) steps.push({ key: 'book', to: 'wallet_security' });
  return steps;
}

/**
 * The wallet's page for a logged-in user: their own home (issue 35) — the balance, what to do
 * next, and the verifications with what each unlocks. A visitor is invited to log in or sign up.
 */
export function WalletHome() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation('common');
  const session = useSession();
  if (session.status === 'unknown') return <p className="muted">…</p>;
  if (session.status === 'anonymous') {
    return (
      <section aria-labelledby="home-visitor" className="wallet-home">
        <h2 id="home-visitor">{t('home.visitorHeading')}</h2>
        <p>{t('home.visitor')}</p>
        <p className="actions">
          <LocalizedLink to="login" className="button primary">
            {tc('nav.login')}
          </LocalizedLink>
          <LocalizedLink to="register" className="button">
            {tc('nav.register')}
          </LocalizedLink>
        </p>
      </section>
    );
  }
  return <OwnHome name={displayName(session.user)} />;
}

function OwnHome({ name }: { name: string }) {
  const { t } = useTranslation('wallet');
  const { token, language, errorText } = useWalletApi();
  const codeText = useErrorText();
  const [data, setData] = React.useState<HomeData | null>(null);
  const [failed, setFailed] = React.useState<unknown>(null);
  React.useEffect(() => {
    let live = true;
    void token().then(
      async (value) => {
        const [balances, kinds, security] = await Promise.all([
          getBalances(value, language).catch(() => null),
          getVerifications(value, language).catch(() => null),
          getSecurity(value, language).catch(() => null),
        ]);
        if (live) setData({ balances, kinds, security });
      },
      (error: unknown) => live && setFailed(error),
    );
    return () => {
      live = false;
    };
  }, [token, language]);
  if (failed) return <p role="alert">{errorText(failed)}</p>;
  if (!data) return <p className="muted">…</p>;
  const held = data.balances ? sortBalances(data.balances.balances).held : [];
  const steps = nextSteps(data);
  return (
    <div className="wallet-home" data-testid="wallet-home">
      <h2 className="home-greeting">{t('home.greeting', { name })}</h2>
      <div className="home-grid">
        <section aria-labelledby="home-balance" className="home-card">
          <h3 id="home-balance">{t('home.balanceHeading')}</h3>
          {data.balances ? (
            <>
              <p className="home-total">{formatMoney(data.balances.totalEur, 'EUR', language)}</p>
              {held.length === 0 ? (
                <p>{t('home.empty')}</p>
              ) : (
                <ul className="home-held">
                  {held.slice(0, 3).map((b) => (
                    <li key={b.currency}>{formatMoney(b.balance, b.currency, language)}</li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <p role="alert">{codeText('generic')}</p>
          )}
          <p>
            <LocalizedLink to="wallet_balances">{t('home.balancesLink')}</LocalizedLink>
          </p>
        </section>
        <section aria-labelledby="home-next" className="home-card">
          <h3 id="home-next">{t('home.nextHeading')}</h3>
          {steps.length ? (
            <ol className="home-next">
              {steps.map((step) => (
                <li key={step.key}>
                  <LocalizedLink to={step.to}>{t(`home.next.${step.key}.link`)}</LocalizedLink>{' '}
                  <span>
                    {t(`home.next.${step.key}.why`, { hours: formatNumber(data.security?.holdHours ?? 0, language) })}
                  </span>
                </li>
              ))}
            </ol>
          ) : (
            <p>{t('home.nothingNext')}</p>
          )}
        </section>
      </div>
      {data.kinds ? <VerificationSteps kinds={data.kinds} headingId="home-verifications" /> : null}
    </div>
  );
}
