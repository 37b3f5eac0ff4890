import { createHash } from 'node:crypto';

/**
 * Paying crypto out to an outside address. The API holds no private keys: a production
 * deployment plugs in its signer/broadcaster here (by configuration), locally the simulated chain
 * accepts every payout at once. The idempotency key is the order's payout id, so a retried
 * payout is broadcast once and answers the same transaction id.
 */
export interface ChainAdapter {
  payout(input: { currency: string; address: string; amount: string; idempotencyKey: string }): Promise<{ txid: string }>;
}

export function simulatedChain(): ChainAdapter {
  return {
    async payout({ idempotencyKey }) {
      return { txid: createHash('sha256').update(`payout:${idempotencyKey}`).digest('hex') };
    },
  };
}
