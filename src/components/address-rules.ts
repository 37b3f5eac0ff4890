import * as React from 'react';
import { whenIdle } from './when-idle';

/**
 * The address rules (bech32, base58, keccak, secp256k1: ~35 KB gzipped) load in their own chunk,
 * fetched when a form that checks an address appears (preloadAddressRules); a check made before it
 * has arrived waits for it instead of being skipped.
 */
export const loadAddressRules = () => import('../../domain/addresses');
/** Fetches the rules once the page is idle; returns the cancel (an effect's clean-up). */
export const preloadAddressRules = () => whenIdle(() => void loadAddressRules().catch(() => undefined));

/**
 * The address rules once their chunk has arrived (null until then), for checks made while typing:
 * fetched when the page is idle, or at once when `needed` (an address has been typed).
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
    const cancel = needed ? (load(), () => undefined) : whenIdle(load);
    return () => {
      live = false;
      cancel();
    };
  }, [needed, arrived]);
  return rules;
}
