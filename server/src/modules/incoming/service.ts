import { randomBytes } from 'node:crypto';
import { normalizeAddress } from '#domain/addresses';
import { currencyByCode, knownDecimals } from '#domain/currencies';
import { DomainError, unknownCurrency } from '#domain/errors';
import { networkFeeMinor } from '#domain/fees';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { findAccountByEmail, findAccountById } from '../accounts/service';
import { recordAudit } from '../audit/service';
import {
  chainOutputView,
  isHouseAddress,
  lockUnmatchedOutput,
  markOutputAssigned,
  markOutputReturned,
  reopenReturnedOutput,
} from '../chain/service';
import { orderOutflowGate } from '../gates/service';
import { accountsById, bookedTransfer, systemAccount, transfer, userAccount } from '../ledger/service';
import { chainPaymentReceived } from '../orders/intake';
import { chainReturnsOf, requestPayout, type PayoutOutcomes } from '../payouts/service';
import { creditWalletDeposit } from '../wallet/deposits';
import type { ChainOutput } from '#domain/contracts/chain';
import type { ChainDeposit } from '#domain/contracts/ops';
import type { Db, Tx } from '../../db/client';
import type { PayoutApproval } from '../payouts/approval';
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
  if (amount === null || amount <= 0n)
    throw new DomainError(
      'validation_failed',
      'amount',
      `A positive amount with at most ${currency.decimals} decimals.`,
    );
  const txid = input.txid ?? randomBytes(32).toString('hex');
  const shown = { txid, currency: currency.code, address, amount: minorToDecimal(amount, currency.decimals) };
  // The sender, where the watcher reports one, receives a refund: kept in its canonical form too.
  const sender = input.sender ? (normalizeAddress(currency.code, input.sender) ?? undefined) : undefined;

  /** Books it; `target` is what the audit trail names: the wallet's account key, or the order's reference. */
  const book = async (tx: Db): Promise<{ deposit: ChainDeposit; target: string; status?: string }> => {
    const wallet = await creditWalletDeposit(tx, rates, { currency, address, amount, txid });
    if (wallet)
      return {
        deposit: { ...shown, credited: wallet.created, orderReference: null },
        target: (await findAccountById(tx, wallet.ownerId))!.accountKey,
      };
    const funded = await chainPaymentReceived(tx, { currency: currency.code, address, amount, txid, sender });
    if (funded)
      return {
        deposit: { ...shown, credited: funded.created, orderReference: funded.order.reference },
        target: funded.order.reference,
        status: funded.order.status,
      };
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
      after: {
        currency: deposit.currency,
        amount: deposit.amount,
        txid,
        credited: deposit.credited,
        ...(status ? { orderStatus: status } : {}),
      },
    });
    return deposit;
  });
}

/**
 * A credited chain deposit whose block left the chain (a reorg deeper than the confirmations;
 * chain/watcher.ts): the credit is booked back, inside the watcher's transaction, with an alert it
 * raises. From the wallet it was credited to while its balance covers it; otherwise (it was spent,
 * or it paid an order) the house takes the loss on its fees account, and the alert tells the
 * operator to recover it.
 */
export async function chainDepositReversed(
  tx: Tx,
  deposit: { currency: string; txid: string; amount: bigint },
): Promise<{ from: 'wallet' | 'house' }> {
  const credit = await bookedTransfer(tx, `chain-deposit:${deposit.currency}:${deposit.txid}`);
  const chain = (await systemAccount(tx, 'chain', deposit.currency)).id;
  const [credited] = credit ? await accountsById(tx, [credit.creditAccountId]) : [];
  const fromWallet = credited?.ownerId && credited.balance >= deposit.amount;
  await transfer(tx, {
    id: `chain-deposit-reversal:${deposit.currency}:${deposit.txid}`,
    currency: deposit.currency,
    debitAccountId: fromWallet ? credited.id : (await systemAccount(tx, 'fees', deposit.currency)).id,
    creditAccountId: chain,
    amount: deposit.amount,
    code: 'chain_reversal',
    metadata: { txid: deposit.txid, reason: 'reorg' },
  });
  return { from: fromWallet ? 'wallet' : 'house' };
}

/**
 * An operator credits an output of the unmatched chain queue (dust, or coins at an address that
 * expected nothing) to the wallet of the account with this email: from the unmatched account,
 * where the watcher booked it, once (the output is locked and leaves the queue), with the audit trail.
 */
export async function assignChainOutput(
  db: Db,
  input: { currency: string; txid: string; vout: number; email: string },
  actor: string,
): Promise<ChainOutput> {
  return db.transaction(async (tx) => {
    const account = await findAccountByEmail(tx, input.email);
    if (!account) throw new DomainError('not_found', 'email');
    const output = await lockUnmatchedOutput(tx, input);
    if (!output) throw new DomainError('not_found', 'txid', 'No output like this waits in the unmatched chain queue.');
    const outpoint = `${output.txid}:${output.vout}`;
    await transfer(tx, {
      id: `chain-assign:${output.currency}:${outpoint}`,
      currency: output.currency,
      debitAccountId: (await systemAccount(tx, 'unmatched', output.currency)).id,
      creditAccountId: (await userAccount(tx, account.id, output.currency)).id,
      amount: output.amount,
      code: 'deposit',
      metadata: { txid: outpoint, address: output.address, assignedBy: actor },
    });
    await markOutputAssigned(tx, output, account.accountKey);
    await recordAudit(tx, {
      actor,
      action: 'chain.assign',
      target: outpoint,
      after: { currency: output.currency, amount: output.amount.toString(), account: account.accountKey },
    });
    return chainOutputView({ ...output, status: 'assigned', creditedTo: account.accountKey });
  });
}

/**
 * An operator sends an output of the unmatched chain queue back: to the address its sender names
 * (never guessed from the transaction's inputs, which are often an exchange's or a mixer's and
 * would lose the coins). The network fee comes out of the coins; what is left must be more than
 * the fee, so dust, which costs more to send than it holds, stays for assigning. A payout of the
 * outflow gate's `chain_return` path from the unmatched account, judged by four eyes as any
 * payout and paid by the signer; the output leaves the queue, and comes back if the payout fails.
 */
export async function returnChainOutput(
  db: Db,
  approval: PayoutApproval,
  input: { currency: string; txid: string; vout: number; destination: string },
  actor: string,
): Promise<{
  output: ChainOutput;
  payout: { id: string; status: string; amount: string; networkFee: string; destination: string };
}> {
  return db.transaction(async (tx) => {
    const output = await lockUnmatchedOutput(tx, input);
    if (!output) throw new DomainError('not_found', 'txid', 'No output like this waits in the unmatched chain queue.');
    const destination = normalizeAddress(output.currency, input.destination);
    if (!destination) throw new DomainError('invalid_address', 'destination');
    if (await isHouseAddress(tx, output.currency, destination))
      throw new DomainError('invalid_address', 'destination', 'This is one of Muntly’s own addresses.');
    const decimals = knownDecimals(output.currency);
    const fee = networkFeeMinor(output.currency) ?? 0n;
    if (output.amount <= fee) {
      throw new DomainError(
        'network_fee_exceeds_amount',
        'txid',
        `The network fee (${minorToDecimal(fee, decimals)} ${output.currency}) is more than these coins: assign them instead.`,
      );
    }
    const outpoint = `${output.currency}:${output.txid}:${output.vout}`;
    // A return that failed put the output back in the queue: a new one is a new payout.
    const attempt = await chainReturnsOf(tx, outpoint);
    const key = `chain-return:${outpoint}:${attempt}`;
    const unmatched = await systemAccount(tx, 'unmatched', output.currency);
    const payout = await requestPayout(tx, {
      pass: orderOutflowGate('chain_return'),
      rail: 'chain',
      purpose: 'chain_return',
      chainOutput: outpoint,
      currency: output.currency,
      destination,
      amount: output.amount - fee,
      networkFee: fee,
      sourceAccountId: unmatched.id,
      idempotencyKey: key,
      holds: [
        {
          id: key,
          amount: output.amount,
          code: 'refund',
          metadata: { txid: `${output.txid}:${output.vout}`, destination },
        },
      ],
      // An operator's decision: four eyes judge it as any payout, and its trigger cannot approve it.
      approval: { policy: approval, accountId: null, triggeredBy: actor },
    });
    await markOutputReturned(tx, output, payout.id);
    await recordAudit(tx, {
      actor,
      action: 'chain.return',
      target: `${output.txid}:${output.vout}`,
      after: { currency: output.currency, amount: output.amount.toString(), destination, payoutId: payout.id },
    });
    return {
      output: chainOutputView({ ...output, status: 'returned', creditedTo: `payout:${payout.id}` }),
      payout: {
        id: payout.id,
        status: payout.status,
        amount: minorToDecimal(payout.amount, decimals),
        networkFee: minorToDecimal(payout.networkFee, decimals),
        destination,
      },
    };
  });
}

/** A return that failed (or was rejected): its coins are back in the unmatched account, and the output back in the queue. */
export const chainReturnOutcomes: Pick<PayoutOutcomes, 'chain_return'> = {
  chain_return: {
    approved: async () => undefined,
    completed: async () => undefined,
    failed: async (tx, payout) => {
      const [currency, txid, vout] = payout.chainOutput!.split(':');
      await reopenReturnedOutput(tx, { currency: currency!, txid: txid!, vout: Number(vout) });
    },
  },
};
