import { apiOrigin } from '../config';
import type { ErrorCode, ErrorBody } from '#domain/errors';
import type { Language } from '#domain/languages';

/**
 * Calls to the product API from the islands: bearer token, the page language (for the messages
 * the API sends), and the API's error code and field on failure.
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    /** The API's error code (domain/errors.ts), or generic when the answer carried none. */
    readonly code: ErrorCode | 'generic',
    readonly field?: string,
    /** Seconds until the request may succeed (a limit that lifts with time). */
    readonly retryAfter?: number,
  ) {
    super(code);
  }
}

/** `token` null: an anonymous call (exchange orders, lookups, quotes). */
export async function apiRequest<T>(
  token: string | null,
  language: Language,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<T> {
  const response = await fetch(`${apiOrigin}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'accept-language': language,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  if (!response.ok) {
    const payload = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
    throw new ApiFailure(
      response.status,
      payload.error?.code ?? 'generic',
      payload.error?.field,
      payload.error?.retryAfter,
    );
  }
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? response.json() : response.text()) as Promise<T>;
}
