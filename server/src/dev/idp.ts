import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { languages, localizePath } from '../../../domain/languages';
import { escapeHtml } from './html';
import { languageOf, loginForm, page, readForm, texts } from './idp-pages';
import { LoginThrottle } from './login-throttle';
import { hashPassword, idpUsersRepository, passwordMatches, type IdpUser } from './users';
import type { Db } from '../db/client';
import type { IdpKeys } from './keys';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The local identity provider: oidc-provider configured like an Auth0 tenant, so the site's
 * @auth0/auth0-react 2.27 and the API work unchanged against it (see
 * ../shared/notes/local-identity-provider.md for why each setting is here). It hosts its own
 * login and sign-up form, in the language the site asks for (ui_locales).
 * Production uses a real Auth0 tenant and never starts this.
 */
export type IdpOptions = {
  issuer: string; // http://localhost:4001/ — with the trailing slash, as Auth0's
  port: number;
  host: string;
  audience: string;
  clientId: string;
  siteOrigin: string;
  keys: IdpKeys;
  db: Db;
  log: FastifyBaseLogger;
};

export async function startIdp(options: IdpOptions): Promise<{ close(): Promise<void> }> {
  const { default: Provider, errors } = await import('oidc-provider');
  const { issuer, audience, clientId, siteOrigin, db, log } = options;
  const apiScopes = 'use:muntly admin:muntly';
  const throttle = new LoginThrottle();
  // Checked instead of a real hash when no account has the email, so that an unknown email
  // takes as long to refuse as a wrong password: the answer time does not tell who has an account.
  const nobodysHash = hashPassword(randomBytes(24).toString('base64url'));

  async function grantFor(provider: InstanceType<typeof Provider>, accountId: string, clientIdValue: string, existingId?: string) {
    const grant = (existingId && (await provider.Grant.find(existingId))) || new provider.Grant({ accountId, clientId: clientIdValue });
    grant.addOIDCScope('openid profile email offline_access');
    grant.addResourceScope(audience, await apiScopesOf(accountId));
    return grant;
  }

  async function apiScopesOf(accountId: string): Promise<string> {
    const user = await idpUsersRepository.findById(db, accountId);
    return user?.isAdmin ? apiScopes : 'use:muntly';
  }

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_name: 'Muntly',
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: languages.map((l) => `${siteOrigin}${localizePath('/login/', l)}`),
        post_logout_redirect_uris: languages.map((l) => `${siteOrigin}${localizePath('/', l)}`),
      },
    ],
    jwks: { keys: [options.keys.privateJwk] },
    cookies: { keys: options.keys.cookieKeys },
    routes: {
      authorization: '/authorize',
      token: '/oauth/token',
      jwks: '/.well-known/jwks.json',
      end_session: '/v2/logout',
      revocation: '/oauth/revoke',
      userinfo: '/userinfo',
    },
    // Auth0's `audience` and `screen_hint` are not standard parameters.
    extraParams: ['audience', 'screen_hint'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'nickname'] },
    // The Auth0 SDK reads the user's name and email from the ID token.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { AccessToken: 3600, IdToken: 3600, Session: 14 * 86400, Grant: 14 * 86400, RefreshToken: 14 * 86400, Interaction: 3600, AuthorizationCode: 60 },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      webMessageResponseMode: { enabled: true, ack: 'individual-draft-01' },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx) => (ctx.oidc.params?.audience as string | undefined) ?? audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== audience) throw new errors.InvalidTarget();
          return { scope: apiScopes, audience, accessTokenFormat: 'jwt', accessTokenTTL: 3600, jwt: { sign: { alg: 'RS256' } } };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          const language = languageOf(ctx.oidc.params?.ui_locales);
          // No question asked (Auth0 logs out at once): the form submits itself.
          ctx.body = page(
            language,
            texts(language).loggingOut!,
            `<p>${escapeHtml(texts(language).loggingOut!)}</p>${form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>')}<script>document.forms[0].submit()</script>`,
          );
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = page('en', texts('en').loggedOut!, `<p>${escapeHtml(texts('en').loggedOut!)}</p><p><a href="${siteOrigin}/">Muntly</a></p>`);
        },
      },
    },
    // Auth0 first-party applications have no consent screen.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const existingId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client.clientId);
      const grant = await grantFor(provider, accountId, ctx.oidc.client.clientId, existingId);
      await grant.save();
      return grant;
    },
    // oidc-provider drops offline_access unless prompt=consent; Auth0 issues refresh tokens to SPAs that ask.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const user = await idpUsersRepository.findById(db, token.accountId);
      return user ? { email: user.email, name: user.name } : undefined;
    },
    findAccount: async (_ctx, sub) => {
      const user = await idpUsersRepository.findById(db, sub);
      if (!user) return undefined;
      return {
        accountId: user.id,
        claims: async () => ({ sub: user.id, email: user.email, email_verified: true, name: user.name, nickname: user.email.split('@')[0] }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    clientBasedCORS: (_ctx, origin) => origin === siteOrigin,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('en', 'Error', `<h1>Sign-in error</h1><p>${escapeHtml(String(out.error_description ?? out.error))}</p><p><a href="${siteOrigin}/">Muntly</a></p>`);
    },
  });
  provider.proxy = false;
  provider.on('authorization.error', (_ctx, error) => log.warn({ err: error }, 'idp authorization error'));
  provider.on('grant.error', (_ctx, error) => log.warn({ err: error }, 'idp grant error'));
  provider.on('server_error', (_ctx, error) => log.error({ err: error }, 'idp server error'));

  const callback = provider.callback();

  async function finishLogin(req: http.IncomingMessage, res: http.ServerResponse, user: IdpUser) {
    await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
  }

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const [, , uid, action] = url.pathname.split('/');
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('en', 'Error', `<h1>This sign-in link has expired.</h1><p><a href="${siteOrigin}/">Muntly</a></p>`));
      return;
    }
    const language = languageOf(details.params.ui_locales);
    const t = texts(language);
    const show = (status: number, html: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    };

    if (details.prompt.name === 'consent') {
      // A scope the account lacks (admin:muntly for a user who is no operator) is never granted:
      // finishing the consent anyway would send the browser back here at once, for ever. Refuse
      // the request as Auth0 does, with an error redirect to the site.
      const missing = Object.values((details.prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>).flat();
      const granted = (await apiScopesOf(details.session!.accountId)).split(' ');
      if (missing.some((scope) => !granted.includes(scope))) {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The account does not have the requested permission.' }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = await grantFor(provider, details.session!.accountId, String(details.params.client_id), details.grantId);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    const signupRequested = details.params.screen_hint === 'signup' || url.searchParams.has('signup');

    if (req.method === 'GET') return show(200, loginForm(language, uid!, action === undefined && signupRequested));
    if (req.method !== 'POST') return show(405, loginForm(language, uid!, false));
    const form = await readForm(req);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const password = form.get('password') ?? '';

    if (action === 'login') {
      const client = req.socket.remoteAddress ?? 'unknown';
      const waitMs = throttle.waitMs(client, email);
      if (waitMs > 0) {
        const minutes = Math.ceil(waitMs / 60_000);
        res.setHeader('retry-after', String(Math.ceil(waitMs / 1000)));
        return show(429, loginForm(language, uid!, false, t.tooManyAttempts!.replace('{{minutes}}', String(minutes)), email));
      }
      const user = email ? await idpUsersRepository.findByEmail(db, email) : undefined;
      const matches = await passwordMatches(password, user?.passwordHash ?? (await nobodysHash));
      if (!user || !matches) {
        throttle.recordFailure(client, email);
        return show(401, loginForm(language, uid!, false, t.wrongCredentials, email));
      }
      throttle.recordSuccess(client, email);
      return finishLogin(req, res, user);
    }
    if (action === 'signup') {
      const name = (form.get('name') ?? '').trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return show(400, loginForm(language, uid!, true, t.invalidEmail, email));
      if (password.length < 8) return show(400, loginForm(language, uid!, true, t.passwordTooShort, email));
      if (!name) return show(400, loginForm(language, uid!, true, t.nameRequired, email));
      const user = await idpUsersRepository.create(db, { email, name, password });
      if (!user) return show(409, loginForm(language, uid!, true, t.emailTaken, email));
      return finishLogin(req, res, user);
    }
    return show(404, loginForm(language, uid!, false));
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const origin = req.headers.origin;
    // The Auth0 SDK sends an Auth0-Client header to the token endpoint: allow it for the site.
    if (req.method === 'OPTIONS' && origin === siteOrigin) {
      res.writeHead(204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type, auth0-client, authorization',
        'access-control-max-age': '600',
        vary: 'origin',
      });
      res.end();
      return;
    }
    // Auth0's logout takes `returnTo`; OpenID's end-session endpoint `post_logout_redirect_uri`.
    if (url.pathname === '/v2/logout' && url.searchParams.has('returnTo')) {
      url.searchParams.set('post_logout_redirect_uri', url.searchParams.get('returnTo')!);
      url.searchParams.delete('returnTo');
      req.url = `${url.pathname}?${url.searchParams}`;
    }
    if (url.pathname.startsWith('/interaction/')) {
      interaction(req, res, url).catch((error: unknown) => {
        log.error({ err: error }, 'idp interaction failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Sign-in failed; please try again.');
      });
      return;
    }
    void callback(req, res);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
