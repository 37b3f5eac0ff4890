import '../../../__tests__/support/polyfills';
import { act, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { renderToString } from 'react-dom/server';
import { renderInLanguage } from '../../../__tests__/support/render';
import { AuthIsland } from '../auth-island';
import { sessionStateOf } from '../auth-sdk';
import { displayName, mayHaveSession, useSession, useSessionState } from '../session';
import { rememberSession } from '../session-provider';

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
  const session = useSession();
  if (session.status === 'unknown') return <p>loading</p>;
  return <p>{session.status === 'signed-in' ? `logged in as ${displayName(session.user)}` : 'logged out'}</p>;
}

/** What the header sees, outside any island: the session the islands remembered. */
function Remembered() {
  const session = useSessionState();
  return <p>remembered: {session.status === 'signed-in' ? displayName(session.user) : session.status}</p>;
}

const renderWho = () =>
  renderInLanguage(
    <>
      <Remembered />
      <AuthIsland>
        <Who />
      </AuthIsland>
    </>,
  );

/** A session remembered by an earlier page, as the SDK left it there. */
const rememberEarlier = (name: string) => rememberSession({ status: 'signed-in', user: { name } });

/** What a protected page does (features/auth RequireLogin): a logged-out visitor is sent to log in. */
function Protected({ children }: { children: React.ReactNode }) {
  const { status, loginWithRedirect } = useSession();
  React.useEffect(() => {
    if (status === 'anonymous')
      void loginWithRedirect({ appState: { returnTo: window.location.pathname + window.location.search } });
  }, [status, loginWithRedirect]);
  return status === 'signed-in' ? <>{children}</> : <p>redirecting</p>;
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
  window.localStorage.clear();
  window.history.replaceState(null, '', '/faucet/');
});

test('a visitor who never logged in on this browser is logged out at once, without the SDK, and the header forgets a stale name', async () => {
  rememberEarlier('Stale Name');
  renderWho();
  expect(await screen.findByText('logged out')).toBeInTheDocument();
  expect(mockSdk.providers).toBe(0);
  expect(await screen.findByText('remembered: anonymous')).toBeInTheDocument();
});

test("with the SDK's login cookie the SDK is loaded and its session shown", async () => {
  document.cookie = 'auth0.muntly.is.authenticated=true; path=/';
  mockSdk.session = { ...mockSdk.session, isAuthenticated: true, user: { name: 'Demo User' } };
  renderWho();
  expect(await screen.findByText('logged in as Demo User')).toBeInTheDocument();
  expect(mockSdk.providers).toBeGreaterThan(0);
  expect(await screen.findByText('remembered: Demo User')).toBeInTheDocument();
});

test('outside an island the session is unknown in the HTML, then the remembered one, and follows a logout', async () => {
  rememberEarlier('Demo User');
  expect(renderToString(<Remembered />)).toContain('unknown');
  renderInLanguage(<Remembered />);
  expect(await screen.findByText('remembered: Demo User')).toBeInTheDocument();
  act(() => rememberSession({ status: 'anonymous' }));
  expect(await screen.findByText('remembered: anonymous')).toBeInTheDocument();
});

test("the SDK's flags become one state: loading is unknown, an error is anonymous, a login names its user", () => {
  const sdk = { isLoading: false, isAuthenticated: false, user: undefined, error: undefined };
  expect(sessionStateOf({ ...sdk, isLoading: true })).toEqual({ status: 'unknown' });
  expect(sessionStateOf(sdk)).toEqual({ status: 'anonymous' });
  const error = new Error('Invalid state');
  expect(sessionStateOf({ ...sdk, error })).toEqual({ status: 'anonymous', error });
  expect(
    sessionStateOf({ ...sdk, isAuthenticated: true, user: { sub: 'u|1', email: 'ada@muntly.test', picture: 'x' } }),
  ).toEqual({
    status: 'signed-in',
    user: { sub: 'u|1', name: undefined, email: 'ada@muntly.test' },
  });
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
