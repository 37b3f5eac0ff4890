import * as React from 'react';
import { asTransition } from '../ui/transition';

/** `loadedKey`: the key `data` was loaded for (until the new key's answer arrives, the previous data stays). */
type Loadable<T> = { data: T | null; failed: boolean; error: unknown; loadedKey: string | null };

const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';

/**
 * Loads with `load`, again whenever `key` changes and, with `refreshMs`, every `refreshMs` while
 * the page is visible: a hidden tab asks nothing, and loads once when it is shown again.
 */
export function usePolled<T>(
  load: () => Promise<T>,
  key: string,
  refreshMs?: number,
): Loadable<T> & { reload: () => void } {
  const [state, setState] = React.useState<Loadable<T>>({ data: null, failed: false, error: null, loadedKey: null });
  const [tick, setTick] = React.useState(0);
  React.useEffect(() => {
    let live = true;
    const update = asTransition(setState);
    load().then(
      (data) => live && update({ data, failed: false, error: null, loadedKey: key }),
      (error: unknown) => live && update((previous) => ({ ...previous, failed: true, error })),
    );
    const again = () => setTick((n) => n + 1);
    const onVisible = () => {
      if (visible()) again();
    };
    const timer = refreshMs
      ? window.setTimeout(() => {
          if (visible()) again();
          else document.addEventListener('visibilitychange', onVisible);
        }, refreshMs)
      : undefined;
    return () => {
      live = false;
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
    // `load` is recreated each render; `key` and `tick` say when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, tick, refreshMs]);
  const reload = React.useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}
