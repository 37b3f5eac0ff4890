import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

/**
 * The local identity provider's signing key and cookie keys, persisted in DATA_DIR so tokens
 * stay valid across restarts. The key id is the key's thumbprint: a new key never reuses an old
 * `kid` (a JWKS cache would otherwise pair the old id with the new key).
 */
export type IdpKeys = { privateJwk: JWK & { kid: string }; publicJwk: JWK & { kid: string }; cookieKeys: string[] };

export const KEYS_FILE = 'idp-keys.json';

export async function loadOrCreateIdpKeys(dataDir: string): Promise<IdpKeys> {
  const file = path.join(dataDir, KEYS_FILE);
  if (fs.existsSync(file)) return readIdpKeys(dataDir);
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(privateJwk);
  const keys = {
    privateJwk: { ...privateJwk, kid, alg: 'RS256', use: 'sig' },
    cookieKeys: [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')],
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return readIdpKeys(dataDir);
}

export function readIdpKeys(dataDir: string): IdpKeys {
  const stored = JSON.parse(fs.readFileSync(path.join(dataDir, KEYS_FILE), 'utf8')) as Omit<IdpKeys, 'publicJwk'>;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = stored.privateJwk;
  return { ...stored, publicJwk: publicJwk as IdpKeys['publicJwk'] };
}

export type TokenClaims = {
  issuer: string;
  audience: string;
  subject: string;
  scope: string;
  email?: string;
  name?: string;
  clientId?: string;
  ttlSeconds?: number;
  /** When the user logged in (auth_time): now, unless given. A minted token stands for a fresh login. */
  authTime?: number;
  /** How the user logged in (amr), e.g. ['pwd', 'otp']; none unless given. */
  amr?: string[];
};

/** An access token shaped like the provider's own (RS256, typ at+jwt). */
export async function mintAccessToken(keys: IdpKeys, claims: TokenClaims): Promise<string> {
  const key = await importJWK(keys.privateJwk, 'RS256');
  return new SignJWT({
    scope: claims.scope,
    client_id: claims.clientId ?? 'muntly-ops',
    ...(claims.email ? { email: claims.email } : {}),
    ...(claims.name ? { name: claims.name } : {}),
    ...(claims.amr ? { amr: claims.amr } : {}),
    auth_time: claims.authTime ?? Math.floor(Date.now() / 1000),
  })
    .setProtectedHeader({ alg: 'RS256', kid: keys.privateJwk.kid, typ: 'at+jwt' })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setSubject(claims.subject)
    .setIssuedAt()
    .setJti(randomBytes(16).toString('base64url'))
    .setExpirationTime(`${claims.ttlSeconds ?? 3600}s`)
    .sign(key);
}
