/** bchaddrjs (used by the tests as an independent translator between BCH address forms) ships no types. */
declare module 'bchaddrjs' {
  export function toLegacyAddress(address: string): string;
  export function toCashAddress(address: string): string;
  export function isCashAddress(address: string): boolean;
}
