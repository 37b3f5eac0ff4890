/**
 * @jest-environment node
 */
import { ACCOUNT_KEY_ALPHABET } from '#domain/references';
import { testApp, signToken, bearer, databaseKinds, type TestApp } from './helpers';

describe.each(databaseKinds())('accounts (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(() => t.close());

  it('creates an account on the first authenticated request and returns the same one after', async () => {
    const token = await signToken(t.keys, { sub: 'auth0|first', email: 'First@Example.com', name: 'First User' });
    const first = await t.app.inject({ url: '/api/me', headers: bearer(token) });
    expect(first.statusCode).toBe(200);
    const me = first.json();
    expect(me).toEqual({
      accountKey: expect.stringMatching(new RegExp(`^[${ACCOUNT_KEY_ALPHABET}]{8}$`)),
      depositReference: `DEPOSIT${me.accountKey}`,
      depositLimitEur: '1000.00',
      email: 'first@example.com',
      displayName: 'First User',
      verification: {
        address: 'not_enabled',
        bank: 'not_enabled',
        business: 'not_enabled',
        id: 'not_enabled',
        mobile: 'not_enabled',
      },
    });
    const again = await t.app.inject({
      url: '/api/me',
      headers: bearer(await signToken(t.keys, { sub: 'auth0|first' })),
    });
    expect(again.json().accountKey).toBe(me.accountKey);
  });

  it('keys users by issuer and subject: another subject gets another account', async () => {
    const a = (
      await t.app.inject({ url: '/api/me', headers: bearer(await signToken(t.keys, { sub: 'auth0|a' })) })
    ).json();
    const b = (
      await t.app.inject({ url: '/api/me', headers: bearer(await signToken(t.keys, { sub: 'auth0|b' })) })
    ).json();
    expect(a.accountKey).not.toBe(b.accountKey);
  });

  it('creates exactly one account when first requests race', async () => {
    const token = await signToken(t.keys, { sub: 'auth0|racer', email: 'racer@example.com' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ url: '/api/me', headers: bearer(token) })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r.json().accountKey)).size).toBe(1);
    const users = (await t.app.inject({ url: '/api/ops/users', headers: t.admin })).json().users;
    expect(users.filter((u: { email: string }) => u.email === 'racer@example.com')).toHaveLength(1);
  });

  it('documents /api/me in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.paths['/api/me'].get.responses['200']).toBeDefined();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
