import { randomBytes } from 'node:crypto';
import { normalizeAddress } from '../../../../domain/addresses';
import { currencyByCode } from '../../../../domain/currencies';
import { DomainError, unknownCurrency } from '../../../../domain/errors';
import { decimalToMinor, minorToDecimal } from '../../../../domain/money';
import { findAccountById } from '../accounts/service';
import { recordAudit } from '../audit/service';
import { chainPaymentReceived } from '../orders/intake';
import { creditWalletDeposit } from '../wallet/deposits';
import type { ChainDeposit } from '../../../../domain/contracts/ops';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

/**
 * Crypto arrived on the chain at one of the house key's addresses (the production chain watcher
 * and `npm run ops -- chain-deposit` both call this). Every such address serves one purpose: a
 * wallet's reception address, credited to its owner, or the receiving address of a sell or swap
 * order, which then proceeds. This module sits above wallet and orders so that neither needs the
 * other.
 */
export async function chainDepositArrived(
  db: Db,
  rates: RatesAdapter,
  input: { currency: string; address: string; amount: string; txid?: string; sender?: string },
  actor?: string,
): Promise<ChainDeposit> {
  const currency = currencyByCode(input.currency.toUpperCase());
  if (!currency) throw unknownCurrency('currency');
  const address = normalizeAddress(currency.code, input.address);
  if (!address) throw new DomainError('invalid_address', 'address');
  const amount = decimalToMinor(input.amount, currency.decimals);
  if (amount === null || amount <= 0n) throw new DomainError('validation_failed', 'amount', `A positive amount with at most ${currency.decimals} decimals.`);
  const txid = input.txid ?? randomBytes(32).toString('hex');
  const shown = { txid, currency: currency.code, address, amount: minorToDecimal(amount, currency.decimals) };
  // The sender, where the watcher reports one, receives a refund: kept in its canonical form too.
  const sender = input.sender ? (normalizeAddress(currency.code, input.sender) ?? undefined) : undefined;

  /** Books it; `target` is what the audit trail names: the wallet's account key, or the order's reference. */
  const book = async (tx: Db): Promise<{ deposit: ChainDeposit; target: string; status?: string }> => {
    const wallet = await creditWalletDeposit(tx, rates, { currency, address, amount, txid });
    if (wallet) return { deposit: { ...shown, credited: wallet.created, orderReference: null }, target: (await findAccountById(tx, wallet.ownerId))!.accountKey };
    const funded = await chainPaymentReceived(tx, { currency: currency.code, address, amount, txid, sender });
    if (funded) return { deposit: { ...shown, credited: funded.created, orderReference: funded.order.reference }, target: funded.order.reference, status: funded.order.status };
    throw new DomainError('not_found', 'address', 'No reception address like this.');
  };

  // The chain watcher reports on its own; an operator's report is written to the audit trail with it.
  if (!actor) return (await book(db)).deposit;
  return db.transaction(async (tx) => {
    const { deposit, target, status } = await book(tx);
    await recordAudit(tx, {
      actor,
      action: 'chain.deposit',
      target,
      after: { currency: deposit.currency, amount: deposit.amount, txid, credited: deposit.credited, ...(status ? { orderStatus: status } : {}) },
    });
    return deposit;
  });
}
