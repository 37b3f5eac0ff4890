import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { usePageLanguage } from '../ui/localized-link';
import { getAuthConfig, type AuthConfig } from './auth-config';
import { mayHaveSession, type Session } from './session';
import { SessionProvider } from './session-provider';
import type { Handover } from './auth-sdk';

/**
 * Where the login session lives, for the pages that need it (wallet, my identity, faucet, login,
 * register, logout, the exchange forms' session, the console). It is client-only: it renders
 * nothing of the SDK on the server. After hydration it fetches the login configuration and, if
 * the SDK could find a session here (mayHaveSession), the SDK's chunk at the same time. A
 * visitor it could not is logged out without the SDK: the island hands down a logged-out session
 * whose login and logout load the SDK and hand the action over to it. The components inside
 * read the session with useSession() (session.tsx); SessionProvider remembers it for the header.
 */
const loadSdk = () => import(/* webpackChunkName: "auth-sdk" */ './auth-sdk');
const AuthSdk = React.lazy(loadSdk);

type Mode = 'deciding' | 'logged-out' | 'sdk';

export function AuthIsland({
  children,
  rememberSession = true,
}: {
  children: React.ReactNode;
  rememberSession?: boolean;
}) {
  const { t } = useTranslation('auth');
  const language = usePageLanguage();
  const [mode, setMode] = React.useState<Mode>('deciding');
  const [config, setConfig] = React.useState<AuthConfig | null>(null);
  const [failed, setFailed] = React.useState(false);
  // Logins and logouts asked of the logged-out session, for the SDK to carry out once loaded.
  const handovers = React.useRef<Handover[]>([]);

  // Decided after hydration: the server knows no cookies, and the first render must match its HTML.
  React.useEffect(() => setMode(mayHaveSession() ? 'sdk' : 'logged-out'), []);
  React.useEffect(() => {
    if (mode === 'deciding') return;
    // Both requests at once: the chunk does not wait for the configuration, nor the reverse.
    Promise.all([getAuthConfig(), mode === 'sdk' ? loadSdk() : undefined]).then(
      ([loaded]) => setConfig(loaded),
      () => setFailed(true),
    );
  }, [mode]);

  const loggedOut = React.useMemo<Session>(() => {
    const handOver = (run: Handover['run']) =>
      new Promise<void>((resolve, reject) => {
        handovers.current.push({ run, resolve, reject });
        setMode('sdk');
      });
    return {
      status: 'anonymous',
      loginWithRedirect: (options) => handOver((sdk) => sdk.loginWithRedirect(options)),
      logout: (options) => handOver((sdk) => sdk.logout(options)),
      // No session, no token (the SDK's error code for it); the site asks for one only when logged in.
      getAccessTokenSilently: (() =>
        Promise.reject(
          Object.assign(new Error('Login required'), { error: 'login_required' }),
        )) as Session['getAccessTokenSilently'],
    };
  }, []);

  const checking = <p className="muted">{t('session.checking')}</p>;
  if (failed) return <p role="alert">{t('session.unavailable')}</p>;
  if (!config || mode === 'deciding') return checking;
  if (mode === 'logged-out') {
    return (
      <SessionProvider session={loggedOut} remember={rememberSession}>
        {children}
      </SessionProvider>
    );
  }
  return (
    <React.Suspense fallback={checking}>
      <AuthSdk
        config={config}
        language={language}
        rememberSession={rememberSession}
        handovers={handovers.current}
        busy={checking}
      >
        {children}
      </AuthSdk>
    </React.Suspense>
  );
}
