/**
 * Exchange fees (docs/decisions/0005) in basis points of the order amount. Bank and network fees
 * are extra; none from or to the Muntly wallet; internal wallet transfers are free.
 */
export const FEES = {
  buy: { basisPoints: 150, minimumEurMinor: 200n },
  sell: { basisPoints: 150, minimumEurMinor: 0n },
  swap: { basisPoints: 50, minimumEurMinor: 0n },
} as const;

export type OrderType = keyof typeof FEES;

/**
 * Network fee estimates for sends to external wallets, in each currency's minor units. None for
 * sends to another Muntly wallet. ETH: a standard transfer (21,000 gas) at 20 gwei.
 */
export const ETH_GAS_LIMIT = 21_000n;
export const GWEI = 1_000_000_000n;
export const NETWORK_FEES_MINOR: Record<string, bigint> = {
  BTC: 2_000n, // 0.00002 BTC
  ETH: ETH_GAS_LIMIT * 20n * GWEI, // 21,000 gas × 20 gwei = 0.00042 ETH, in wei (18 decimals)
  XRP: 12n, // 0.000012 XRP
  BCH: 1_000n, // 0.00001 BCH
  LTC: 10_000n, // 0.0001 LTC
  DOGE: 100_000_000n, // 1 DOGE
};

/**
 * The network fee charged now: where a real node estimates it (the server sets it from the node's
 * fee estimate, with the operator's margin: chain/fees.ts), that; else the estimate above. Quotes,
 * orders and sends all read it here, so a quote states the fee the order will be charged.
 */
const liveNetworkFees = new Map<string, bigint>();
export function networkFeeMinor(currency: string): bigint | undefined {
  return liveNetworkFees.get(currency) ?? NETWORK_FEES_MINOR[currency];
}
export function setNetworkFee(currency: string, minor: bigint | null): void {
  if (minor === null) liveNetworkFees.delete(currency);
  else liveNetworkFees.set(currency, minor);
}

/**
 * The fee levels Muntly can show and charge (docs/decisions/0005): 0 % to 3 %
 * in steps of 0.25 %, each also with a "min 2.00 EUR" variant. The fees page lists them and
 * marks the levels that FEES uses, so the list and the rules come from one place.
 */
export const FEE_OPTION_STEP_BASIS_POINTS = 25;
export const FEE_OPTION_MAX_BASIS_POINTS = 300;
export const FEE_OPTION_MINIMUM_EUR_MINOR = 200n; // 2.00 EUR
export type FeeOption = { basisPoints: number; minimumEurMinor: bigint };

export function feeDisplayOptions(): FeeOption[] {
  const options: FeeOption[] = [];
  for (let basisPoints = 0; basisPoints <= FEE_OPTION_MAX_BASIS_POINTS; basisPoints += FEE_OPTION_STEP_BASIS_POINTS) {
    options.push({ basisPoints, minimumEurMinor: 0n }, { basisPoints, minimumEurMinor: FEE_OPTION_MINIMUM_EUR_MINOR });
  }
  return options;
}

/** The order types whose fee is this level (empty for a level Muntly does not use now). */
export function orderTypesAt(option: FeeOption): OrderType[] {
  return (Object.keys(FEES) as OrderType[]).filter(
    (type) => FEES[type].basisPoints === option.basisPoints && FEES[type].minimumEurMinor === option.minimumEurMinor,
  );
}
