import * as React from 'react';

/**
 * The address rules (bech32, base58, keccak, secp256k1: ~35 KB gzipped) load in their own chunk,
 * fetched when a form that checks an address appears (preloadAddressRules); a check made before it
 * has arrived waits for it instead of being skipped.
 */
export const loadAddressRules = () => import('../../domain/addresses');
export const preloadAddressRules = () => void loadAddressRules().catch(() => undefined);

/** The address rules once their chunk has arrived (null until then), for checks made while typing. */
export function useAddressRules(): Awaited<ReturnType<typeof loadAddressRules>> | null {
  const [rules, setRules] = React.useState<Awaited<ReturnType<typeof loadAddressRules>> | null>(null);
  React.useEffect(() => {
    let live = true;
    loadAddressRules().then(
      (loaded) => live && setRules(loaded),
      () => undefined, // offline: the form's submit check reports it
    );
    return () => {
      live = false;
    };
  }, []);
  return rules;
}
