import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES, type ErrorBody, type ErrorCode } from '../../domain/errors';

/**
 * Errors everywhere follow DESIGN.md section 5: status + `{ error: { code, message, field? } }`.
 * A failure nobody foresaw is logged and answered with a 500 that carries no stack trace.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly field?: string,
    message?: string,
  ) {
    super(message ?? ERROR_MESSAGES[code]);
  }
}

export function errorBody(code: ErrorCode, field?: string, message?: string): ErrorBody {
  return { error: { code, message: message ?? ERROR_MESSAGES[code], ...(field ? { field } : {}) } };
}

export function sendError(reply: FastifyReply, status: number, code: ErrorCode, field?: string) {
  return reply.code(status).send(errorBody(code, field));
}

export const errorsPlugin = fp(async (app) => {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).send(errorBody(error.code, error.field, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = issue?.instancePath.replace(/^\//, '').replace(/\//g, '.');
      return reply.code(400).send(errorBody('validation_failed', where || undefined, issue?.message));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send(errorBody('payload_too_large'));
    if (status === 429) return reply.code(429).send(errorBody('try_again_soon'));
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody('bad_request'));
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody('internal_error'));
  });
});
