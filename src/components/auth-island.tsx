import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthConfig, type AuthConfig } from './auth-config';
import { usePageLanguage } from './localized-link';

/**
 * Where the login session lives, for the pages that need it (wallet, my identity, faucet, login,
 * register, logout, the exchange forms' session). It is client-only: it renders nothing of the
 * SDK on the server, and after hydration it fetches the login configuration and the SDK's chunk
 * at the same time; the components inside read the session with useSession().
 */
const loadSdk = () => import('./auth-sdk');
const AuthSdk = React.lazy(loadSdk);

export function AuthIsland({ children, rememberSession = true }: { children: React.ReactNode; rememberSession?: boolean }) {
  const { t } = useTranslation('auth');
  const language = usePageLanguage();
  const [config, setConfig] = React.useState<AuthConfig | null>(null);
  const [failed, setFailed] = React.useState(false);
  React.useEffect(() => {
    // Both requests at once: the chunk does not wait for the configuration, nor the reverse.
    Promise.all([getAuthConfig(), loadSdk()]).then(
      ([loaded]) => setConfig(loaded),
      () => setFailed(true),
    );
  }, []);

  const checking = <p className="muted">{t('session.checking')}</p>;
  if (failed) return <p role="alert">{t('session.unavailable')}</p>;
  if (!config) return checking;
  return (
    <React.Suspense fallback={checking}>
      <AuthSdk config={config} language={language} rememberSession={rememberSession}>
        {children}
      </AuthSdk>
    </React.Suspense>
  );
}
