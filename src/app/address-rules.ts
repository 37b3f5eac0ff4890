import * as React from 'react';

/**
 * The address rules (bech32, base58, keccak, secp256k1: ~35 KB gzipped) are in their own chunk.
 * The browser downloads it in its idle time once a page with a form that checks an address has
 * started (webpack's prefetch link), but it runs only when a check needs it: setting up its
 * curves takes about 50 ms on a fast machine, several times that on a phone, which must not
 * happen while the page starts and the visitor may be tapping. A check made before it has
 * arrived waits for it instead of being skipped.
 */
export const loadAddressRules = () => import(/* webpackPrefetch: true */ '../../domain/addresses');

/**
 * The address rules once they have run (null until then), for checks made while typing: loaded
 * when `needed` (an address has been typed).
 */
export function useAddressRules(needed = false): Awaited<ReturnType<typeof loadAddressRules>> | null {
  const [rules, setRules] = React.useState<Awaited<ReturnType<typeof loadAddressRules>> | null>(null);
  const arrived = rules !== null;
  React.useEffect(() => {
    if (arrived) return undefined;
    let live = true;
    const load = () =>
      void loadAddressRules().then(
        (loaded) => live && setRules(loaded),
        () => undefined, // offline: the form's submit check reports it
      );
    if (needed) load();
    return () => {
      live = false;
    };
  }, [needed, arrived]);
  return rules;
}
