import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { ApiError } from '../../errors';
import { findByAddress } from './addresses';
import { chainPaymentReceived } from '../orders/processing';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { currencyByCode } from '../../../../domain/currencies';
import { decimalToMinor, minorToDecimal } from '../../../../domain/money';
import { normalizeAddress } from '../../../../domain/addresses';
import { eurValueMinor, type RatesAdapter } from '../rates/service';
import { eur } from '../../../../domain/money';

/**
 * An incoming chain deposit to a reception address, credited through the ledger from the
 * currency's chain account. The transaction id is the idempotency key: the chain watcher (the
 * production adapter) may report a deposit twice; it is credited once.
 */
export async function creditChainDeposit(db: Db, rates: RatesAdapter, input: { currency: string; address: string; amount: string; txid?: string; sender?: string }) {
  const currency = currencyByCode(input.currency.toUpperCase());
  if (!currency) throw new ApiError(400, 'validation_failed', 'currency', 'Unknown currency.');
  const address = normalizeAddress(currency.code, input.address);
  if (!address) throw new ApiError(400, 'invalid_address', 'address');
  const amount = decimalToMinor(input.amount, currency.decimals);
  if (amount === null || amount <= 0n) throw new ApiError(400, 'validation_failed', 'amount', `A positive amount with at most ${currency.decimals} decimals.`);
  const txid = input.txid ?? randomBytes(32).toString('hex');
  const reception = await findByAddress(db, currency.code, address);
  if (!reception) {
    // Not a wallet's address: perhaps the receiving address of a sell or swap order.
    const funded = await chainPaymentReceived(db, { currency: currency.code, address, amount, txid, sender: input.sender });
    if (!funded) throw new ApiError(404, 'not_found', 'address', 'No reception address like this.');
    return { txid, currency: currency.code, address, amount: minorToDecimal(amount, currency.decimals), credited: funded.created, orderReference: funded.order.reference };
  }
  // The EUR value at the time, kept with the transfer for the transaction list.
  const rate = (await rates.current()).rates[currency.code] ?? '0';
  const eurValue = eur(eurValueMinor(amount, currency.decimals, rate));
  const { created } = await db.transaction(async (tx) =>
    transfer(tx as Db, {
      id: `chain-deposit:${currency.code}:${txid}`,
      currency: currency.code,
      debitAccountId: (await systemAccount(tx as Db, 'chain', currency.code)).id,
      creditAccountId: (await userAccount(tx as Db, reception.ownerId, currency.code)).id,
      amount,
      code: 'deposit',
      metadata: { address, txid, label: reception.label, eurValue },
    }),
  );
  return { txid, currency: currency.code, address, amount: minorToDecimal(amount, currency.decimals), credited: created, orderReference: null };
}
