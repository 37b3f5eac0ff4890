/**
 * @jest-environment node
 */
import { idpUsersRepository } from '../src/dev/users';
import { testApp, signToken, bearer, databaseKinds, type TestApp } from './helpers';

describe.each(databaseKinds())('operator API (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind);
    admin = t.admin;
  });
  afterAll(() => t.close());

  it('dev-token: mints a working token for an email, creating the local user once', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/api/ops/dev-token', headers: admin, payload: { email: 'New@Muntly.test' } });
    expect(first.statusCode).toBe(200);
    const { accessToken, email } = first.json();
    expect(email).toBe('new@muntly.test');
    const me = await t.app.inject({ url: '/api/me', headers: bearer(accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('new@muntly.test');

    const second = await t.app.inject({ method: 'POST', url: '/api/ops/dev-token', headers: admin, payload: { email: 'new@muntly.test' } });
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
    const granted = await t.app.inject({ method: 'POST', url: '/api/ops/grant-admin', headers: admin, payload: { email: 'boss@muntly.test' } });
    expect(granted.json()).toEqual({ email: 'boss@muntly.test', admin: true });
    const token = (await t.app.inject({ method: 'POST', url: '/api/ops/dev-token', headers: admin, payload: { email: 'boss@muntly.test' } })).json().accessToken;
    expect((await t.app.inject({ url: '/api/ops/users', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('grant-admin: an unknown email is a 404 on the email field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/grant-admin', headers: admin, payload: { email: 'nobody@muntly.test' } });
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
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/dev-token', headers: admin, payload: { email: 'not-an-email' } });
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
    });
  });
  afterAll(() => t.close());

  it('refuses dev-token when AUTH0_DOMAIN is set', async () => {
    const admin = bearer(await signToken(t.keys, { iss: 'https://muntly.eu.auth0.com/', scope: 'use:muntly admin:muntly' }));
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/dev-token', headers: admin, payload: { email: 'x@muntly.test' } });
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
    const user = await idpUsersRepository.create(t.app.db, { email: 'early@muntly.test', name: 'Early', password: 'long-password' });
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/verification/enable', headers: t.admin, payload: { email: 'early@muntly.test', kind: 'bank' } });
    expect(res.json()).toEqual({ email: 'early@muntly.test', kind: 'bank', phase: 'step_1' });
    const token = bearer(await signToken(t.keys, { sub: user!.id }));
    expect((await t.app.inject({ url: '/api/me', headers: token })).json().verification.bank).toBe('step_1');
  });
});
