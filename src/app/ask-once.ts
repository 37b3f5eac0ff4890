import { apiOrigin } from '../config';

/** Every asker's way to forget its answer: a new visit (each test case starts as one). */
const forgetters = new Set<() => void>();

/**
 * The server's run-time configuration, asked once per visit (one build serves every
 * configuration): the answer of GET `path`, or undefined when it could not be had — and then
 * asked again on the next call, so a visit that started offline or met a failing server still
 * learns it. `absent` is the answer of a server without the endpoint (404): an older API.
 */
export function askOnce<T>(path: string, options: { absent?: T } = {}): () => Promise<T | undefined> {
  let asked: Promise<T | undefined> | undefined;
  forgetters.add(() => {
    asked = undefined;
  });
  const failed = () => {
    asked = undefined;
    return undefined;
  };
  return () => {
    asked ??= fetch(`${apiOrigin}${path}`)
      .then(async (response) => {
        if (response.ok) return (await response.json()) as T;
        if (response.status === 404 && options.absent !== undefined) return options.absent;
        return failed();
      })
      .catch(failed);
    return asked;
  };
}

/** Forgets every answer, as a new visit would. */
export function forgetAnswers(): void {
  for (const forget of forgetters) forget();
}
