/**
 * A page's script chunk that cannot be fetched (a deploy replaced it, the connection dropped)
 * must send the visitor to the page they clicked, by a full load of its address.
 *
 * Gatsby's own handler (cache-dir/navigation.js) listens for the failed chunk's unhandled
 * rejection and sets `location.pathname` to the last page it *rendered*: the page the visitor
 * came from, and that assignment cancels the full load of the target that its navigate() starts
 * a moment before. Ours is added first and stops it. It then loads the target itself, once per
 * target and session: when the chunk
 * keeps failing, the target's server-rendered page stays as it is instead of reloading again
 * and again. A chunk failing outside a navigation (a prefetch of a link in view) changes nothing:
 * the click retries it.
 */

/** The error webpack rejects with when a script or stylesheet chunk does not load. */
export function isChunkLoadFailure(reason: unknown): boolean {
  const error = reason as { name?: unknown; message?: unknown } | null | undefined;
  if (error?.name === 'ChunkLoadError') return true;
  const message = typeof reason === 'string' ? reason : typeof error?.message === 'string' ? error.message : '';
  return /loading (css )?chunk [\w-]* ?failed/i.test(message);
}

export const RELOADED_KEY = 'muntly:chunk-reloaded';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

/** Whether to load `target` in full now: the first time this session only (`storage` remembers). */
export function shouldLoadInFull(target: string, storage: Storage | undefined): boolean {
  // Without a memory a chunk that keeps failing could reload the page for ever.
  if (!storage) return false;
  let tried: unknown;
  try {
    tried = JSON.parse(storage.getItem(RELOADED_KEY) ?? '[]');
  } catch {
    tried = [];
  }
  if (!Array.isArray(tried)) tried = [];
  if ((tried as unknown[]).includes(target)) return false;
  try {
    storage.setItem(RELOADED_KEY, JSON.stringify([...(tried as unknown[]), target].slice(-50)));
  } catch {
    // Storage refused (private mode, quota): without memory a failing chunk could loop, so do not load.
    return false;
  }
  return true;
}

type Loader = { loadPage: (path: string) => Promise<unknown> };

/** The page the current navigation is loading (set by trackNavigations), until it has loaded. */
let target: string | undefined;

/**
 * Listens for failed chunks. Must run before Gatsby's navigation module registers its own listener
 * (gatsby-browser's module scope does: Gatsby's modules import the plugins' first), because
 * listeners on `window` run in the order they were added, capture phase or not (Chromium 156
 * checked: a capturing listener added later still runs after).
 */
export function handleChunkFailures(win: Window): void {
  const session = (() => {
    try {
      return win.sessionStorage;
    } catch {
      return undefined;
    }
  })();
  win.addEventListener('unhandledrejection', (event) => {
    if (!isChunkLoadFailure(event.reason)) return;
    // Handled here: Gatsby's listener would send the visitor back to the page they came from.
    event.stopImmediatePropagation();
    event.preventDefault();
    const to = target;
    target = undefined;
    if (to && to.split(/[?#]/)[0] !== win.location.pathname && shouldLoadInFull(to, session)) win.location.assign(to);
  });
}

/** Gatsby's public loader: every navigation calls its loadPage first, with the page the visitor clicked. */
export function trackNavigations(loader: Loader): void {
  const loadPage = loader.loadPage.bind(loader);
  loader.loadPage = (path) => {
    target = path;
    const loading = loadPage(path);
    void loading.then(
      () => {
        if (target === path) target = undefined;
      },
      () => undefined,
    );
    return loading;
  };
}
