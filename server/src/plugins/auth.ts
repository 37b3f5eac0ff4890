import fp from 'fastify-plugin';
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { DomainError, type ErrorCode } from '#domain/errors';
import { TtlCache } from '../cache';
import type { FastifyRequest } from 'fastify';

/**
 * Bearer tokens: only RS256 JWTs from the configured issuer, for the configured audience. The
 * JWKS comes from the issuer (Auth0 or the local provider); tests pass their own.
 *
 * `request.auth` is set by `app.authenticate` (401 on any token problem, each with its code);
 * `app.requireScope(scope)` answers 403 `insufficient_scope` to a valid token without it.
 */
export type Auth = {
  issuer: string;
  subject: string;
  scopes: Set<string>;
  /** Seconds since the epoch. */
  expiresAt: number;
  email?: string;
  name?: string;
  /** When the user last logged in (OpenID auth_time, seconds since the epoch), if the token says: sends need a recent one. */
  authTime?: number;
  /** How they logged in (RFC 8176 amr: pwd, otp, mfa…), if the token says: large sends need a second factor. */
  amr?: string[];
};

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Auth;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
    requireScope: (...scopes: string[]) => (request: FastifyRequest) => Promise<void>;
  }
}

export type AuthOptions = {
  issuer: string;
  audience: string;
  jwks: JWTVerifyGetKey;
  requiredScope: string;
  /**
   * Auth0 reserves `auth_time` and `amr` in access tokens: a post-login Action adds them under this
   * namespace (AUTH_CLAIM_NAMESPACE, docs/production.md). The plain claims (the local provider's)
   * are read first.
   */
  claimNamespace?: string;
};

function fail(code: ErrorCode): never {
  throw new DomainError(code);
}

/** Maps jose's failures onto stable error codes. */
function translate(error: unknown): never {
  if (error instanceof DomainError) throw error;
  if (error instanceof errors.JWTExpired) fail('token_expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf' || error.claim === 'iat') fail('token_not_yet_valid');
    if (error.claim === 'iss') fail('token_wrong_issuer');
    if (error.claim === 'aud') fail('token_wrong_audience');
    fail('token_invalid_claims');
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    fail('token_unsupported_algorithm');
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    fail('token_unknown_key');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) fail('token_invalid_signature');
  fail('token_malformed');
}

const numberClaim = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const stringsClaim = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;

const scopesOf = (payload: JWTPayload): Set<string> =>
  new Set(typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : []);

export const authPlugin = fp<AuthOptions>(async (app, options) => {
  // A token verified once stays verified until it expires (it is immutable and signed); the
  // cache only skips repeating the RSA check. Expiry is still enforced by the cache's limit.
  const verified = new TtlCache<Auth>(10_000);

  async function verify(token: string): Promise<Auth> {
    const cached = verified.get(token);
    if (cached) return cached;
    const auth = await verifyOnce(token);
    verified.set(token, auth, auth.expiresAt * 1000 - Date.now());
    return auth;
  }

  async function verifyOnce(token: string): Promise<Auth> {
    // jose would accept an unsigned header only with alg "none" allowed; make the reason explicit.
    const header = token.split('.')[0] ?? '';
    try {
      const decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
      if (decoded.alg !== 'RS256') fail('token_unsupported_algorithm');
    } catch (error) {
      if (error instanceof DomainError) throw error;
      fail('token_malformed');
    }
    try {
      const { payload } = await jwtVerify(token, options.jwks, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp'],
        clockTolerance: 5,
      });
      if (!payload.sub) fail('token_invalid_claims');
      return {
        issuer: options.issuer,
        subject: payload.sub,
        expiresAt: payload.exp!,
        scopes: scopesOf(payload),
        email: typeof payload.email === 'string' ? payload.email : undefined,
        name: typeof payload.name === 'string' ? payload.name : undefined,
        authTime: numberClaim(
          payload.auth_time ?? (options.claimNamespace ? payload[`${options.claimNamespace}auth_time`] : undefined),
        ),
        amr: stringsClaim(
          payload.amr ?? (options.claimNamespace ? payload[`${options.claimNamespace}amr`] : undefined),
        ),
      };
    } catch (error) {
      translate(error);
    }
  }

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header) fail('token_missing');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) fail('token_malformed');
    const auth = await verify(match[1]!);
    if (!auth.scopes.has(options.requiredScope)) throw new DomainError('insufficient_scope');
    request.auth = auth;
  });

  app.decorate('requireScope', (...scopes: string[]) => async (request: FastifyRequest) => {
    await app.authenticate(request);
    if (!scopes.every((scope) => request.auth!.scopes.has(scope))) throw new DomainError('insufficient_scope');
  });
});
