/**
 * Calls `run` in the browser's next idle period (at the latest after `timeoutMs`), with its
 * deadline; Safari has no requestIdleCallback, and a short timer does nearly as well there.
 * Returns a function that cancels it.
 */
function requestIdle(run: (deadline?: IdleDeadline) => void, timeoutMs: number, fallbackMs: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, fallbackMs);
  return () => clearTimeout(handle);
}

/**
 * Runs `work` once the page has loaded and the browser has nothing more urgent to do (at the
 * latest after `timeoutMs`), so that work that can wait (registering the service worker) does
 * not run while the page is still starting up, where it would keep a phone from answering a tap.
 * Returns a function that cancels it.
 */
export function whenIdle(work: () => void, timeoutMs = 3000): () => void {
  if (typeof window === 'undefined') return () => undefined;
  let cancelled = false;
  let cancelScheduled = () => undefined as void;
  const run = () => {
    if (!cancelled) work();
  };
  const schedule = () => {
    if (!cancelled) cancelScheduled = requestIdle(run, timeoutMs, 200);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    cancelScheduled();
  };
}

const queued: (() => void)[] = [];
let draining = false;

/**
 * Runs `job` in the browser's idle time, after the jobs queued before it, as many in one idle
 * period as it has time for and at least one. Many small jobs that would otherwise run back to
 * back in one task (a prefetch for each link that scrolls into view, all released at once when
 * the list of shared chunks arrives) then never keep a phone from answering a tap.
 */
export function queueWhenIdle(job: () => void): void {
  queued.push(job);
  if (draining || typeof window === 'undefined') return;
  draining = true;
  const drain = (deadline?: IdleDeadline) => {
    try {
      do queued.shift()!();
      while (queued.length > 0 && deadline !== undefined && deadline.timeRemaining() > 1);
    } finally {
      // A job that throws does not stop the ones after it.
      if (queued.length > 0) schedule();
      else draining = false;
    }
  };
  const schedule = () => void requestIdle(drain, 2000, 50);
  schedule();
}
