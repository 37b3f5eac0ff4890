/**
 * @jest-environment node
 */
import { createPublicKey } from 'node:crypto';
import { SignJWT, UnsecuredJWT, exportSPKI, importJWK } from 'jose';
import { testApp, signToken, testKeys, bearer, databaseKinds, type TestApp } from './helpers';

/** Every way a token can be wrong gets a 401 with its own code; a missing scope a 403. */
describe.each(databaseKinds())('access tokens (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(() => t.close());

  const me = (headers: Record<string, string> = {}) => t.app.inject({ url: '/api/me', headers });
  const expectError = async (headers: Record<string, string>, status: number, code: string) => {
    const res = await me(headers);
    expect({ status: res.statusCode, code: res.json().error?.code }).toEqual({ status, code });
    expect(res.json().error.message).toEqual(expect.any(String));
  };

  it('accepts a valid RS256 token with scope use:muntly', async () => {
    const res = await me(bearer(await signToken(t.keys)));
    expect(res.statusCode).toBe(200);
  });

  it('accepts an Auth0-style array audience', async () => {
    const res = await me(
      bearer(await signToken(t.keys, { aud: ['https://api.muntly.local', 'http://localhost:4001/userinfo'] })),
    );
    expect(res.statusCode).toBe(200);
  });

  it('rejects a request without a token', () => expectError({}, 401, 'token_missing'));
  it('rejects a non-bearer authorization header', () =>
    expectError({ authorization: 'Basic dXNlcjpwdw==' }, 401, 'token_malformed'));
  it('rejects garbage', () => expectError(bearer('not.a.jwt'), 401, 'token_malformed'));
  it('rejects random bytes', () => expectError(bearer('AAAA'), 401, 'token_malformed'));

  it('rejects an expired token', async () => {
    await expectError(
      bearer(await signToken(t.keys, { expiresIn: Math.floor(Date.now() / 1000) - 60 })),
      401,
      'token_expired',
    );
  });

  it('rejects a token that is not valid yet', async () => {
    await expectError(bearer(await signToken(t.keys, { notBefore: '10m' })), 401, 'token_not_yet_valid');
  });

  it('rejects a token from another issuer', async () => {
    await expectError(bearer(await signToken(t.keys, { iss: 'https://evil.example/' })), 401, 'token_wrong_issuer');
  });

  it('rejects a token for another audience', async () => {
    await expectError(bearer(await signToken(t.keys, { aud: 'https://other.api/' })), 401, 'token_wrong_audience');
  });

  it('rejects alg none', async () => {
    const token = new UnsecuredJWT({ scope: 'use:muntly' })
      .setIssuer('http://localhost:4001/')
      .setAudience('https://api.muntly.local')
      .setSubject('attacker')
      .setExpirationTime('1h')
      .encode();
    await expectError(bearer(token), 401, 'token_unsupported_algorithm');
  });

  it('rejects HS256 signed with the public key (algorithm confusion)', async () => {
    const pem = await exportSPKI(createPublicKey({ key: t.keys.publicJwk as never, format: 'jwk' }));
    const token = await new SignJWT({ scope: 'use:muntly' })
      .setProtectedHeader({ alg: 'HS256', kid: t.keys.publicJwk.kid })
      .setIssuer('http://localhost:4001/')
      .setAudience('https://api.muntly.local')
      .setSubject('attacker')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(pem));
    await expectError(bearer(token), 401, 'token_unsupported_algorithm');
  });

  it('rejects an unknown kid', async () => {
    await expectError(bearer(await signToken(t.keys, { kid: 'no-such-key' })), 401, 'token_unknown_key');
  });

  it('rejects a token signed by another key under the known kid', async () => {
    const other = await testKeys();
    const forged = await signToken({ ...other, privateJwk: { ...other.privateJwk, kid: t.keys.privateJwk.kid } });
    await expectError(bearer(forged), 401, 'token_invalid_signature');
  });

  it('rejects a tampered payload', async () => {
    const [header, , signature] = (await signToken(t.keys)).split('.');
    const payload = Buffer.from(
      JSON.stringify({
        sub: 'admin',
        scope: 'use:muntly admin:muntly',
        iss: 'http://localhost:4001/',
        aud: 'https://api.muntly.local',
        exp: 9999999999,
      }),
    ).toString('base64url');
    await expectError(bearer(`${header}.${payload}.${signature}`), 401, 'token_invalid_signature');
  });

  it('answers 403 to a valid token without use:muntly', async () => {
    await expectError(bearer(await signToken(t.keys, { scope: 'openid profile' })), 403, 'insufficient_scope');
  });

  it('answers 403 on /api/ops to a user token without admin:muntly', async () => {
    const res = await t.app.inject({ url: '/api/ops/users', headers: bearer(await signToken(t.keys)) });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('insufficient_scope');
  });

  it('needs use:muntly as well as admin:muntly on /api/ops', async () => {
    const res = await t.app.inject({
      url: '/api/ops/users',
      headers: bearer(await signToken(t.keys, { scope: 'admin:muntly' })),
    });
    expect(res.statusCode).toBe(403);
  });

  it('never answers a token problem with a 5xx', async () => {
    const importer = await importJWK(t.keys.privateJwk, 'RS256');
    const weird = await new SignJWT({ scope: 42 as unknown as string })
      .setProtectedHeader({ alg: 'RS256', kid: t.keys.privateJwk.kid })
      .setIssuer('http://localhost:4001/')
      .setAudience('https://api.muntly.local')
      .setExpirationTime('1h')
      .sign(importer);
    for (const token of [weird, '', ' ', 'Bearer', 'e30.e30.', 'eyJhbGciOiJSUzI1NiJ9.e30.AAAA']) {
      const res = await me({ authorization: `Bearer ${token}` });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().error.code).toEqual(expect.any(String));
    }
  });
});
