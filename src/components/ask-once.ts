import { apiOrigin } from '../config';

/**
 * The server's run-time configuration, asked once per visit (one build serves every
 * configuration): the answer of GET `path`, or undefined when it could not be had — and then
 * asked again on the next page, so a visit that started offline still learns it.
 */
export function askOnce<T>(path: string): () => Promise<T | undefined> {
  let asked: Promise<T | undefined> | undefined;
  return () => {
    asked ??= fetch(`${apiOrigin}${path}`)
      .then(async (response) => (response.ok ? ((await response.json()) as T) : undefined))
      .catch(() => {
        asked = undefined;
        return undefined;
      });
    return asked;
  };
}
