import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, statusOf, type ErrorBody, type ErrorCode } from '#domain/errors';
import { apiMessage } from './error-messages';
import type { FastifyError, FastifyReply } from 'fastify';

/**
 * Errors everywhere follow docs/decisions/0003: status + `{ error: { code, message, field? } }`.
 * Code throws a DomainError (domain/errors.ts) with a code only; this handler answers it with the
 * status the map gives that code. A failure nobody foresaw is logged and answered with a 500 that
 * carries no stack trace.
 */

/**
 * Too many requests from one client (a rate limit, a cap on open streams): the transport's own
 * refusal, answered like @fastify/rate-limit's with 429 and `try_again_soon`.
 */
export class RateLimited extends Error {
  readonly statusCode = 429;

  /** `retryAfter`: seconds until the limit lets the client through again, when the limiter knows. */
  constructor(readonly retryAfter?: number) {
    super('rate limited');
  }
}

/** The body of an error answer: the message is the code's English text (server/src/error-messages.ts) unless a more precise one is given. */
export function errorBody(code: ErrorCode, field?: string, message?: string, retryAfter?: number): ErrorBody {
  return {
    error: {
      code,
      message: message ?? apiMessage(code, retryAfter),
      ...(field ? { field } : {}),
      ...(retryAfter ? { retryAfter } : {}),
    },
  };
}

/** Answers a code outside the error handler (a reply already under way), with the map's status. */
export function sendError(reply: FastifyReply, code: ErrorCode, message?: string) {
  return reply.code(statusOf(code)).send(errorBody(code, undefined, message));
}

/**
 * `loginMaxAgeSeconds`: a refusal for an old login (a send or an order paid from the wallet)
 * carries the RFC 9470 challenge, so a client logs the user in again with this max_age and repeats
 * the request.
 */
export const errorsPlugin = fp<{ loginMaxAgeSeconds: number }>(async (app, { loginMaxAgeSeconds }) => {
  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    // An error is never cached: a route that marks its file cacheable before reading it (a proof
    // file not yet published) must not let a CDN keep the 404 for a year, nor a 429 or a 500.
    reply.header('cache-control', 'no-store');
    // A limit that lifts with time says when, in the body and as Retry-After.
    if ((error instanceof DomainError || error instanceof RateLimited) && error.retryAfter)
      reply.header('retry-after', String(error.retryAfter));
    if (error instanceof DomainError && error.code === 'login_required_recent') {
      reply.header(
        'www-authenticate',
        `Bearer error="insufficient_user_authentication", max_age=${loginMaxAgeSeconds}`,
      );
    }
    if (error instanceof DomainError)
      return reply.code(statusOf(error.code)).send(errorBody(error.code, error.field, error.detail, error.retryAfter));
    if (error instanceof RateLimited)
      return reply.code(429).send(errorBody('try_again_soon', undefined, undefined, error.retryAfter));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = issue?.instancePath.replace(/^\//, '').replace(/\//g, '.');
      return reply
        .code(statusOf('validation_failed'))
        .send(errorBody('validation_failed', where || undefined, issue?.message));
    }
    // The transport's refusals keep the framework's status.
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send(errorBody('payload_too_large'));
    if (status === 429) return reply.code(429).send(errorBody('try_again_soon'));
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody('bad_request'));
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(statusOf('internal_error')).send(errorBody('internal_error'));
  });
});
