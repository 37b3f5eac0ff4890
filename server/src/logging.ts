import type { Config } from './config';
import type { FastifyServerOptions } from 'fastify';

/**
 * The logger's options. No log line carries a token, a body, a query string, an email, an order
 * reference or a code (issue 16): requests are logged by method and path only, and errors through
 * `safeError`, never as pino's default serializer would write them (every own property: a failed
 * query's SQL parameters, a parser error's raw bytes, PostgreSQL's `detail` with the row's values).
 */
export function loggerOptions(config: Config, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  if (config.LOG_LEVEL === 'silent') return false;
  return {
    level: config.LOG_LEVEL,
    ...(stream ? { stream } : {}),
    serializers: {
      // No headers (tokens), and no query string (an operator's ?email= or ?to= would carry one).
      req: (request: LoggedRequest) => ({ id: request.id, method: request.method, path: loggedPath(request) }),
      err: safeError,
    },
  };
}

type LoggedRequest = { id: string; method: string; url: string; routeOptions?: { url?: string } };

/**
 * The path a request line shows: the route's pattern when the path holds values
 * (`/api/orders/:reference/events`, not the reference), otherwise the path itself (a page of the
 * site, an unknown path) with anything shaped like an email or a code taken out.
 */
export function loggedPath(request: LoggedRequest): string {
  const pattern = request.routeOptions?.url;
  if (pattern?.includes(':')) return pattern;
  const path = request.url.split('?')[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding: redacted as it came.
  }
  return redactMessage(decoded);
}

export type LoggedError = {
  type: string;
  /** SQLSTATE, a Node or Fastify error code: what an operator searches for. */
  code?: string;
  /** PostgreSQL's names of what failed (schema names, never values). */
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  message: string;
  /** Stack frames only (the first line of a stack repeats the message). */
  stack: string;
  cause?: LoggedError;
};

const IDENTIFIER = /^[\w.:-]{1,80}$/;
const identifier = (value: unknown) => (typeof value === 'string' && IDENTIFIER.test(value) ? value : undefined);

/**
 * What a message may say once values are taken out of it. PostgreSQL quotes the value it refused
 * (`invalid input syntax for type uuid: "…"`), JSON.parse quotes the text, drizzle appends the
 * query's parameters after "params:"; emails, references, codes and hashes are taken out wherever
 * they are.
 */
export function redactMessage(message: string): string {
  const withoutParams = message.startsWith('Failed query') ? 'Failed query' : message.split(/\nparams:/)[0]!;
  return withoutParams
    .split('\n')[0]!
    .replace(/"[^"]*"|'[^']*'|“[^”]*”|«[^»]*»|`[^`]*`/g, '"…"')
    .replace(/[^\s@"'<>()[\]]+@[^\s@"'<>()[\]]+/g, '[email]')
    .replace(/\b[A-Za-z0-9]{4}(?:-?[A-Za-z0-9]{4}){3}\b/g, '[code]')
    .replace(/\b[0-9a-f]{24,}\b/gi, '[hash]')
    .slice(0, 300);
}

/** An error as the logs may show it: its class, codes, schema names, redacted message and stack frames, and its causes. */
export function safeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '(not an Error)', stack: '' };
  const fields = error as Error & Record<string, unknown>;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .slice(0, 12)
    .join('\n');
  const logged: LoggedError = {
    type: error.constructor?.name || error.name,
    message: redactMessage(error.message),
    stack: frames,
  };
  for (const key of ['code', 'constraint', 'table', 'column', 'routine'] as const) {
    const value = identifier(fields[key]);
    if (value) logged[key] = value;
  }
  if (error.cause !== undefined && depth < 3) logged.cause = safeError(error.cause, depth + 1);
  return logged;
}
