import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { knownDecimals } from '#domain/currencies';
import { exactMinor } from '#domain/money';
import { outbox } from '../db/schema/notify';
import { spendFromHouse } from './simulated-chain';
import type { PayoutRail } from '#domain/payouts';
import type { Db } from '../db/client';
import type { PayoutAdapter } from '../modules/payouts/adapters';

/** A UUID made from the idempotency key, so the simulated outside world records a key once. */
function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The simulated chain and bank: they accept every payout at once. What they "paid" is written to
 * the outbox once per key (a repeated call only counts up `attempts`, which the crash suite
 * reads), and the txid is derived from the key, so a retry answers the same txid. A chain payout
 * (and its network fee) leaves the house's addresses on the simulated chain (simulated-chain.ts).
 */
export function simulatedAdapter(db: Db, rail: PayoutRail): PayoutAdapter {
  return {
    name: `simulated ${rail}`,
    async submit(payout) {
      const txid =
        rail === 'chain'
          ? createHash('sha256').update(`payout:${payout.idempotencyKey}`).digest('hex')
          : `SEPA-${uuidOf(payout.idempotencyKey).slice(0, 18).toUpperCase()}`;
      const message =
        rail === 'chain'
          ? {
              subject: `${payout.currency} ${payout.amount} broadcast`,
              body: `txid ${txid}\nnetwork fee ${payout.networkFee} ${payout.currency}\nidempotency key ${payout.idempotencyKey}`,
            }
          : {
              subject: `SEPA transfer EUR ${payout.amount}`,
              body: `Payment reason: ${payout.reference ?? ''}\nend-to-end id ${txid}\nidempotency key ${payout.idempotencyKey}`,
            };
      await db
        .insert(outbox)
        .values({
          id: uuidOf(payout.idempotencyKey),
          channel: rail,
          recipient: payout.destination ?? 'sender of the original payment',
          ...message,
        })
        .onConflictDoUpdate({ target: outbox.id, set: { attempts: sql`${outbox.attempts} + 1` } });
      if (rail === 'chain') {
        const decimals = knownDecimals(payout.currency);
        await spendFromHouse(db, {
          currency: payout.currency,
          amount: exactMinor(payout.amount, decimals) + exactMinor(payout.networkFee, decimals),
          txid,
        });
      }
      return { status: 'completed', txid };
    },
  };
}
