import type { PayoutRail, PayoutResult } from '#domain/payouts';

/**
 * Where payouts go. The API holds no private keys and no bank credentials: an adapter hands a
 * payout to whoever executes it and says what became of it. Each is called outside any database
 * transaction, and may be called again for the same payout (a worker died before booking the
 * answer): the idempotency key is the same every time, and an adapter must answer a repeated key
 * with the first answer, never pay twice.
 *
 * - `simulated` (local mode, server/src/dev/simulated-payouts.ts): the simulated chain or bank
 *   pays at once and writes what it paid to the outbox (channels `chain` and `bank`), once per
 *   idempotency key.
 * - `external` (production): the payout waits for an outside executor — the signer for crypto,
 *   the operator's bank for euros — which lists submitted payouts through the ops API and reports
 *   a txid or a failure back (`GET /api/ops/payouts`, `POST /api/ops/payouts/:id/result`).
 *
 * An adapter answers `completed`, `failed` (refused for good: the money goes back), or
 * `submitted` (the answer comes later); it throws when it cannot be reached (tried again later).
 */
export type PayoutInstruction = {
  id: string;
  rail: PayoutRail;
  currency: string;
  /** Address (XRP: address:tag) or IBAN; null: back to the account a bank payment came from. */
  destination: string | null;
  reference: string | null;
  /** Decimal strings in the currency's unit. */
  amount: string;
  networkFee: string;
  idempotencyKey: string;
};

export interface PayoutAdapter {
  readonly name: string;
  submit(payout: PayoutInstruction): Promise<PayoutResult>;
}

export type PayoutAdapters = Record<PayoutRail, PayoutAdapter>;

/** Production: the payout waits for the signer or the bank, which report back through the ops API. */
export function externalAdapter(rail: PayoutRail): PayoutAdapter {
  return {
    name: rail === 'chain' ? 'external signer' : 'external bank',
    async submit() {
      return { status: 'submitted' };
    },
  };
}
