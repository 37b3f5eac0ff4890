/**
 * The address rules (bech32, base58, keccak, secp256k1: ~35 KB gzipped) load in their own chunk,
 * fetched when a form that checks an address appears (preloadAddressRules); a check made before it
 * has arrived waits for it instead of being skipped.
 */
export const loadAddressRules = () => import('../../domain/addresses');
export const preloadAddressRules = () => void loadAddressRules().catch(() => undefined);
