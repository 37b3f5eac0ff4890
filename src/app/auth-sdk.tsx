import { Auth0Provider, useAuth0, type Auth0ContextInterface } from '@auth0/auth0-react';
import { navigate } from 'gatsby';
import * as React from 'react';
import { localizePath, type Language } from '#domain/languages';
import { loginLanding } from '#domain/return-to';
import { routes } from '../i18n/routes';
import { SessionProvider } from './session-provider';
import type { AuthConfig } from './auth-config';
import type { Session, SessionActions, SessionState } from './session';

/**
 * The login SDK, in a chunk of its own that the auth island loads after the page has hydrated
 * where the SDK could find a session, or when a logged-out visitor logs in (see auth-island.tsx).
 * It hands the SDK's answer to the island's components as the site's one session state
 * (session.tsx; SessionProvider remembers it for the header), and carries out the login or logout
 * handed over to it.
 */
type AppState = { returnTo?: string };

/**
 * The SDK's four flags as the site's one session state (session.tsx). An SDK error (a login's
 * answer it could not use) means nobody is logged in: no reader took a session with an error for
 * a logged-in one.
 */
export function sessionStateOf(
  sdk: Pick<Auth0ContextInterface, 'isLoading' | 'isAuthenticated' | 'user' | 'error'>,
): SessionState {
  if (sdk.error) return { status: 'anonymous', error: sdk.error };
  if (sdk.isLoading) return { status: 'unknown' };
  if (!sdk.isAuthenticated) return { status: 'anonymous' };
  const { sub, name, email } = sdk.user ?? {};
  return { status: 'signed-in', user: { sub, name, email } };
}

/** A login or logout the island's logged-out session was asked for before the SDK had loaded. */
export type Handover = {
  run: (sdk: SessionActions) => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
};

type BridgeProps = {
  rememberSession: boolean;
  handovers: Handover[];
  busy: React.ReactNode;
  children: React.ReactNode;
};

function Bridge({ rememberSession, handovers, busy, children }: BridgeProps) {
  const sdk = useAuth0();
  const { isLoading, isAuthenticated, user, error, loginWithRedirect, logout, getAccessTokenSilently } = sdk;
  const session = React.useMemo<Session>(
    () => ({
      ...sessionStateOf({ isLoading, isAuthenticated, user, error }),
      loginWithRedirect,
      logout,
      getAccessTokenSilently,
    }),
    [isLoading, isAuthenticated, user, error, loginWithRedirect, logout, getAccessTokenSilently],
  );
  // While a handed-over login or logout runs, the page is about to leave for the provider: the
  // components that asked are not shown again, or they would ask a second time.
  const [handingOver, setHandingOver] = React.useState(() => handovers.length > 0);
  React.useEffect(() => {
    if (isLoading || handovers.length === 0) return;
    for (const { run, resolve, reject } of handovers.splice(0)) {
      run(sdk).then(resolve, (failure: unknown) => {
        setHandingOver(false);
        reject(failure);
      });
    }
  }, [isLoading, handovers, sdk]);
  return (
    <SessionProvider session={session} remember={rememberSession}>
      {handingOver ? busy : children}
    </SessionProvider>
  );
}

type Props = {
  config: AuthConfig;
  language: Language;
  rememberSession: boolean;
  handovers: Handover[];
  busy: React.ReactNode;
  children: React.ReactNode;
};

export default function AuthSdk({ config, language, rememberSession, handovers, busy, children }: Props) {
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
        void navigate(loginLanding(appState?.returnTo, origin, localizePath(routes.wallet, language)), {
          replace: true,
        });
      }}
    >
      <Bridge rememberSession={rememberSession} handovers={handovers} busy={busy}>
        {children}
      </Bridge>
    </Auth0Provider>
  );
}
