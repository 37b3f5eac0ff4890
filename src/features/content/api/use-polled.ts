import * as React from 'react';

type Loadable<T> = { data: T | null; failed: boolean };

/** Loads with `load`, again every `refreshMs` (if given) and whenever `key` changes. */
export function usePolled<T>(load: () => Promise<T>, key: string, refreshMs?: number): Loadable<T> & { reload: () => void } {
  const [state, setState] = React.useState<Loadable<T>>({ data: null, failed: false });
  const [tick, setTick] = React.useState(0);
  React.useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data, failed: false }),
      () => live && setState((previous) => ({ data: previous.data, failed: true })),
    );
    const timer = refreshMs ? window.setTimeout(() => setTick((n) => n + 1), refreshMs) : undefined;
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // `load` is recreated each render; `key` and `tick` say when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, tick, refreshMs]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}
