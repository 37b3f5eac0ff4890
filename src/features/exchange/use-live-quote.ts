import * as React from 'react';
import { errorKeyOf } from '../../app/error-text';
import { postQuote, type QuoteRequest } from './api/quotes';
import type { ErrorCode } from '#domain/errors';
import type { Language } from '#domain/languages';
import type { Quote } from './api/types';

/**
 * The estimate for what the visitor is typing: asked of the API 400 ms after the last change,
 * the previous question cancelled, so the panel always shows the latest input's answer.
 */
export type LiveQuote =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; quote: Quote }
  | { state: 'error'; code: ErrorCode | 'generic' };

export const QUOTE_DEBOUNCE_MS = 400;

export function useLiveQuote(request: QuoteRequest | null, language: Language): LiveQuote {
  const [result, setResult] = React.useState<LiveQuote>({ state: 'idle' });
  const key = request ? JSON.stringify(request) : null;
  React.useEffect(() => {
    if (!key) {
      setResult({ state: 'idle' });
      return;
    }
    setResult({ state: 'loading' });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      postQuote(language, JSON.parse(key) as QuoteRequest, controller.signal).then(
        (quote) => setResult({ state: 'ready', quote }),
        (error: unknown) => {
          if (!controller.signal.aborted) setResult({ state: 'error', code: errorKeyOf(error) });
        },
      );
    }, QUOTE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, language]);
  return result;
}
