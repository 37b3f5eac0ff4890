import { act, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage } from '../../../__tests__/support/render';
import { AuthIsland } from '../auth-island';
import { useSession } from '../session';
import { mayHaveSession, readSessionHint, writeSessionHint } from '../session-hint';

/**
 * The login SDK stands in for Auth0's (the real one would talk to a provider): a session the test
 * sets, whose login and logout are recorded. The island's own code (auth-island.tsx and the SDK
 * bridge in auth-mockSdk.tsx) runs unchanged.
 */
const mockSdk = {
  providers: 0,
  session: {
    isLoading: false,
    isAuthenticated: false,
    user: undefined as { name: string } | undefined,
    error: undefined,
  },
  loginWithRedirect: jest.fn(async (_options?: unknown) => undefined),
  logout: jest.fn(async (_options?: unknown) => undefined),
};
jest.mock('@auth0/auth0-react', () => ({
  Auth0Provider: ({ children }: { children: React.ReactNode }) => {
    mockSdk.providers++;
    return children;
  },
  useAuth0: () => ({
    ...mockSdk.session,
    loginWithRedirect: mockSdk.loginWithRedirect,
    logout: mockSdk.logout,
    getAccessTokenSilently: async () => 'token',
  }),
}));
jest.mock('../auth-config', () => ({
  getAuthConfig: async () => ({
    domain: 'http://idp.test',
    clientId: 'muntly',
    audience: 'muntly-api',
    scope: 'openid profile email',
  }),
}));

/** What a component inside the island sees of the session. */
function Who() {
  const { isLoading, isAuthenticated, user } = useSession();
  return <p>{isLoading ? 'loading' : isAuthenticated ? `logged in as ${user?.name}` : 'logged out'}</p>;
}

const renderWho = () =>
  renderInLanguage(
    <AuthIsland>
      <Who />
    </AuthIsland>,
  );

/** What a protected page does (features/auth RequireLogin): a logged-out visitor is sent to log in. */
function Protected({ children }: { children: React.ReactNode }) {
  const { isLoading, isAuthenticated, loginWithRedirect } = useSession();
  React.useEffect(() => {
    if (!isLoading && !isAuthenticated)
      void loginWithRedirect({ appState: { returnTo: window.location.pathname + window.location.search } });
  }, [isLoading, isAuthenticated, loginWithRedirect]);
  return isAuthenticated ? <>{children}</> : <p>redirecting</p>;
}

function clearCookies() {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

beforeEach(() => {
  mockSdk.providers = 0;
  mockSdk.session = { isLoading: false, isAuthenticated: false, user: undefined, error: undefined };
  mockSdk.loginWithRedirect.mockReset().mockResolvedValue(undefined);
  mockSdk.logout.mockReset().mockResolvedValue(undefined);
  clearCookies();
  window.history.replaceState(null, '', '/faucet/');
});

test('a visitor who never logged in on this browser is logged out at once, without the SDK, and the header forgets a stale name', async () => {
  writeSessionHint({ name: 'Stale Name' });
  renderWho();
  expect(await screen.findByText('logged out')).toBeInTheDocument();
  expect(mockSdk.providers).toBe(0);
  expect(readSessionHint()).toBeNull();
});

test("with the SDK's login cookie the SDK is loaded and its session shown", async () => {
  document.cookie = 'auth0.muntly.is.authenticated=true; path=/';
  mockSdk.session = { ...mockSdk.session, isAuthenticated: true, user: { name: 'Demo User' } };
  renderWho();
  expect(await screen.findByText('logged in as Demo User')).toBeInTheDocument();
  expect(mockSdk.providers).toBeGreaterThan(0);
  expect(readSessionHint()).toEqual({ name: 'Demo User' });
});

test("the provider's answer in the address (a login's return) loads the SDK, which finishes the login", async () => {
  window.history.replaceState(null, '', '/login/?code=abc&state=xyz');
  renderWho();
  expect(await screen.findByText('logged out')).toBeInTheDocument();
  expect(mockSdk.providers).toBeGreaterThan(0);
});

test('a logged-out visitor of a protected page is sent to log in once, through the SDK, and comes back to the same page', async () => {
  window.history.replaceState(null, '', '/de/wallet/balances/?x=1');
  renderInLanguage(
    <AuthIsland>
      <Protected>
        <p>balances</p>
      </Protected>
    </AuthIsland>,
    'de',
  );
  await waitFor(() => expect(mockSdk.loginWithRedirect).toHaveBeenCalledTimes(1));
  expect(mockSdk.loginWithRedirect).toHaveBeenCalledWith({ appState: { returnTo: '/de/wallet/balances/?x=1' } });
  // The page is leaving for the provider: what asked is not shown again, so it cannot ask twice.
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(mockSdk.loginWithRedirect).toHaveBeenCalledTimes(1);
  expect(screen.queryByText('balances')).toBeNull();
});

test('a handed-over login that fails reaches its caller and the island shows its content again', async () => {
  mockSdk.loginWithRedirect.mockRejectedValueOnce(new Error('provider unreachable'));
  let outcome = '';
  function LoginButton() {
    const { loginWithRedirect } = useSession();
    return (
      <button
        type="button"
        onClick={() =>
          loginWithRedirect().then(
            () => (outcome = 'ok'),
            (error: Error) => (outcome = error.message),
          )
        }
      >
        log in
      </button>
    );
  }
  renderInLanguage(
    <AuthIsland>
      <LoginButton />
    </AuthIsland>,
  );
  const button = await screen.findByRole('button', { name: 'log in' });
  act(() => button.click());
  await waitFor(() => expect(outcome).toBe('provider unreachable'));
  expect(await screen.findByRole('button', { name: 'log in' })).toBeInTheDocument();
  expect(mockSdk.loginWithRedirect).toHaveBeenCalledTimes(1);
});

test('a logout asked of the logged-out session still ends the session at the provider, through the SDK', async () => {
  function Logout() {
    const { logout } = useSession();
    React.useEffect(() => void logout({ logoutParams: { returnTo: 'http://localhost/' } }), [logout]);
    return null;
  }
  renderInLanguage(
    <AuthIsland rememberSession={false}>
      <Logout />
    </AuthIsland>,
  );
  await waitFor(() => expect(mockSdk.logout).toHaveBeenCalledWith({ logoutParams: { returnTo: 'http://localhost/' } }));
  expect(mockSdk.logout).toHaveBeenCalledTimes(1);
});

describe('mayHaveSession', () => {
  test.each([
    ['auth0.muntly.is.authenticated=true', true],
    ['theme=dark; _legacy_auth0.muntly.is.authenticated=true', true],
    ['auth0.is.authenticated=true', true],
    ['a=1;auth0.client.with.dots.is.authenticated=true', true],
    ['', false],
    ['xauth0.muntly.is.authenticated=true', false],
    ['auth0.muntly.is.authenticated.old=true', false],
    ['muntly-analytics-consent=granted', false],
  ])('cookies %j → %s', (cookies, expected) => {
    expect(mayHaveSession(cookies, '')).toBe(expected);
  });

  test.each([
    ['?code=abc&state=xyz', true],
    ['?state=xyz&code=abc', true],
    ['?error=access_denied&state=xyz', true],
    ['?code=abc', false],
    ['?state=xyz', false],
    ['?code=&state=xyz', false],
    ['?returnTo=%2Fwallet%2F', false],
    ['', false],
  ])('address %j → %s', (search, expected) => {
    expect(mayHaveSession('', search)).toBe(expected);
  });
});
