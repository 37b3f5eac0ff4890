/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalJWKSet } from 'jose';
import { environment, loadConfig } from '../src/config';
import { loadOrCreateIdpKeys } from '../src/dev/keys';
import { idpUsersRepository } from '../src/dev/users';
import { run } from '../src/ops/cli';
import { testApp, signToken, bearer, databaseKinds, type TestApp } from './helpers';
import type { AddressInfo } from 'node:net';

describe.each(databaseKinds())('operator API (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind);
    admin = t.admin;
  });
  afterAll(() => t.close());

  it('dev-token: mints a working token for an email, creating the local user once', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/ops/dev-token',
      headers: admin,
      payload: { email: 'New@Muntly.test' },
    });
    expect(first.statusCode).toBe(200);
    const { accessToken, email } = first.json();
    expect(email).toBe('new@muntly.test');
    const me = await t.app.inject({ url: '/api/me', headers: bearer(accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('new@muntly.test');

    const second = await t.app.inject({
      method: 'POST',
      url: '/api/ops/dev-token',
      headers: admin,
      payload: { email: 'new@muntly.test' },
    });
    const again = await t.app.inject({ url: '/api/me', headers: bearer(second.json().accessToken) });
    expect(again.json().accountKey).toBe(me.json().accountKey);
  });

  it('lists users', async () => {
    const res = await t.app.inject({ url: '/api/ops/users', headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().users.map((u: { email: string }) => u.email)).toContain('new@muntly.test');
  });

  it('grant-admin: later tokens of that user carry admin:muntly', async () => {
    await idpUsersRepository.create(t.app.db, { email: 'boss@muntly.test', name: 'Boss', password: 'secret-password' });
    const granted = await t.app.inject({
      method: 'POST',
      url: '/api/ops/grant-admin',
      headers: admin,
      payload: { email: 'boss@muntly.test' },
    });
    expect(granted.json()).toEqual({ email: 'boss@muntly.test', admin: true });
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/ops/dev-token',
        headers: admin,
        payload: { email: 'boss@muntly.test' },
      })
    ).json().accessToken;
    expect((await t.app.inject({ url: '/api/ops/users', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('grant-admin: an unknown email is a 404 on the email field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/grant-admin',
      headers: admin,
      payload: { email: 'nobody@muntly.test' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'unknown_user', field: 'email' });
  });

  it('ledger:verify reports every invariant, and a broken one', async () => {
    const ok = await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin });
    expect(ok.json().ok).toBe(true);
    expect(ok.json().checks).toHaveLength(4);
    const { sql } = await import('drizzle-orm');
    // Simulate corruption behind the ledger's back: a system balance no transfer explains.
    await t.app.db.execute(sql`insert into ledger_accounts (system_code, currency, balance) values ('bank', 'EUR', 5)`);
    const broken = (await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json();
    expect(broken.ok).toBe(false);
    expect(broken.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { name: string }) => c.name)).toEqual([
      'per currency, all balances sum to zero',
      'every balance equals its credits minus its debits',
    ]);
    await t.app.db.execute(sql`delete from ledger_accounts where system_code = 'bank' and currency = 'EUR'`);
  });

  it('validates bodies field by field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/dev-token',
      headers: admin,
      payload: { email: 'not-an-email' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_failed', field: 'email' });
  });
});

describe('operator API with Auth0 (production)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite', {
      AUTH0_DOMAIN: 'muntly.eu.auth0.com',
      CHAIN_PAYOUTS: 'signer',
      BANK_PAYOUTS: 'external',
      AUTH0_CLIENT_ID: 'abc',
      AUTH0_AUDIENCE: 'https://api.muntly.local',
      DATABASE_URL: 'postgres://unused@localhost/unused',
      OPERATOR_NAME: 'Muntly GmbH',
      OPERATOR_ADDRESS: 'Chausseestraße 1, 10115 Berlin, Germany',
      OPERATOR_EMAIL: 'legal@muntly.eu',
      SECURITY_LINK_SECRET: 'a-production-secret-of-at-least-32-characters',
      BANK_DEBTOR_TOWN: 'Berlin',
      BANK_DEBTOR_COUNTRY: 'DE',
    });
  });
  afterAll(() => t.close());

  it('refuses dev-token when AUTH0_DOMAIN is set', async () => {
    const admin = bearer(
      await signToken(t.keys, { iss: 'https://muntly.eu.auth0.com/', scope: 'use:muntly admin:muntly' }),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/dev-token',
      headers: admin,
      payload: { email: 'x@muntly.test' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('not_available_in_production');
  });
});

describe('operator API before a local user has used the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite');
  });
  afterAll(() => t.close());

  it('enable-verification prepares the account of a local provider user', async () => {
    const user = await idpUsersRepository.create(t.app.db, {
      email: 'early@muntly.test',
      name: 'Early',
      password: 'long-password',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/enable',
      headers: t.admin,
      payload: { email: 'early@muntly.test', kind: 'bank' },
    });
    expect(res.json()).toEqual({ email: 'early@muntly.test', kind: 'bank', phase: 'step_1' });
    const token = bearer(await signToken(t.keys, { sub: user!.id }));
    expect((await t.app.inject({ url: '/api/me', headers: token })).json().verification.bank).toBe('step_1');
  });
});

describe('npm run ops reads its settings as the server does', () => {
  let t: TestApp;
  let dataDir: string;
  let port: number;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-ops-'));
    const keys = await loadOrCreateIdpKeys(dataDir);
    // The server's identity provider is on another port than the default 4001: its tokens' issuer
    // is http://localhost:4999/, which the command line used to get wrong (token_wrong_issuer).
    t = await testApp(
      'pglite',
      { IDP_PORT: '4999', DATA_DIR: dataDir },
      { jwks: createLocalJWKSet({ keys: [keys.publicJwk] }) },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const SETTINGS = [
    'ENV_FILE',
    'OPS_URL',
    'OPS_TOKEN',
    'OPS_SUBJECT',
    'PORT',
    'HOST',
    'IDP_PORT',
    'DATA_DIR',
    'AUTH0_DOMAIN',
  ];
  /** Runs a command with exactly these settings in the environment (the others unset), as a shell would; returns what it printed or threw. */
  async function ops(args: string[], env: Record<string, string>): Promise<{ printed: string[]; error?: Error }> {
    const saved = Object.fromEntries(SETTINGS.map((key) => [key, process.env[key]]));
    for (const key of SETTINGS) delete process.env[key];
    Object.assign(process.env, env);
    const printed: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    try {
      await run(args);
      return { printed };
    } catch (error) {
      return { printed, error: error as Error };
    } finally {
      log.mockRestore();
      for (const key of SETTINGS) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  }
  const envFile = (lines: string) => {
    const file = path.join(dataDir, `${Math.random().toString(36).slice(2)}.env`);
    fs.writeFileSync(file, lines);
    return file;
  };

  it('finds the server and its key from .env (PORT, HOST, DATA_DIR) and takes the issuer from the server: IDP_PORT is needed nowhere', async () => {
    const file = envFile(`PORT=${port}\nHOST=127.0.0.1\nDATA_DIR=${dataDir}\nOPS_SUBJECT=ops:alice\n`);
    const { printed, error } = await ops(['faucet', 'fund', '1'], { ENV_FILE: file });
    expect(error).toBeUndefined();
    expect(printed.join('\n')).toMatch(/^Faucet running, budget [\d.]+ EUR/);
    // The audit trail names who acted locally: OPS_SUBJECT, the subject of the token it signed.
    const listed = await ops(['audit', '--action', 'faucet.fund', '--json'], { ENV_FILE: file });
    expect(JSON.parse(listed.printed.join('\n'))[0]).toMatchObject({ actor: 'ops:alice', action: 'faucet.fund' });
  });

  it('the environment wins over .env, as for the server', async () => {
    const file = envFile(`PORT=1\nHOST=127.0.0.1\nDATA_DIR=${dataDir}\n`);
    expect(loadConfig(environment({ ENV_FILE: file })).PORT).toBe(1);
    expect(loadConfig(environment({ ENV_FILE: file, PORT: String(port) })).opsUrl).toBe(`http://127.0.0.1:${port}`);
    expect((await ops(['faucet', 'status'], { ENV_FILE: file, PORT: String(port) })).error).toBeUndefined();
    expect(() => environment({ ENV_FILE: path.join(dataDir, 'missing.env') })).toThrow(
      /ENV_FILE: .*missing\.env does not exist/,
    );
  });

  it("says what to fix when DATA_DIR or PORT is not the server's", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-ops-other-'));
    await loadOrCreateIdpKeys(otherDir);
    const foreign = await ops(['users'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: otherDir });
    expect(foreign.error?.message).toBe(
      `The server at http://127.0.0.1:${port} does not know the signing key in ${otherDir}: give this command the server's DATA_DIR (.env).`,
    );
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-ops-empty-'));
    expect((await ops(['users'], { PORT: String(port), DATA_DIR: empty })).error?.message).toMatch(
      /^No local identity provider key in .*: start the server first/,
    );
    const closed = await ops(['users'], { PORT: '1', HOST: '127.0.0.1', DATA_DIR: dataDir });
    expect(closed.error?.message).toMatch(/^Cannot reach the Muntly server at http:\/\/127\.0\.0\.1:1: /);
    for (const dir of [otherDir, empty]) fs.rmSync(dir, { recursive: true, force: true });
  });
});
