import { eur } from '#domain/money';
import { eurValueMinor } from '#domain/quotes';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { findByAddress } from './addresses';
import type { Currency } from '#domain/currencies';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

export type ChainPayment = { currency: Currency; address: string; amount: bigint; txid: string };

/**
 * A chain deposit to a wallet's reception address, credited through the ledger from the
 * currency's chain account. The transaction id is the idempotency key: the chain watcher (the
 * production adapter) may report a deposit twice; it is credited once. Null when the address is
 * not a wallet's.
 */
export async function creditWalletDeposit(
  db: Db,
  rates: RatesAdapter,
  payment: ChainPayment,
): Promise<{ created: boolean; ownerId: string } | null> {
  const { currency, address, amount, txid } = payment;
  const reception = await findByAddress(db, currency.code, address);
  if (!reception) return null;
  // The EUR value at the time, kept with the transfer for the transaction list.
  const rate = (await rates.current()).rates[currency.code] ?? '0';
  const eurValue = eur(eurValueMinor(amount, currency.decimals, rate));
  const { created } = await db.transaction(async (tx) =>
    transfer(tx, {
      id: `chain-deposit:${currency.code}:${txid}`,
      currency: currency.code,
      debitAccountId: (await systemAccount(tx, 'chain', currency.code)).id,
      creditAccountId: (await userAccount(tx, reception.ownerId, currency.code)).id,
      amount,
      code: 'deposit',
      metadata: { address, txid, label: reception.label, eurValue },
    }),
  );
  return { created, ownerId: reception.ownerId };
}
