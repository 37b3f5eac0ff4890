/**
 * @jest-environment node
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import QRCode from 'qrcode';
import {
  LOGIN_FAILURES_PER_CLIENT,
  LOGIN_FAILURES_PER_CLIENT_AND_EMAIL,
  OTP_FAILURES_BEFORE_WAIT,
} from '../src/dev/login-throttle';

/**
 * The local identity provider as a browser uses it: the authorization request, its login form
 * and the redirects back to the site. Requests leave from different loopback addresses
 * (127.0.0.0/8 is all loopback on Linux) to stand for different clients.
 */
const root = path.resolve(__dirname, '../..');
const siteOrigin = 'http://localhost:8123';
const audience = 'https://api.muntly.local';
const clientId = 'muntly-idp-test';
const password = 'right-password-1';
const owner = { email: 'owner@muntly.test', name: 'Owner', password };
const admin = { email: 'admin@muntly.test', name: 'Admin', password, admin: true };
const careful = { email: 'careful@muntly.test', name: 'Careful', password };
const guarded = { email: 'guarded@muntly.test', name: 'Guarded', password };
const texts = (language: string) =>
  (
    JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'auth.json'), 'utf8')) as {
      idp: Record<string, string>;
    }
  ).idp;

let idp: ChildProcess;
let port: number;
let log = '';
/** The logins the provider reported (its onSignIn), in order. */
type Report = { subject: string; deviceKey: string; userAgent?: string; language: string; at: string };
const reports: Report[] = [];
/** What the provider handed account protection about two-step login: the emailed codes, the changes. */
type SecondFactorReport = { subject: string; email: string; language: string; change: string; code?: string };
const codeMails: SecondFactorReport[] = [];
const secondFactorChanges: SecondFactorReport[] = [];
const signUpMails: { email: string; language: string; existing: boolean }[] = [];
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
    probe.on('error', reject);
  });
}

beforeAll(async () => {
  port = await freePort();
  idp = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/test/fixtures/idp-server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      IDP_TEST_PORT: String(port),
      IDP_TEST_SITE_ORIGIN: siteOrigin,
      IDP_TEST_AUDIENCE: audience,
      IDP_TEST_CLIENT_ID: clientId,
      IDP_TEST_USERS: JSON.stringify([owner, admin, careful, guarded]),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  idp.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    idp.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('ready')) resolve();
        if (line.startsWith('signed-in ')) reports.push(JSON.parse(line.slice('signed-in '.length)) as Report);
        if (line.startsWith('sign-up-mail '))
          signUpMails.push(
            JSON.parse(line.slice('sign-up-mail '.length)) as { email: string; language: string; existing: boolean },
          );
        if (line.startsWith('second-factor-code '))
          codeMails.push(JSON.parse(line.slice('second-factor-code '.length)) as SecondFactorReport);
        if (line.startsWith('second-factor-changed '))
          secondFactorChanges.push(JSON.parse(line.slice('second-factor-changed '.length)) as SecondFactorReport);
      }
    });
    idp.once('exit', (code) => reject(new Error(`the provider exited (${code}):\n${log}`)));
  });
}, 120_000);

afterAll(async () => {
  if (!idp || idp.exitCode !== null) return;
  const exited = new Promise((resolve) => idp.once('exit', resolve));
  idp.kill('SIGTERM');
  await exited;
});

type Answer = { status: number; location?: string; retryAfter?: string; body: string; setCookies: string[] };

/** One browser: its cookies, and the loopback address its requests leave from. */
class Browser {
  private cookies = new Map<string, string>();
  /** The PKCE verifier of the last authorization request (the SDK keeps it to redeem the code). */
  private verifier = '';
  constructor(
    private readonly from = '127.0.0.1',
    private readonly userAgent?: string,
  ) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  request(method: 'GET' | 'POST', target: string, form?: Record<string, string>): Promise<Answer> {
    const url = new URL(target, `http://127.0.0.1:${port}/`);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (this.userAgent) headers['user-agent'] = this.userAgent;
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: url.pathname + url.search,
          method,
          headers,
          localAddress: this.from,
          agent: false,
        },
        (res) => {
          for (const cookie of res.headers['set-cookie'] ?? []) {
            const [pair] = cookie.split(';');
            const [name, value = ''] = pair!.split('=');
            if (value && !/expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.set(name!, value);
            else this.cookies.delete(name!);
          }
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              location: res.headers.location,
              retryAfter: res.headers['retry-after'] as string | undefined,
              body: text,
              setCookies: res.headers['set-cookie'] ?? [],
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** The site's authorization request; answers the login form's address. */
  async authorize(scope = 'openid profile email offline_access use:muntly', language = 'en'): Promise<string> {
    const verifier = randomBytes(32).toString('base64url');
    this.verifier = verifier;
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: `${siteOrigin}/login/`,
      response_type: 'code',
      scope,
      audience,
      state: 'state-1',
      nonce: 'nonce-1',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ui_locales: language,
    });
    const answer = await this.request('GET', `/authorize?${query}`);
    expect(answer.status).toBe(303);
    return answer.location!;
  }

  /** What the SDK does with the code: redeems it at the token endpoint; answers the access token's claims. */
  async accessTokenClaims(code: string): Promise<Record<string, unknown>> {
    const answer = await this.request('POST', '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: `${siteOrigin}/login/`,
      code_verifier: this.verifier,
    });
    expect(answer.status).toBe(200);
    const token = (JSON.parse(answer.body) as { access_token: string }).access_token;
    return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  }

  /** What logging out leaves: the session is gone, the device cookie stays. */
  forgetSession() {
    for (const name of [...this.cookies.keys()]) if (name !== 'muntly_device') this.cookies.delete(name);
  }

  login(interaction: string, email: string, secret: string): Promise<Answer> {
    return this.request('POST', `${interaction}/login`, { email, password: secret });
  }

  /** Follows the provider's redirects, at most `cap` of them, until one leads to the site. */
  async follow(answer: Answer, cap = 20): Promise<{ url: URL; hops: number }> {
    let hops = 0;
    let current = answer;
    for (;;) {
      if (current.status < 300 || current.status >= 400)
        throw new Error(`answered ${current.status}: ${current.body.slice(0, 300)}`);
      const next = new URL(current.location!, `http://127.0.0.1:${port}/`);
      if (next.origin === siteOrigin) return { url: next, hops };
      hops += 1;
      if (hops > cap) return { url: next, hops };
      current = await this.request('GET', next.pathname + next.search);
    }
  }
}

/**
 * A one-time password computed here, independently of the provider's library: RFC 6238 over
 * RFC 4226 (HMAC-SHA1 of the big-endian step, dynamic truncation, 6 digits) with the base32 key.
 */
function rfc6238(base32: string, step: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[19]! & 0xf;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 1_000_000).padStart(6, '0');
}

const decodeHtml = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** The reports written since `since` (the provider writes a report before it answers; the pipe may bring it a moment later). */
async function reportsSince(since: number, count: number): Promise<Report[]> {
  for (let waited = 0; reports.length < since + count && waited < 5000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return reports.slice(since);
}

/** Waits for something the provider reports on its own line of output. */
async function until<T>(find: () => T | undefined): Promise<T> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the provider reported nothing');
}

/** Sets up two-step login for a user as a browser does (password, emailed code, QR code, first code); answers the secret. */
async function enrol(user: { email: string }, from: string): Promise<string> {
  const browser = new Browser(from);
  const before = codeMails.length;
  const asked = await browser.request('POST', '/mfa', { email: user.email, password });
  expect(asked.status).toBe(200);
  const mailed = await until(() => codeMails.slice(before).find((m) => m.email === user.email));
  const challenge = /name="challenge" value="([^"]+)"/.exec(asked.body)![1]!;
  const scan = await browser.request('POST', '/mfa/email', { challenge, code: mailed.code! });
  const secret = new URL(decodeHtml(/<a href="(otpauth:\/\/totp\/[^"]+)"/.exec(scan.body)![1]!)).searchParams.get(
    'secret',
  )!;
  const enrolment = /name="enrolment" value="([^"]+)"/.exec(scan.body)![1]!;
  expect(
    (
      await browser.request('POST', '/mfa/confirm', {
        enrolment,
        otp: rfc6238(secret, Math.floor(Date.now() / 1000 / 30)),
      })
    ).status,
  ).toBe(200);
  return secret;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('the local identity provider', () => {
  it('signs a user in and sends the browser back to the site with a code', async () => {
    const browser = new Browser('127.0.0.10');
    const interaction = await browser.authorize();
    const { url } = await browser.follow(await browser.login(interaction, owner.email, password));
    expect(url.pathname).toBe('/login/');
    expect(url.searchParams.get('code')).toBeTruthy();
  });

  it('answers access_denied to a scope the user lacks, instead of redirecting for ever', async () => {
    const browser = new Browser('127.0.0.11');
    const interaction = await browser.authorize('openid profile email offline_access use:muntly admin:muntly');
    const { url, hops } = await browser.follow(await browser.login(interaction, owner.email, password));
    expect(hops).toBeLessThanOrEqual(5);
    expect(url.origin + url.pathname).toBe(`${siteOrigin}/login/`);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('state-1');
    expect(url.searchParams.get('code')).toBeNull();

    // An operator who has the scope gets a code for it.
    const operator = new Browser('127.0.0.12');
    const granted = await operator.follow(
      await operator.login(
        await operator.authorize('openid profile email offline_access use:muntly admin:muntly'),
        admin.email,
        password,
      ),
    );
    expect(granted.url.searchParams.get('code')).toBeTruthy();
  });

  it('stops one client guessing an account’s password, in the page’s language, yet lets the owner in from elsewhere', async () => {
    const attacker = new Browser('127.0.0.20');
    const interaction = await attacker.authorize(undefined, 'de');
    for (let i = 0; i < LOGIN_FAILURES_PER_CLIENT_AND_EMAIL; i++) {
      const answer = await attacker.login(interaction, owner.email, `guess-${i}`);
      expect(answer.status).toBe(401);
      expect(answer.body).toContain(texts('de').wrongCredentials);
    }
    // Now refused even with the right password: the attacker must not learn it by guessing on.
    const refused = await attacker.login(interaction, owner.email, password);
    expect(refused.status).toBe(429);
    const minutes = Number(refused.retryAfter) / 60;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    expect(refused.body).toContain(texts('de').tooManyAttempts!.replace('{{minutes}}', '15'));

    // The owner, on another connection, is not locked out by the stranger's failures.
    const ownerBrowser = new Browser('127.0.0.21');
    const { url } = await ownerBrowser.follow(
      await ownerBrowser.login(await ownerBrowser.authorize(), owner.email, password),
    );
    expect(url.searchParams.get('code')).toBeTruthy();
  });

  it('stops one client spraying passwords across many accounts', async () => {
    const sprayer = new Browser('127.0.0.30');
    const interaction = await sprayer.authorize(undefined, 'uk');
    for (let i = 0; i < LOGIN_FAILURES_PER_CLIENT; i++) {
      const answer = await sprayer.login(interaction, `victim-${i}@muntly.test`, 'password1');
      expect(answer.status).toBe(401);
    }
    const refused = await sprayer.login(interaction, owner.email, 'password1');
    expect(refused.status).toBe(429);
    expect(refused.body).toContain(texts('uk').tooManyAttempts!.replace('{{minutes}}', '15'));
    // Another client is unaffected.
    const other = new Browser('127.0.0.31');
    expect((await other.login(await other.authorize(), owner.email, 'password1')).status).toBe(401);
  });

  it('takes as long to refuse an unknown email as a known one with a wrong password', async () => {
    // Each pair of samples from its own address, so that no throttle answers instead; the two
    // kinds alternate so that a busy moment on the machine slows both.
    const samples = 30;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < samples; i++) {
      const browser = new Browser(`127.0.1.${i + 1}`);
      const interaction = await browser.authorize();
      const time = async (email: string) => {
        const started = process.hrtime.bigint();
        const answer = await browser.login(interaction, email, 'wrong-password');
        expect(answer.status).toBe(401);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      if (i % 2) {
        known.push(await time(owner.email));
        unknown.push(await time(`nobody-${i}@muntly.test`));
      } else {
        unknown.push(await time(`nobody-${i}@muntly.test`));
        known.push(await time(owner.email));
      }
    }
    const ratio = median(known) / median(unknown);
    expect(ratio).toBeLessThan(2);
    expect(ratio).toBeGreaterThan(0.5);
  });

  it('dresses its login page in the site’s design tokens, light and dark', async () => {
    const browser = new Browser('127.0.0.30');
    const page = await browser.request('GET', await browser.authorize());
    expect(page.status).toBe(200);
    const tokens = fs.readFileSync(path.join(root, 'src/styles/tokens.css'), 'utf8');
    expect(tokens).toContain('@media (prefers-color-scheme: dark)');
    expect(page.body).toContain(tokens);
    expect(page.body).toContain('<meta name="color-scheme" content="light dark">');
    // Its own rules use the tokens only (src/styles/__tests__/tokens.test.ts checks idp.css and the contrast).
    const rules = page.body.slice(page.body.indexOf(tokens) + tokens.length, page.body.indexOf('</style>'));
    expect(rules).toContain('background: var(--color-surface-raised)');
    expect(rules.replace(/\/\*[\s\S]*?\*\//g, '')).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(/i);
  });

  it('puts when and how the user logged in into the access token: auth_time and amr ["pwd"]', async () => {
    const browser = new Browser('127.0.0.40');
    const before = Math.floor(Date.now() / 1000);
    const { url } = await browser.follow(await browser.login(await browser.authorize(), owner.email, password));
    const claims = await browser.accessTokenClaims(url.searchParams.get('code')!);
    expect(claims.auth_time).toBeGreaterThanOrEqual(before - 1);
    expect(claims.auth_time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.scope).toContain('use:muntly');
  });

  it('reports each login: the token’s subject, a device key from a long-lived cookie of its own (a new browser, a new key), the browser, the page’s language', async () => {
    const firefox = new Browser('127.0.0.50', FIREFOX);
    const since = reports.length;
    const interaction = await firefox.authorize(undefined, 'nl');
    // A wrong password is no login: nothing reported, no device cookie.
    const wrong = await firefox.login(interaction, owner.email, 'wrong-password');
    expect(wrong.status).toBe(401);
    expect(wrong.setCookies.join()).not.toContain('muntly_device');
    const answer = await firefox.login(interaction, owner.email, password);
    expect(answer.setCookies.filter((cookie) => cookie.startsWith('muntly_device='))).toEqual([
      expect.stringMatching(/^muntly_device=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax$/),
    ]);
    const { url } = await firefox.follow(answer);
    const claims = await firefox.accessTokenClaims(url.searchParams.get('code')!);
    const [first, ...more] = await reportsSince(since, 1);
    expect(more).toEqual([]);
    expect(first).toEqual({
      subject: claims.sub,
      deviceKey: firefox.cookie('muntly_device'),
      userAgent: FIREFOX,
      language: 'nl',
      at: expect.any(String),
    });
    expect(Math.abs(Date.parse(first!.at) - Date.now())).toBeLessThan(60_000);

    // Logged out and in again in the same browser: the same key, no new cookie.
    firefox.forgetSession();
    const again = await firefox.login(await firefox.authorize(), owner.email, password);
    expect(again.setCookies.join()).not.toContain('muntly_device');
    await firefox.follow(again);
    expect((await reportsSince(since, 2))[1]).toMatchObject({
      subject: claims.sub,
      deviceKey: first!.deviceKey,
      language: 'en',
    });

    // Another browser: another key.
    const other = new Browser('127.0.0.51');
    await other.follow(await other.login(await other.authorize(), owner.email, password));
    const third = (await reportsSince(since, 3))[2]!;
    expect(third).toMatchObject({ subject: claims.sub });
    expect(third.deviceKey).toBe(other.cookie('muntly_device'));
    expect(third.deviceKey).not.toBe(first!.deviceKey);
    expect(reports).toHaveLength(since + 3);
  });

  it('sets up two-step login with a QR code, then asks for a one-time password (RFC 6238) at login, each code once', async () => {
    const browser = new Browser('127.0.0.41');
    const de = texts('de');
    expect((await browser.request('GET', '/mfa?ui_locales=de')).body).toContain(de.mfaTitle);
    expect(
      (await browser.request('POST', '/mfa?ui_locales=de', { email: careful.email, password: 'wrong-password' }))
        .status,
    ).toBe(401);
    expect(codeMails.filter((m) => m.email === careful.email)).toHaveLength(0);
    // The password alone sets up nothing (issue 34): a code goes to the account's address first.
    const codeAsked = await browser.request('POST', '/mfa?ui_locales=de', { email: careful.email, password });
    expect(codeAsked.status).toBe(200);
    expect(codeAsked.body).toContain(de.mfaEmailSent);
    expect(codeAsked.body).not.toContain('otpauth://');
    const mailed = await until(() => codeMails.find((m) => m.email === careful.email));
    expect(mailed).toMatchObject({
      email: careful.email,
      language: 'de',
      change: 'second_factor_added',
      code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/),
    });
    expect(codeAsked.body).not.toContain(mailed.code);
    const challenge = /name="challenge" value="([^"]+)"/.exec(codeAsked.body)![1]!;
    // A wrong code, or none, shows no QR code.
    const wrong = await browser.request('POST', '/mfa/email?ui_locales=de', { challenge, code: 'ABCD-EFGH-IJKL-MNOP' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain(de.mfaEmailWrong);
    expect(wrong.body).not.toContain('otpauth://');
    expect(
      (await browser.request('POST', '/mfa/email?ui_locales=de', { challenge: 'made-up', code: mailed.code! })).status,
    ).toBe(400);
    // The code as a person types it: lower case, spaces instead of dashes.
    const scan = await browser.request('POST', '/mfa/email?ui_locales=de', {
      challenge,
      code: ` ${mailed.code!.toLowerCase().replace(/-/g, ' ')} `,
    });
    expect(scan.status).toBe(200);
    // Used once.
    expect(
      (await new Browser('127.0.0.43').request('POST', '/mfa/email', { challenge, code: mailed.code! })).status,
    ).toBe(400);
    expect(scan.body).toContain(de.mfaScan);
    // The QR code holds exactly the otpauth:// URI the page links to; its secret is the key shown.
    const uri = decodeHtml(/<a href="(otpauth:\/\/totp\/[^"]+)"/.exec(scan.body)![1]!);
    const qr = /<img src="(data:image\/png;base64,[^"]+)"/.exec(scan.body)![1]!;
    expect(qr).toBe(await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, scale: 6 }));
    const otpauth = new URL(uri);
    expect(otpauth.searchParams.get('issuer')).toBe('Muntly (local)');
    expect(otpauth.searchParams.get('algorithm')).toBe('SHA1');
    expect(otpauth.searchParams.get('digits')).toBe('6');
    expect(otpauth.searchParams.get('period')).toBe('30');
    const secret = otpauth.searchParams.get('secret')!;
    expect(/<code id="totp-key">([^<]+)<\/code>/.exec(scan.body)![1]!.replace(/ /g, '')).toBe(secret);
    const enrolment = /name="enrolment" value="([^"]+)"/.exec(scan.body)![1]!;
    const step = () => Math.floor(Date.now() / 1000 / 30);

    expect(
      (await browser.request('POST', '/mfa/confirm?ui_locales=de', { enrolment, otp: rfc6238(secret, step() + 5) }))
        .status,
    ).toBe(400);
    const enabled = await browser.request('POST', '/mfa/confirm?ui_locales=de', {
      enrolment,
      otp: rfc6238(secret, step()),
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toContain(de.mfaDone);
    expect(enabled.body).toContain(`${siteOrigin}/de/wallet/security/`);
    // Account protection hears of it (its event, security email and cool-down: account-hardening.test.ts).
    expect(secondFactorChanges.filter((c) => c.email === careful.email)).toEqual([
      expect.objectContaining({ subject: mailed.subject, change: 'second_factor_added', language: 'de' }),
    ]);

    // Logging in: the password, then the code.
    const interaction = await browser.authorize();
    const before = reports.length;
    const asked = await browser.login(interaction, careful.email, password);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain(texts('en').otpTitle);
    const otp = (code: string) => browser.request('POST', `${interaction}/otp`, { otp: code });
    expect((await otp('000000' === rfc6238(secret, step()) ? '111111' : '000000')).status).toBe(401);
    // The code of the enrolment's step was used: a later one (the next step, within the clock's window) works, once.
    const next = rfc6238(secret, step() + 1);
    const { url } = await browser.follow(await otp(next));
    const claims = await browser.accessTokenClaims(url.searchParams.get('code')!);
    expect(claims.amr).toEqual(['pwd', 'otp']);
    expect(Math.abs(Number(claims.auth_time) - Date.now() / 1000)).toBeLessThan(60);
    // Reported once, after the one-time password (the wrong code and the password alone were no login).
    expect(await reportsSince(before, 1)).toEqual([expect.objectContaining({ subject: claims.sub })]);

    const replay = new Browser('127.0.0.42');
    const again = await replay.authorize();
    expect((await replay.login(again, careful.email, password)).status).toBe(200);
    const replayed = await replay.request('POST', `${again}/otp`, { otp: next });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toContain(texts('en').otpWrong);
    // Set up already: a second enrolment is refused.
    expect((await replay.request('POST', '/mfa', { email: careful.email, password })).status).toBe(409);
  });

  it('throttles one-time passwords per account, across logins and clients: wait after a few wrong codes, then the password step too (issue 34)', async () => {
    const secret = await enrol(guarded, '127.0.0.60');
    const step = () => Math.floor(Date.now() / 1000 / 30);
    const live = () => new Set([-1, 0, 1].map((d) => rfc6238(secret, step() + d)));
    const wrongCode = (i: number) => {
      let code = String(100000 + i * 7919).slice(-6);
      while (live().has(code)) code = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      return code;
    };
    // The attacker knows the password and opens many logins, from many addresses, before guessing.
    const logins: { browser: Browser; interaction: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const browser = new Browser(`127.0.1.${i + 1}`);
      const interaction = await browser.authorize();
      expect((await browser.login(interaction, guarded.email, password)).status).toBe(200);
      logins.push({ browser, interaction });
    }
    const answers: Answer[] = [];
    for (let i = 0; i < 40; i++) {
      const { browser, interaction } = logins[i % 8]!;
      answers.push(await browser.request('POST', `${interaction}/otp`, { otp: wrongCode(i) }));
    }
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, OTP_FAILURES_BEFORE_WAIT)).toEqual(Array(OTP_FAILURES_BEFORE_WAIT).fill(401));
    expect(statuses.slice(OTP_FAILURES_BEFORE_WAIT)).toEqual(Array(40 - OTP_FAILURES_BEFORE_WAIT).fill(429));
    const limited = answers.at(-1)!;
    expect(Number(limited.retryAfter)).toBeGreaterThan(13 * 60);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(15 * 60);
    expect(limited.body).toContain(
      texts('en').tooManyAttempts!.replace('{{minutes}}', String(Math.ceil(Number(limited.retryAfter) / 60))),
    );
    // While locked, the right code is refused too, on a login that never guessed.
    const { browser: untouched, interaction } = logins[9]!;
    const right = await untouched.request('POST', `${interaction}/otp`, { otp: rfc6238(secret, step() + 1) });
    expect(right.status).toBe(429);
    expect(right.location).toBeUndefined();
    // And so is the password step, from a new client, right password or wrong.
    const fresh = new Browser('127.0.2.1');
    const again = await fresh.authorize();
    expect((await fresh.login(again, guarded.email, password)).status).toBe(429);
    expect((await fresh.login(again, guarded.email, 'wrong-password')).status).toBe(429);
    // Another account is not affected.
    const other = new Browser('127.0.2.2');
    expect(
      (await other.follow(await other.login(await other.authorize(), owner.email, password))).url.searchParams.get(
        'code',
      ),
    ).toBeTruthy();
  });

  it('answers a sign-up with a taken address as one with a new address, and tells the address’s owner by email instead (issue 34)', async () => {
    const signUp = async (from: string, email: string) => {
      const browser = new Browser(from);
      const interaction = await browser.authorize(undefined, 'fr');
      const answer = await browser.request('POST', `${interaction}/signup`, {
        name: 'Mallory',
        email,
        password: 'another-password-1',
      });
      return { browser, interaction, answer, page: answer.body.replaceAll(interaction, 'UID') };
    };
    const fresh = `fresh-${Date.now()}@muntly.test`;
    const created = await signUp('127.0.3.1', fresh);
    // Any spelling of a taken address.
    const taken = await signUp('127.0.3.2', owner.email);
    const takenUpper = await signUp('127.0.3.3', ` ${owner.email.toUpperCase()} `);
    expect(created.answer.status).toBe(200);
    for (const other of [taken, takenUpper]) {
      expect(other.answer.status).toBe(created.answer.status);
      expect(other.answer.location).toBe(created.answer.location);
      expect(other.page.replaceAll(owner.email, 'EMAIL')).toBe(created.page.replaceAll(fresh, 'EMAIL'));
    }
    expect(created.answer.body).toContain(texts('fr').signupSent!.replace('{{email}}', fresh));
    expect(created.answer.body).not.toContain('Mallory');
    // The mailbox tells its owner which it was.
    await until(() => (signUpMails.length >= 3 ? true : undefined));
    expect(signUpMails.slice(-3)).toEqual([
      { email: fresh, language: 'fr', existing: false },
      { email: owner.email, language: 'fr', existing: true },
      { email: owner.email, language: 'fr', existing: true },
    ]);
    // Nobody is logged in by a sign-up, and the owner's password is unchanged.
    expect(taken.answer.location).toBeUndefined();
    const ownerBrowser = new Browser('127.0.3.4');
    expect(
      (
        await ownerBrowser.follow(await ownerBrowser.login(await ownerBrowser.authorize(), owner.email, password))
      ).url.searchParams.get('code'),
    ).toBeTruthy();
    // The new account's owner logs in on the same page with the password just chosen.
    const { url } = await created.browser.follow(
      await created.browser.login(created.interaction, fresh, 'another-password-1'),
    );
    expect(url.searchParams.get('code')).toBeTruthy();
  });

  it('writes no email and no device key into its log', () => {
    expect(log).not.toMatch(/@muntly\.test/);
    expect(reports.length).toBeGreaterThan(0);
    for (const { deviceKey } of reports) expect(log).not.toContain(deviceKey);
  });
});
