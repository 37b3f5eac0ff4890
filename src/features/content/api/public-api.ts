import { ApiFailure } from '../../../app/api';
import { apiOrigin } from '../../../config';
import type { ErrorBody } from '#domain/errors';
import type { Language } from '#domain/languages';

/**
 * Calls to the public part of the API (no login): rates, status, the support form. Failures
 * carry the API's error code and field, like the logged-in calls in app/api.ts.
 */
export async function publicRequest<T>(language: Language, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiOrigin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'accept-language': language, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const payload = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
    throw new ApiFailure(response.status, payload.error?.code ?? 'generic', payload.error?.field);
  }
  return (await response.json()) as T;
}

export { ApiFailure };
