import { Auth0Provider, useAuth0 } from '@auth0/auth0-react';
import { navigate } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '../../domain/languages';
import { safeReturnTo } from '../../domain/return-to';
import { getAuthConfig, type AuthConfig } from './auth-config';
import { usePageLanguage } from './localized-link';
import { writeSessionHint } from './session-hint';

/**
 * The login SDK, for the pages that need it (wallet, my identity, login, register, logout).
 * It is client-only: it renders nothing on the server and starts after hydration.
 */
type AppState = { returnTo?: string };

function SessionHintWriter() {
  const { isAuthenticated, isLoading, user } = useAuth0();
  React.useEffect(() => {
    if (isLoading) return;
    writeSessionHint(isAuthenticated ? { name: user?.name ?? user?.email ?? '' } : null);
  }, [isAuthenticated, isLoading, user]);
  return null;
}

export function AuthIsland({ children, rememberSession = true }: { children: React.ReactNode; rememberSession?: boolean }) {
  const { t } = useTranslation('auth');
  const language = usePageLanguage();
  const [config, setConfig] = React.useState<AuthConfig | null>(null);
  const [failed, setFailed] = React.useState(false);
  React.useEffect(() => {
    getAuthConfig().then(setConfig, () => setFailed(true));
  }, []);

  if (failed) return <p role="alert">{t('session.unavailable')}</p>;
  if (!config) return <p className="muted">{t('session.checking')}</p>;
  const origin = window.location.origin;
  return (
    <Auth0Provider
      domain={config.domain}
      clientId={config.clientId}
      authorizationParams={{
        redirect_uri: `${origin}${localizePath('/login/', language)}`,
        audience: config.audience,
        scope: config.scope,
        ui_locales: language,
      }}
      onRedirectCallback={(appState?: AppState) => {
        // The state came back through the provider: checked again, as any returnTo is.
        void navigate(safeReturnTo(appState?.returnTo, origin, localizePath('/', language)), { replace: true });
      }}
    >
      {rememberSession ? <SessionHintWriter /> : null}
      {children}
    </Auth0Provider>
  );
}
