import { minorToDecimal } from '#domain/money';
import { XRP_DECIMALS } from '#domain/xrp';
import { systemAccount } from '../ledger/service';
import { raiseReconciliationAlert } from './service';
import type { Reconciliation } from '#domain/contracts/chain';
import type { Db } from '../../db/client';
import type { XrplNode } from './xrpl-rpc';

/**
 * Reconciliation of XRP (issue 31): the house account's balance in the last validated ledger
 * (account_info) against the ledger's chain account for XRP.
 * - The account reserve (the base reserve plus the owner reserve for each object the account
 *   owns, from server_state) can never be sent: it is the operator's, put there to open the
 *   account, and never users' money. It is taken off the balance before comparing: `onChain` is
 *   what the account can spend, `tracked` its whole balance. Whatever else an operator puts in the
 *   account beyond the reserve shows as a difference until it is booked.
 * - The expected balance is the ledger's: every deposit booked in, every payout booked out (with
 *   the fee its transaction paid), every other fee the house account paid (the watcher's
 *   chain-fee bookings). A validated deposit is booked in the same run that reads it, so nothing is
 *   "mined but not yet credited"; a payout validated but not yet reported completed by the signer
 *   shows as a difference for the seconds in between (a daily run rarely meets one; the alert says
 *   what it saw).
 * A difference is an alert on the console's first page, raised once while it is open.
 */
export async function reconcileXrp(db: Db, node: XrplNode, house: string): Promise<Reconciliation> {
  const state = await node.state();
  if (!state.validated) throw new Error('the XRP server has no validated ledger yet');
  const account = await node.accountInfo(house, 'validated');
  const balance = account?.balance ?? 0n;
  const reserve = account ? state.validated.reserveBase + BigInt(account.ownerCount) * state.validated.reserveInc : 0n;
  const spendable = balance - reserve;
  const chainBalance = (await systemAccount(db, 'chain', 'XRP')).balance;
  const expected = -chainBalance;
  const difference = spendable - expected;
  const result: Reconciliation = {
    currency: 'XRP',
    onChain: minorToDecimal(spendable, XRP_DECIMALS),
    tracked: minorToDecimal(balance, XRP_DECIMALS),
    expected: minorToDecimal(expected, XRP_DECIMALS),
    difference: minorToDecimal(difference, XRP_DECIMALS),
    ok: difference === 0n,
  };
  if (!result.ok)
    await raiseReconciliationAlert(db, 'XRP', {
      ...result,
      reserve: minorToDecimal(reserve, XRP_DECIMALS),
      ledger: state.validated.seq,
    });
  return result;
}
