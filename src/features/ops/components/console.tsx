import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '#domain/languages';
import { ApiFailure } from '../../../app/api';
import { AuthIsland } from '../../../app/auth-island';
import { errorKeyOf, useErrorText } from '../../../app/error-text';
import { displayName, useSession } from '../../../app/session';
import { opsRoutes, type OpsRouteName } from '../../../i18n/ops-routes';
import { IslandPlaceholder } from '../../../ui/island';
import { LocalizedLink, usePageLanguage } from '../../../ui/localized-link';
import { Accounts } from './accounts';
import { AuditTrail } from './audit';
import { Bank } from './bank';
import { Faucet } from './faucet';
import { Orders } from './orders';
import { Overview } from './overview';
import { OpsContext, useOpsApi, type OpsContextValue } from './parts';
import { Payouts } from './payouts';
import { Unmatched } from './unmatched';
import { Verifications } from './verifications';
import type { OpsQueues } from '#domain/contracts/console';
import '../ops.css';

/**
 * The operator console (/ops/ and its pages, in every language): behind the site's login, for
 * operators only. The page asks the login provider for a token with `admin:muntly` (the API checks
 * it on every call); an account without it — the provider refuses the scope, or the API answers
 * 403 — sees a polite refusal, a visitor not logged in a login button. Every action here is also
 * an `npm run ops` command, through the same API.
 */
export const OPS_SCOPE = 'openid profile email use:muntly admin:muntly';

const SECTIONS: Record<OpsRouteName, () => React.ReactElement> = {
  ops: () => <Overview />,
  ops_verifications: () => <Verifications />,
  ops_unmatched: () => <Unmatched />,
  ops_payouts: () => <Payouts />,
  ops_orders: () => <Orders />,
  ops_accounts: () => <Accounts />,
  ops_faucet: () => <Faucet />,
  ops_audit: () => <AuditTrail />,
  ops_bank: () => <Bank />,
};

export function OpsConsole({ section }: { section: OpsRouteName }) {
  return (
    <IslandPlaceholder name="ops">
      <AuthIsland>
        <OpsGate section={section} />
      </AuthIsland>
    </IslandPlaceholder>
  );
}

/** The login provider or the API said no to the operator scope: this account is no operator. */
function refused(error: unknown): boolean {
  if (error instanceof ApiFailure) return error.status === 403;
  const code = (error as { error?: unknown } | null)?.error;
  return code === 'consent_required' || code === 'access_denied' || code === 'interaction_required';
}

type Access =
  | { state: 'checking' }
  | { state: 'granted'; queues: OpsQueues }
  | { state: 'refused' }
  | { state: 'failed'; error: unknown };

function OpsGate({ section }: { section: OpsRouteName }) {
  const { t } = useTranslation('ops');
  const session = useSession();
  const { status, loginWithRedirect, getAccessTokenSilently } = session;
  const operator = session.status === 'signed-in' ? (session.user.sub ?? null) : null;
  const error = session.status === 'anonymous' ? session.error : undefined;
  const isAuthenticated = status === 'signed-in';
  const token = React.useCallback(
    async () => String(await getAccessTokenSilently({ authorizationParams: { scope: OPS_SCOPE } })),
    [getAccessTokenSilently],
  );
  const api = useOpsApi(token);
  const language = usePageLanguage();
  const [access, setAccess] = React.useState<Access>({ state: 'checking' });
  const [attempt, setAttempt] = React.useState(0);

  React.useEffect(() => {
    if (!isAuthenticated) return;
    let live = true;
    api.queues().then(
      (queues) => live && setAccess({ state: 'granted', queues }),
      (failure: unknown) =>
        live && setAccess(refused(failure) ? { state: 'refused' } : { state: 'failed', error: failure }),
    );
    return () => {
      live = false;
    };
  }, [api, isAuthenticated, attempt]);

  const refreshQueues = React.useCallback(() => {
    api.queues().then(
      (queues) => setAccess((current) => (current.state === 'granted' ? { state: 'granted', queues } : current)),
      () => undefined,
    );
  }, [api]);
  // The counts stay current while the console is open.
  React.useEffect(() => {
    if (access.state !== 'granted') return;
    const timer = window.setInterval(() => document.visibilityState === 'visible' && refreshQueues(), 30_000);
    return () => window.clearInterval(timer);
  }, [access.state, refreshQueues]);

  const value = React.useMemo<OpsContextValue | null>(
    () => (access.state === 'granted' ? { api, language, operator, queues: access.queues, refreshQueues } : null),
    [access, api, language, operator, refreshQueues],
  );

  if (error) return <p role="alert">{t('gate.failed')}</p>;
  if (status === 'unknown') return <p className="muted">{t('gate.checking')}</p>;
  if (!isAuthenticated) {
    return (
      <div className="ops-gate">
        <p>{t('gate.loggedOut')}</p>
        <button
          type="button"
          className="button primary"
          onClick={() =>
            void loginWithRedirect({ appState: { returnTo: window.location.pathname + window.location.search } })
          }
        >
          {t('gate.login')}
        </button>
      </div>
    );
  }
  if (access.state === 'refused')
    return <Refusal name={session.status === 'signed-in' ? displayName(session.user) : ''} />;
  if (access.state === 'failed') return <GateFailed error={access.error} retry={() => setAttempt((n) => n + 1)} />;
  if (!value) return <p className="muted">{t('gate.checking')}</p>;
  return (
    <OpsContext.Provider value={value}>
      <OpsNav current={section} queues={value.queues} />
      {SECTIONS[section]()}
    </OpsContext.Provider>
  );
}

/** Logged in, but not as an operator: say so kindly, and offer the way back or another login. */
function Refusal({ name }: { name: string }) {
  const { t } = useTranslation('ops');
  return (
    <div className="ops-gate" role="status">
      <h2>{t('gate.refused.title')}</h2>
      <p>{name ? t('gate.refused.textNamed', { name }) : t('gate.refused.text')}</p>
      <p className="actions">
        <LocalizedLink to="home" className="button">
          {t('gate.refused.home')}
        </LocalizedLink>
        <LocalizedLink to="logout" className="button">
          {t('gate.refused.logout')}
        </LocalizedLink>
      </p>
    </div>
  );
}

function GateFailed({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation('ops');
  const errorText = useErrorText();
  return (
    <div role="alert">
      <p className="form-error">{errorText(errorKeyOf(error))}</p>
      <button type="button" className="button" onClick={retry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** The console's pages, each queue with how much waits in it. */
export const OPS_NAV: OpsRouteName[] = [
  'ops',
  'ops_verifications',
  'ops_unmatched',
  'ops_payouts',
  'ops_orders',
  'ops_accounts',
  'ops_faucet',
  'ops_audit',
  'ops_bank',
];

export function queueCount(name: OpsRouteName, queues: OpsQueues | null): number | null {
  if (!queues) return null;
  if (name === 'ops_verifications') return queues.verificationRequests + queues.documents;
  if (name === 'ops_unmatched') return queues.unmatchedPayments;
  if (name === 'ops_payouts') return queues.payoutsAwaitingApproval;
  return null;
}

function OpsNav({ current, queues }: { current: OpsRouteName; queues: OpsQueues | null }) {
  const { t } = useTranslation('ops');
  const language = usePageLanguage();
  return (
    <nav aria-label={t('nav.label')} className="section-nav ops-nav">
      <ul>
        {OPS_NAV.map((name) => {
          const count = queueCount(name, queues);
          return (
            <li key={name}>
              <Link
                to={localizePath(opsRoutes[name], language)}
                className={name === current ? 'active' : undefined}
                aria-current={name === current ? 'page' : undefined}
              >
                {t(`pages.${name}.nav`)}
                {count !== null ? (
                  <span className={count > 0 ? 'ops-count waiting' : 'ops-count'}>
                    <span aria-hidden="true">{count}</span>
                    <span className="visually-hidden">{t('nav.waiting', { count })}</span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
