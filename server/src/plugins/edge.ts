import { STATUS_CODES } from 'node:http';
import fp from 'fastify-plugin';
import { DomainError, statusOf, type ErrorCode } from '#domain/errors';
import { errorBody } from '../errors';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';

/**
 * What every request meets before any route (issue 16):
 * - text the database cannot store is refused once, here, for every route: PostgreSQL refuses a
 *   NUL character in text (the query failed with a 500), and an unpaired UTF-16 surrogate has no
 *   UTF-8 form (the driver would silently store U+FFFD instead);
 * - responses about one person are never stored by a browser or a proxy cache;
 * - the HTTP server's own refusals (headers too large, a request that arrives too slowly, bytes
 *   that are not HTTP) get the API's error shape instead of Node's or Fastify's.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The response is about one person without a login (an order found by email and reference): never cached. */
    personal?: boolean;
  }
}

/** NUL, or a surrogate that is not half of a pair (with the `u` flag a pair is one code point, not \p{Cs}). */
const UNSTORABLE = /[\0\p{Cs}]/u;

/**
 * The path of the first string (or object key) in `value` that holds unstorable text, as the
 * error's `field` names fields ("email", "items.0.label"); `name` ("body", "query") stands for
 * the whole value. Iterative: a deeply nested JSON body must not overflow the stack.
 */
export function unstorableField(value: unknown, name: string): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) return path || name;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        // A bad key is named by its parent: the key itself would put the bad bytes in the answer.
        if (UNSTORABLE.test(key)) return path || name;
        pending.push({ value: child, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}

/** The answer for each of the HTTP server's own refusals. */
function clientErrorCode(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  return 'bad_request';
}

/**
 * Fastify's `clientErrorHandler`: the HTTP parser or the server's timeouts refused the request
 * before Fastify saw it, so there is no reply object; the answer is written on the socket.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection the client reset has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = clientErrorCode(error);
  // Only the error's code: a parser error carries the raw bytes received (tokens, emails).
  this.log.debug({ clientError: error.code }, 'client error');
  // As Node does: a response already under way on this socket cannot be followed by another.
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !response?.headersSent) {
    const status = statusOf(code);
    const body = JSON.stringify(errorBody(code));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export const edgePlugin = fp(
  async (app) => {
    // preValidation: after the body is parsed, before any schema or handler sees it.
    app.addHook('preValidation', async (request) => {
      const field =
        unstorableField(request.params, 'params') ??
        unstorableField(request.query, 'query') ??
        unstorableField(request.body, 'body');
      if (field)
        throw new DomainError(
          'validation_failed',
          field,
          'Text may not contain a NUL character or an unpaired UTF-16 surrogate.',
        );
    });

    // Anything answered to a logged-in caller is theirs (balances, identity, orders, exports);
    // routes open to anyone that still answer about one person say so with `config.personal`.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.auth || request.routeOptions.config.personal) reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'edge' },
);
