/**
 * @jest-environment node
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { LOGIN_FAILURES_PER_CLIENT, LOGIN_FAILURES_PER_CLIENT_AND_EMAIL } from '../src/dev/login-throttle';

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
const texts = (language: string) => (JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'auth.json'), 'utf8')) as { idp: Record<string, string> }).idp;

let idp: ChildProcess;
let port: number;
let log = '';

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
      IDP_TEST_USERS: JSON.stringify([owner, admin]),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  idp.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    idp.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
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

type Answer = { status: number; location?: string; retryAfter?: string; body: string };

/** One browser: its cookies, and the loopback address its requests leave from. */
class Browser {
  private cookies = new Map<string, string>();
  constructor(private readonly from = '127.0.0.1') {}

  request(method: 'GET' | 'POST', target: string, form?: Record<string, string>): Promise<Answer> {
    const url = new URL(target, `http://127.0.0.1:${port}/`);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: url.pathname + url.search, method, headers, localAddress: this.from, agent: false }, (res) => {
        for (const cookie of res.headers['set-cookie'] ?? []) {
          const [pair] = cookie.split(';');
          const [name, value = ''] = pair!.split('=');
          if (value && !/expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.set(name!, value);
          else this.cookies.delete(name!);
        }
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, retryAfter: res.headers['retry-after'] as string | undefined, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** The site's authorization request; answers the login form's address. */
  async authorize(scope = 'openid profile email offline_access use:muntly', language = 'en'): Promise<string> {
    const verifier = randomBytes(32).toString('base64url');
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

  login(interaction: string, email: string, secret: string): Promise<Answer> {
    return this.request('POST', `${interaction}/login`, { email, password: secret });
  }

  /** Follows the provider's redirects, at most `cap` of them, until one leads to the site. */
  async follow(answer: Answer, cap = 20): Promise<{ url: URL; hops: number }> {
    let hops = 0;
    let current = answer;
    for (;;) {
      if (current.status < 300 || current.status >= 400) throw new Error(`answered ${current.status}: ${current.body.slice(0, 300)}`);
      const next = new URL(current.location!, `http://127.0.0.1:${port}/`);
      if (next.origin === siteOrigin) return { url: next, hops };
      hops += 1;
      if (hops > cap) return { url: next, hops };
      current = await this.request('GET', next.pathname + next.search);
    }
  }
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
    const granted = await operator.follow(await operator.login(await operator.authorize('openid profile email offline_access use:muntly admin:muntly'), admin.email, password));
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
    const { url } = await ownerBrowser.follow(await ownerBrowser.login(await ownerBrowser.authorize(), owner.email, password));
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

  it('writes no email into its log', () => {
    expect(log).not.toMatch(/@muntly\.test/);
  });
});
