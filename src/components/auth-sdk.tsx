import { Auth0Provider, useAuth0 } from '@auth0/auth0-react';
import { navigate } from 'gatsby';
import * as React from 'react';
import { localizePath, type Language } from '../../domain/languages';
import { safeReturnTo } from '../../domain/return-to';
import { SessionContext } from './session';
import { writeSessionHint } from './session-hint';
import type { AuthConfig } from './auth-config';

/**
 * The login SDK, in a chunk of its own that the auth island loads after the page has hydrated
 * (see session.tsx). It hands the SDK's session to the island's components through
 * SessionContext and keeps the header's session hint up to date.
 */
type AppState = { returnTo?: string };

function Bridge({ rememberSession, children }: { rememberSession: boolean; children: React.ReactNode }) {
  const session = useAuth0();
  const { isAuthenticated, isLoading, user } = session;
  React.useEffect(() => {
    if (isLoading || !rememberSession) return;
    writeSessionHint(isAuthenticated ? { name: user?.name ?? user?.email ?? '' } : null);
  }, [isAuthenticated, isLoading, user, rememberSession]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export default function AuthSdk({ config, language, rememberSession, children }: { config: AuthConfig; language: Language; rememberSession: boolean; children: React.ReactNode }) {
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
      <Bridge rememberSession={rememberSession}>{children}</Bridge>
    </Auth0Provider>
  );
}
