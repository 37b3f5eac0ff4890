/**
 * Runs `work` once the page has loaded and the browser has nothing more urgent to do (at the
 * latest after `timeoutMs`), so that code fetched ahead of need (the order confirmation, the
 * address rules, the identity form) is not evaluated while the page is still starting up, where
 * it would keep a phone from answering a tap. Returns a function that cancels it.
 */
export function whenIdle(work: () => void, timeoutMs = 3000): () => void {
  if (typeof window === 'undefined') return () => undefined;
  let cancelled = false;
  let cancelScheduled = () => undefined as void;
  const run = () => {
    if (!cancelled) work();
  };
  const schedule = () => {
    if (cancelled) return;
    // Safari has no requestIdleCallback: a short timer after the load event does nearly as well.
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(run, { timeout: timeoutMs });
      cancelScheduled = () => window.cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(run, 200);
      cancelScheduled = () => clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    cancelScheduled();
  };
}
