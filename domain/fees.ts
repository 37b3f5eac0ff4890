/**
 * Exchange fees (spec section 9) in basis points of the order amount. Bank and network fees
 * are extra; none from or to the Muntly wallet; internal wallet transfers are free.
 */
export const FEES = {
  buy: { basisPoints: 150, minimumEurMinor: 200n },
  sell: { basisPoints: 150, minimumEurMinor: 0n },
  swap: { basisPoints: 50, minimumEurMinor: 0n },
} as const;

export type OrderType = keyof typeof FEES;
