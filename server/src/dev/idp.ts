import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { codeFromBytes, normalizeCode } from '#domain/codes';
import { languages, localizePath, type Language } from '#domain/languages';
import { escapeHtml } from './html';
import {
  languageOf,
  loginForm,
  mfaEmailForm,
  mfaLoginForm,
  mfaMessage,
  mfaScanForm,
  otpForm,
  page,
  readForm,
  texts,
} from './idp-pages';
import { LoginThrottle, OTP_FAILURE_WINDOW_MS, otpWaitMs, passwordWaitMs } from './login-throttle';
import { newTotpSecret, totpEnrolment, totpStep } from './totp';
import { hashPassword, idpUsersRepository, passwordMatches, type IdpUser } from './users';
import type { Db, Tx } from '../db/client';
import type { IdpKeys } from './keys';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The local identity provider: oidc-provider configured like an Auth0 tenant, so the site's
 * @auth0/auth0-react 2.27 and the API work unchanged against it (see
 * docs/decisions/0011-local-identity-provider.md for why each setting is here). It hosts its own
 * login and sign-up form, in the language the site asks for (ui_locales).
 *
 * Two-step login (issue 19), as Auth0's multi-factor authentication does it in production: a user
 * sets it up at /mfa (password, then a code emailed to the account — issue 34 —, then a QR code
 * for an authenticator app, then its first code);
 * from then on a login asks for a one-time password after the password (RFC 6238). Access tokens
 * carry auth_time (when the user logged in) and amr (["pwd"] or ["pwd", "otp"]), which the API
 * checks before a send is confirmed.
 * Production uses a real Auth0 tenant and never starts this.
 */
/** A password accepted, the one-time password still to come: this long, this many wrong codes. */
const OTP_PENDING_MS = 5 * 60_000;
const OTP_MAX_TRIES = 5;
/** A two-step enrolment between its QR code and its first code. */
const ENROLMENT_MS = 10 * 60_000;
/** The code emailed before two-step login changes: valid this long, this many wrong tries. */
const EMAIL_CODE_MS = 10 * 60_000;
const EMAIL_CODE_MAX_TRIES = 5;
/**
 * The device cookie: a random key the provider gives each browser on its first login, kept 400
 * days (the longest a browser keeps a cookie), httpOnly, SameSite=Lax, on the provider's origin
 * only. A browser without it is a new device to account protection.
 */
export const DEVICE_COOKIE = 'muntly_device';
const DEVICE_COOKIE_MAX_AGE_S = 400 * 86_400;
const DEVICE_KEY = /^[A-Za-z0-9_-]{43}$/;

/**
 * A successful login, as the provider reports it (after the password, and after the one-time
 * password when two-step login is on; a sign-up is a login too): whose (the access token's
 * subject), when, from which browser (its device key and User-Agent), in which page language.
 */
export type IdpSignIn = {
  subject: string;
  deviceKey: string;
  userAgent: string | undefined;
  language: Language;
  at: Date;
};

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
  /** Hears of every successful login (the composition root hands it to account protection). */
  onSignIn?: (signIn: IdpSignIn) => Promise<void>;
  /**
   * Two-step login changes only with a code emailed to the account (issue 34): the password alone
   * would let whoever stole it put his own authenticator app in front of the owner. These two are
   * account protection's (the composition root wires them): the email with the code, and — in the
   * transaction that changes the second factor — the security event, the security email with its
   * freeze link and the cool-down on sends.
   */
  secondFactor: {
    mailCode: (input: SecondFactorChange & { code: string }) => Promise<void>;
    changed: (tx: Tx, input: SecondFactorChange) => Promise<void>;
  };
  /**
   * A sign-up's email (issue 34): a welcome to a new account, or to an address that has one already
   * "someone tried to sign up with your address". The form answers both the same, so that it
   * never tells whether an address has an account; the mailbox's owner alone learns which.
   */
  mailSignUp: (input: { email: string; language: Language; existing: boolean }) => Promise<void>;
};

/** Who changes their second factor, from which browser, in which page language. */
export type SecondFactorChange = {
  subject: string;
  email: string;
  userAgent: string | undefined;
  language: Language;
  change: 'second_factor_added' | 'second_factor_removed';
};

export async function startIdp(options: IdpOptions): Promise<{ close(): Promise<void> }> {
  const { default: Provider, errors } = await import('oidc-provider');
  const { issuer, audience, clientId, siteOrigin, db, log } = options;
  const apiScopes = 'use:muntly admin:muntly';
  const throttle = new LoginThrottle();
  // Checked instead of a real hash when no account has the email, so that an unknown email
  // takes as long to refuse as a wrong password: the answer time does not tell who has an account.
  const nobodysHash = hashPassword(randomBytes(24).toString('base64url'));
  // Logins waiting for their one-time password, by interaction; enrolments waiting for their
  // first code, by a random id. In memory: the local provider is one process, and a restart only
  // means logging in (or scanning) again.
  const pendingOtp = new Map<string, { userId: string; until: number; tries: number }>();
  const enrolments = new Map<string, { userId: string; until: number }>();
  // Emailed codes waiting to be entered before two-step login is set up, by a random id; only the
  // code's hash is kept.
  const emailChallenges = new Map<string, { userId: string; until: number; codeHash: Buffer; tries: number }>();
  const codeHash = (challenge: string, code: string) =>
    createHash('sha256').update(`mfa-email:${challenge}:${code}`).digest();
  const sweep = (map: Map<string, { until: number }>) => {
    for (const [key, value] of map) if (value.until < Date.now()) map.delete(key);
  };

  async function grantFor(
    provider: InstanceType<typeof Provider>,
    accountId: string,
    clientIdValue: string,
    existingId?: string,
  ) {
    const grant =
      (existingId && (await provider.Grant.find(existingId))) ||
      new provider.Grant({ accountId, clientId: clientIdValue });
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
    ttl: {
      AccessToken: 3600,
      IdToken: 3600,
      Session: 14 * 86400,
      Grant: 14 * 86400,
      RefreshToken: 14 * 86400,
      Interaction: 3600,
      AuthorizationCode: 60,
    },
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
          return {
            scope: apiScopes,
            audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 3600,
            jwt: { sign: { alg: 'RS256' } },
          };
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
          ctx.body = page(
            'en',
            texts('en').loggedOut!,
            `<p>${escapeHtml(texts('en').loggedOut!)}</p><p><a href="${siteOrigin}/">Muntly</a></p>`,
          );
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
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const user = await idpUsersRepository.findById(db, token.accountId);
      if (!user) return undefined;
      // When and how the user logged in, from the code or refresh token this access token comes
      // from (a refresh keeps the login's time: it is no new login).
      const grant = (ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken) as
        { authTime?: number; amr?: string[] } | undefined;
      return {
        email: user.email,
        name: user.name,
        ...(grant?.authTime ? { auth_time: grant.authTime } : {}),
        ...(grant?.amr ? { amr: grant.amr } : {}),
      };
    },
    findAccount: async (_ctx, sub) => {
      const user = await idpUsersRepository.findById(db, sub);
      if (!user) return undefined;
      return {
        accountId: user.id,
        claims: async () => ({
          sub: user.id,
          email: user.email,
          email_verified: true,
          name: user.name,
          nickname: user.email.split('@')[0],
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    clientBasedCORS: (_ctx, origin) => origin === siteOrigin,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'en',
        'Error',
        `<h1>Sign-in error</h1><p>${escapeHtml(String(out.error_description ?? out.error))}</p><p><a href="${siteOrigin}/">Muntly</a></p>`,
      );
    },
  });
  provider.proxy = false;
  provider.on('authorization.error', (_ctx, error) => log.warn({ err: error }, 'idp authorization error'));
  provider.on('grant.error', (_ctx, error) => log.warn({ err: error }, 'idp grant error'));
  provider.on('server_error', (_ctx, error) => log.error({ err: error }, 'idp server error'));

  const callback = provider.callback();

  /** The browser's device key, from its cookie, or a new one set in the answer. */
  function deviceKeyOf(req: http.IncomingMessage, res: http.ServerResponse): string {
    const given = (req.headers.cookie ?? '')
      .split(';')
      .map((pair) => pair.trim().split('='))
      .find(([name]) => name === DEVICE_COOKIE)?.[1];
    if (given && DEVICE_KEY.test(given)) return given;
    const key = randomBytes(32).toString('base64url');
    const secure = new URL(issuer).protocol === 'https:' ? '; Secure' : '';
    res.setHeader(
      'set-cookie',
      `${DEVICE_COOKIE}=${key}; Path=/; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`,
    );
    return key;
  }

  async function finishLogin(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    user: IdpUser,
    amr: string[],
    language: Language,
  ) {
    const deviceKey = deviceKeyOf(req, res);
    if (options.onSignIn) {
      // A login is never refused because its report failed; the log names no one.
      try {
        await options.onSignIn({
          subject: user.id,
          deviceKey,
          userAgent: req.headers['user-agent'],
          language,
          at: new Date(),
        });
      } catch (error) {
        log.warn({ error: (error as Error).name }, 'idp: recording a sign-in failed');
      }
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: user.id, amr } },
      { mergeWithLastSubmission: false },
    );
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
      const missing = Object.values(
        (details.prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>,
      ).flat();
      const granted = (await apiScopesOf(details.session!.accountId)).split(' ');
      if (missing.some((scope) => !granted.includes(scope))) {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The account does not have the requested permission.' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = await grantFor(
        provider,
        details.session!.accountId,
        String(details.params.client_id),
        details.grantId,
      );
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
        return show(
          429,
          loginForm(language, uid!, false, t.tooManyAttempts!.replace('{{minutes}}', String(minutes)), email),
        );
      }
      const user = email ? await idpUsersRepository.findByEmail(db, email) : undefined;
      // Too many wrong one-time passwords for this account: its password step waits too, before
      // the password is checked (a guesser learns nothing of the password from the answer), with
      // the same answer as a client's own throttle.
      const accountWaitMs = user ? passwordWaitMs({ failures: user.otpFailures, since: user.otpFailedSince }) : 0;
      if (accountWaitMs > 0) {
        res.setHeader('retry-after', String(Math.ceil(accountWaitMs / 1000)));
        return show(
          429,
          loginForm(
            language,
            uid!,
            false,
            t.tooManyAttempts!.replace('{{minutes}}', String(Math.ceil(accountWaitMs / 60_000))),
            email,
          ),
        );
      }
      const matches = await passwordMatches(password, user?.passwordHash ?? (await nobodysHash));
      if (!user || !matches) {
        throttle.recordFailure(client, email);
        return show(401, loginForm(language, uid!, false, t.wrongCredentials, email));
      }
      throttle.recordSuccess(client, email);
      if (user.totpConfirmedAt && user.totpSecret) {
        sweep(pendingOtp);
        pendingOtp.set(uid!, { userId: user.id, until: Date.now() + OTP_PENDING_MS, tries: 0 });
        return show(200, otpForm(language, uid!));
      }
      return finishLogin(req, res, user, ['pwd'], language);
    }
    if (action === 'otp') {
      const pending = pendingOtp.get(uid!);
      const user =
        pending && pending.until > Date.now() ? await idpUsersRepository.findById(db, pending.userId) : undefined;
      if (!pending || !user?.totpSecret) {
        pendingOtp.delete(uid!);
        return show(401, loginForm(language, uid!, false, t.otpAgain));
      }
      // Counted against the account before the code is checked, so that many logins (or
      // replicas) at once cannot each try their handful: past the limit even the right code waits.
      const claim = await idpUsersRepository.claimOtpAttempt(db, user.id, new Date(), OTP_FAILURE_WINDOW_MS);
      const otpWait = otpWaitMs(claim);
      if (otpWait > 0) {
        res.setHeader('retry-after', String(Math.ceil(otpWait / 1000)));
        return show(
          429,
          otpForm(language, uid!, t.tooManyAttempts!.replace('{{minutes}}', String(Math.ceil(otpWait / 60_000)))),
        );
      }
      const step = totpStep(user.email, user.totpSecret, form.get('otp') ?? '');
      // A code works once: its step must be later than the last one accepted.
      if (step !== null && (await idpUsersRepository.acceptTotpStep(db, user.id, step))) {
        await idpUsersRepository.clearOtpFailures(db, user.id);
        pendingOtp.delete(uid!);
        return finishLogin(req, res, user, ['pwd', 'otp'], language);
      }
      const client = req.socket.remoteAddress ?? 'unknown';
      throttle.recordFailure(client, user.email);
      pending.tries += 1;
      if (pending.tries >= OTP_MAX_TRIES) {
        pendingOtp.delete(uid!);
        return show(401, loginForm(language, uid!, false, t.otpAgain, user.email));
      }
      return show(401, otpForm(language, uid!, t.otpWrong));
    }
    if (action === 'signup') {
      const name = (form.get('name') ?? '').trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        return show(400, loginForm(language, uid!, true, t.invalidEmail, email));
      if (password.length < 8) return show(400, loginForm(language, uid!, true, t.passwordTooShort, email));
      if (!name) return show(400, loginForm(language, uid!, true, t.nameRequired, email));
      // Each sign-up sends an email: counted against the client like a failed login, so that
      // nobody mails the world through this form.
      const client = req.socket.remoteAddress ?? 'unknown';
      const waitMs = throttle.waitMs(client, email);
      if (waitMs > 0) {
        res.setHeader('retry-after', String(Math.ceil(waitMs / 1000)));
        return show(
          429,
          loginForm(
            language,
            uid!,
            true,
            t.tooManyAttempts!.replace('{{minutes}}', String(Math.ceil(waitMs / 60_000))),
            email,
          ),
        );
      }
      throttle.recordFailure(client, email);
      // A new address and a taken one get the same answer, in about the same time (create hashes
      // the password before it tries the insert, which a taken address refuses), and an email
      // each: the answer never tells whether the address has an account. Nobody is logged in by a
      // sign-up: the page asks for the password once more, which the owner of a new account knows.
      const user = await idpUsersRepository.create(db, { email, name, password });
      await options.mailSignUp({ email, language, existing: !user });
      return show(200, loginForm(language, uid!, false, undefined, email, t.signupSent!.replace('{{email}}', email)));
    }
    return show(404, loginForm(language, uid!, false));
  }

  /** /mfa: setting up two-step login (password, QR code, first code). */
  async function mfa(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const language = languageOf(url.searchParams.get('ui_locales'));
    const t = texts(language);
    const backTo = `${siteOrigin}${localizePath('/wallet/security/', language)}`;
    const show = (status: number, html: string) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'x-frame-options': 'DENY',
      });
      res.end(html);
    };
    if (req.method === 'GET' && url.pathname === '/mfa') return show(200, mfaLoginForm(language));
    if (req.method !== 'POST') return show(405, mfaLoginForm(language));
    const form = await readForm(req);
    const client = req.socket.remoteAddress ?? 'unknown';
    if (url.pathname === '/mfa') {
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const waitMs = throttle.waitMs(client, email);
      if (waitMs > 0)
        return show(
          429,
          mfaLoginForm(language, t.tooManyAttempts!.replace('{{minutes}}', String(Math.ceil(waitMs / 60_000))), email),
        );
      const user = email ? await idpUsersRepository.findByEmail(db, email) : undefined;
      if (!(await passwordMatches(form.get('password') ?? '', user?.passwordHash ?? (await nobodysHash))) || !user) {
        throttle.recordFailure(client, email);
        return show(401, mfaLoginForm(language, t.wrongCredentials, email));
      }
      throttle.recordSuccess(client, email);
      if (user.totpConfirmedAt) return show(409, mfaMessage(language, t.mfaAlready!, backTo));
      // The password is not enough: a code goes to the account's address first.
      let code: string | null = null;
      while (!code) code = codeFromBytes(randomBytes(32));
      sweep(emailChallenges);
      const challenge = randomBytes(24).toString('base64url');
      emailChallenges.set(challenge, {
        userId: user.id,
        until: Date.now() + EMAIL_CODE_MS,
        codeHash: codeHash(challenge, code),
        tries: 0,
      });
      await options.secondFactor.mailCode({
        subject: user.id,
        email: user.email,
        userAgent: req.headers['user-agent'],
        language,
        change: 'second_factor_added',
        code,
      });
      return show(200, mfaEmailForm(language, challenge));
    }
    if (url.pathname === '/mfa/email') {
      const challenge = form.get('challenge') ?? '';
      const pending = emailChallenges.get(challenge);
      const user =
        pending && pending.until > Date.now() ? await idpUsersRepository.findById(db, pending.userId) : undefined;
      if (!pending || !user || user.totpConfirmedAt) {
        emailChallenges.delete(challenge);
        return show(400, mfaLoginForm(language, t.otpAgain));
      }
      const given = normalizeCode(form.get('code') ?? '');
      if (!given || !timingSafeEqual(codeHash(challenge, given), pending.codeHash)) {
        throttle.recordFailure(client, user.email);
        pending.tries += 1;
        if (pending.tries >= EMAIL_CODE_MAX_TRIES) {
          emailChallenges.delete(challenge);
          return show(400, mfaLoginForm(language, t.otpAgain, user.email));
        }
        return show(400, mfaEmailForm(language, challenge, t.mfaEmailWrong));
      }
      emailChallenges.delete(challenge);
      const secret = newTotpSecret();
      await idpUsersRepository.startTotp(db, user.id, secret);
      sweep(enrolments);
      const enrolment = randomBytes(24).toString('base64url');
      enrolments.set(enrolment, { userId: user.id, until: Date.now() + ENROLMENT_MS });
      const { uri, qr } = await totpEnrolment(user.email, secret);
      return show(200, mfaScanForm(language, enrolment, uri, qr, secret));
    }
    if (url.pathname === '/mfa/confirm') {
      const enrolment = form.get('enrolment') ?? '';
      const pending = enrolments.get(enrolment);
      const user =
        pending && pending.until > Date.now() ? await idpUsersRepository.findById(db, pending.userId) : undefined;
      if (!user?.totpSecret || user.totpConfirmedAt) return show(400, mfaLoginForm(language, t.otpAgain));
      const step = totpStep(user.email, user.totpSecret, form.get('otp') ?? '');
      if (step === null) {
        throttle.recordFailure(client, user.email);
        const { uri, qr } = await totpEnrolment(user.email, user.totpSecret);
        return show(400, mfaScanForm(language, enrolment, uri, qr, user.totpSecret, t.otpWrong));
      }
      // The change and what account protection makes of it (event, email, cool-down) in one transaction.
      await db.transaction(async (tx) => {
        await idpUsersRepository.confirmTotp(tx, user.id, step);
        await options.secondFactor.changed(tx, {
          subject: user.id,
          email: user.email,
          userAgent: req.headers['user-agent'],
          language,
          change: 'second_factor_added',
        });
      });
      enrolments.delete(enrolment);
      return show(200, mfaMessage(language, t.mfaDone!, backTo));
    }
    return show(404, mfaLoginForm(language));
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/mfa' || url.pathname === '/mfa/email' || url.pathname === '/mfa/confirm') {
      mfa(req, res, url).catch((error: unknown) => {
        log.error({ err: error }, 'idp two-step setup failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Setting up two-step login failed; please try again.');
      });
      return;
    }
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
