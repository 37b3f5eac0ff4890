import { createHash, randomBytes } from 'node:crypto';
import { normalizeAddress, xrpAccountOf } from '#domain/addresses';
import { codeFromBytes, normalizeCode } from '#domain/codes';
import { currencyByCode, type Currency, knownDecimals } from '#domain/currencies';
import { DomainError, unknownCurrency, type ErrorCode } from '#domain/errors';
import { CODE_TTL_MINUTES } from '#domain/identity';
import { isLanguage, type Language } from '#domain/languages';
import { decimalToMinor, minorToDecimal, eur } from '#domain/money';
import { eurValueMinor } from '#domain/quotes';
import { externalNetworkFeeMinor } from '#domain/wallet';
import { judgeCode, codeRefusal } from '../../one-time-codes';
import { findAccountById } from '../accounts/service';
import { walletOutflowGate, type Login, type OutflowPass } from '../gates/service';
import { requireVerifications } from '../identity/service';
import { transfer, userAccount } from '../ledger/service';
import { formatMoney } from '../notify/service';
import { requestPayout, type PayoutOutcomes } from '../payouts/service';
import { sendSecurityEmail } from '../protection/mail';
import { findByAddress } from './addresses';
import { walletRepository, type SendRow } from './repository';
import type { SendFee, WalletSend } from '#domain/contracts/wallet';
import type { Db, Tx } from '../../db/client';
import type { AccountRow } from '../accounts/service';
import type { PayoutApproval } from '../payouts/approval';
import type { SecurityLinks } from '../protection/links';
import type { SendProtection } from '../protection/service';
import type { RatesAdapter } from '../rates/service';

/**
 * Sends from the wallet. Invariants:
 * - money moves only when the send's own code is accepted, in the same transaction that marks
 *   the send processing, so a send is booked at most once and the ledger refuses any overdraft,
 *   whatever requests run at the same time;
 * - the code is single use, bound to this send, valid 10 minutes, dead after 5 wrong attempts;
 * - the same Idempotency-Key returns the same send (no second send, no second email);
 * - every send passes the outflow gate (modules/gates) when it starts and again, with the login,
 *   in the transaction that books it: account protection (not frozen, no cool-down, in allow-list
 *   mode only to an address-book entry past its hold, a recent login, a second factor once the
 *   day's outflows pass the limit), the balance and the week's verifications.
 */
export type { SendProtection };

export type { SendRow };

export const sendCodeHash = (sendId: string, code: string) =>
  createHash('sha256').update(`send:${sendId}:${code}`).digest('hex');
const hash = sendCodeHash;

/** Operators: an account's newest sends, whatever their status. */
export const recentSendsOf = (db: Db, ownerId: string, limit: number) =>
  walletRepository.recentSends(db, ownerId, limit);

export function sendView(row: SendRow): WalletSend {
  const decimals = knownDecimals(row.currency);
  return {
    id: row.id,
    status: row.status,
    currency: row.currency,
    address: row.address,
    amount: minorToDecimal(row.amount, decimals),
    networkFee: minorToDecimal(row.networkFee, decimals),
    internal: row.recipientId !== null,
    label: row.label,
    txid: row.txid,
  };
}

/** A currency a send can be made in: a listed one, fully supported. */
function sendableCurrency(code: string): Currency {
  const currency = currencyByCode(code.toUpperCase());
  if (!currency) throw unknownCurrency('currency');
  if (currency.support === 'partial') throw new DomainError('currency_partially_supported', 'currency');
  return currency;
}

/**
 * Where a send to an address (in its canonical form) goes, the one rule for it: to another
 * Muntly wallet when the address is one of another user's reception addresses — internal,
 * booked at once and without network fee — else out to the chain with the currency's network fee.
 */
async function destinationOf(
  db: Db,
  account: AccountRow,
  houseXrpAddress: string,
  currency: string,
  address: string,
): Promise<{ recipientId: string | null; networkFee: bigint }> {
  // The canonical form finds the Muntly wallet it belongs to, however it was typed.
  const recipient = await findByAddress(db, currency, address);
  if (recipient?.ownerId === account.id) throw new DomainError('send_to_own_address', 'address');
  // All of Muntly's XRP is in one account, told apart by tag: a payment from it to itself cannot
  // exist on the XRP Ledger, so a tag no wallet has is refused rather than paid out.
  if (currency === 'XRP' && !recipient && xrpAccountOf(address) === houseXrpAddress)
    throw new DomainError('unknown_destination_tag', 'address');
  return recipient
    ? { recipientId: recipient.ownerId, networkFee: 0n }
    : { recipientId: null, networkFee: externalNetworkFeeMinor(currency) };
}

/**
 * The network fee a send to this address would pay, before it is started: none to another
 * Muntly wallet. Asked by the send form while the address is typed, so it says so in advance.
 * Only for a user who may send (what it tells is what starting the send would tell).
 */
export async function sendFee(
  db: Db,
  input: { account: AccountRow; houseXrpAddress: string; currency: string; address: string },
): Promise<SendFee> {
  const currency = sendableCurrency(input.currency);
  await requireVerifications(db, input.account.id, { usesWallet: true });
  const address = normalizeAddress(currency.code, input.address);
  if (!address) throw new DomainError('invalid_address', 'address');
  const { recipientId, networkFee } = await destinationOf(
    db,
    input.account,
    input.houseXrpAddress,
    currency.code,
    address,
  );
  return {
    currency: currency.code,
    networkFee: minorToDecimal(networkFee, currency.decimals),
    internal: recipientId !== null,
  };
}

export async function createSend(
  db: Db,
  rates: RatesAdapter,
  input: {
    account: AccountRow;
    houseXrpAddress: string;
    currency: string;
    address: string;
    amount: string;
    label?: string;
    idempotencyKey?: string;
    language: Language;
    protection: SendProtection;
  },
) {
  const { account } = input;
  if (input.idempotencyKey) {
    const existing = await walletRepository.findSendByIdempotencyKey(db, account.id, input.idempotencyKey);
    if (existing) return { send: existing, created: false };
  }
  const currency = sendableCurrency(input.currency);
  const address = normalizeAddress(currency.code, input.address);
  if (!address) throw new DomainError('invalid_address', 'address');
  const amount = decimalToMinor(input.amount.trim(), currency.decimals);
  if (amount === null || amount <= 0n) throw new DomainError('invalid_amount', 'amount');
  const { recipientId, networkFee } = await destinationOf(db, account, input.houseXrpAddress, currency.code, address);
  const { rates: current } = await rates.current();
  // Said early, so the user hears before waiting for a code; judged again, with the login, when
  // the code is given (sends created first and confirmed later are counted there).
  await db.transaction((tx) =>
    walletOutflowGate(
      tx,
      { rates, protection: input.protection.settings },
      {
        path: 'wallet_send',
        accountId: account.id,
        currency: currency.code,
        destination: { currency: currency.code, address },
        internal: recipientId !== null,
        debitMinor: amount + networkFee,
        eurValueMinor: eurValueMinor(amount, currency.decimals, current[currency.code] ?? '0'),
      },
    ),
  );

  let code: string | null = null;
  while (!code) code = codeFromBytes(randomBytes(32));
  return db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    const row = await walletRepository.insertSend(tx, {
      id,
      ownerId: account.id,
      currency: currency.code,
      address,
      amount,
      networkFee,
      label: input.label ?? null,
      recipientId,
      idempotencyKey: input.idempotencyKey ?? null,
      codeHash: hash(id, code),
      codeExpiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
      language: input.language,
    });
    if (!row) {
      // The same Idempotency-Key arrived twice at once: the other request created it.
      const existing = await walletRepository.findSendByIdempotencyKey(tx, account.id, input.idempotencyKey!);
      return { send: existing!, created: false };
    }
    const view = sendView(row);
    // A security email: with the code, a link that freezes every send if this one is not the user's.
    await sendSecurityEmail(tx, input.protection.links, {
      accountId: account.id,
      email: account.email,
      language: input.language,
      key: 'sendCode',
      // Named by what the user asked for, never by its internal id.
      values: {
        code,
        amount: formatMoney(input.language, view.amount, currency.code),
        fee: formatMoney(input.language, view.networkFee, currency.code),
        shortAddress: shortAddress(address),
        address,
      },
    });
    return { send: row, created: true };
  });
}

/** An address short enough for a sentence, its start and end kept to recognize it ("bc1qcr8t…306fyu"). */
export function shortAddress(address: string): string {
  return address.length <= 16 ? address : `${address.slice(0, 8)}…${address.slice(-6)}`;
}

type Outcome =
  { ok: true; send: SendRow } | { ok: false; code: ErrorCode; message?: string; field?: string; retryAfter?: number };

/**
 * Accepts the code and books the send, or counts a wrong attempt (committed before answering).
 * Refused before the code is judged (no attempt spent): a login older than the limit
 * (login_required_recent: log in again, then confirm with the same code); a send above the limit
 * without a second factor in the login; a frozen account, a cool-down, an address the book no
 * longer allows. A send out to the chain whose payout must wait for two operators' approval is
 * awaiting_approval.
 */
export async function confirmSend(
  db: Db,
  deps: { rates: RatesAdapter; approval: PayoutApproval },
  input: {
    account: Pick<AccountRow, 'id' | 'email'>;
    sendId: string;
    code: string;
    login: Login;
    protection: SendProtection;
  },
) {
  const { rates } = deps;
  const ownerId = input.account.id;
  if (!/^[0-9a-f-]{36}$/i.test(input.sendId)) throw new DomainError('not_found');
  const code = normalizeCode(input.code);
  if (!code) throw new DomainError('invalid_code_format', 'code');
  const { rates: current } = await rates.current();
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const send = await walletRepository.lockSend(tx, ownerId, input.sendId);
    if (!send) return { ok: false, code: 'not_found' };
    if (send.status !== 'awaiting_code') return { ok: false, code: 'send_not_pending', field: 'code' };
    const decimals = knownDecimals(send.currency);
    const eurValue = eurValueMinor(send.amount, decimals, current[send.currency] ?? '0');
    // The outflow gate, with the login: under the protection row's lock (a freeze waits for this
    // transaction, or this one sees it) and the customer's (confirmations of this owner's sends
    // and orders are judged one after another, each seeing the one before).
    let pass: OutflowPass;
    try {
      pass = await walletOutflowGate(
        tx,
        { rates, protection: input.protection.settings },
        {
          path: 'wallet_send',
          accountId: ownerId,
          currency: send.currency,
          destination: { currency: send.currency, address: send.address },
          internal: send.recipientId !== null,
          debitMinor: send.amount + send.networkFee,
          eurValueMinor: eurValue,
          login: input.login,
        },
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { ok: false, code: error.code, field: error.field, retryAfter: error.retryAfter };
    }
    const verdict = judgeCode(
      { hash: send.codeHash, attempts: send.codeAttempts, expiresAt: send.codeExpiresAt },
      hash(send.id, code),
    );
    if (verdict.kind === 'wrong') await walletRepository.setCodeAttempts(tx, send.id, verdict.attempts);
    if (verdict.kind !== 'valid') return { ok: false, ...codeRefusal(verdict), field: 'code' };
    if (send.recipientId === send.ownerId) {
      // Created before sends to one's own address were refused: it fails instead of booking a
      // transfer from an account to itself.
      await walletRepository.failAtConfirmation(tx, send.id, new Date());
      return { ok: false, code: 'send_to_own_address', field: 'code' };
    }
    const metadata = {
      address: send.address,
      label: send.label,
      fee: minorToDecimal(send.networkFee, decimals),
      eurValue: eur(eurValue),
      sendId: send.id,
    };
    const from = await userAccount(tx, send.ownerId, send.currency);
    let awaitingApproval = false;
    try {
      await tx.transaction(async (booking) => {
        if (send.recipientId) {
          // To another Muntly wallet: booked here and done; nothing leaves the ledger.
          const to = await userAccount(booking, send.recipientId, send.currency);
          await transfer(booking, {
            id: `send:${send.id}`,
            currency: send.currency,
            debitAccountId: from.id,
            creditAccountId: to.id,
            amount: send.amount,
            code: 'internal',
            metadata,
          });
          return;
        }
        // Out to the chain: held for the payout, which the payout worker hands to the adapter.
        const payout = await requestPayout(booking, {
          pass,
          rail: 'chain',
          purpose: 'send',
          sendId: send.id,
          currency: send.currency,
          destination: send.address,
          amount: send.amount,
          networkFee: send.networkFee,
          sourceAccountId: from.id,
          idempotencyKey: `send:${send.id}`,
          holds: [
            { id: `send:${send.id}`, amount: send.amount, code: 'send', metadata },
            // The fee's row carries the fee's own value, so that a sum of the rows' values counts the send once.
            {
              id: `send-fee:${send.id}`,
              amount: send.networkFee,
              code: 'fee',
              metadata: {
                ...metadata,
                eurValue: eur(eurValueMinor(send.networkFee, decimals, current[send.currency] ?? '0')),
              },
            },
          ],
          approval: { policy: deps.approval, accountId: send.ownerId },
        });
        awaitingApproval = payout.status === 'awaiting_approval';
      });
    } catch (error) {
      // The gate saw the balance under the customer's lock; the ledger's constraint is the last word.
      if (!(error instanceof DomainError) || error.code !== 'insufficient_balance') throw error;
      await walletRepository.failAtConfirmation(tx, send.id, new Date());
      return { ok: false, code: 'insufficient_balance', field: 'code' };
    }
    const status = send.recipientId ? 'completed' : awaitingApproval ? 'awaiting_approval' : 'processing';
    const now = new Date();
    const updated = await walletRepository.markConfirmed(tx, send.id, {
      status,
      confirmedAt: now,
      eurValue,
      ...(status === 'completed' ? { completedAt: now } : {}),
    });
    // An internal send is complete now: its email says so (an external one's, when its payout completes).
    if (status === 'completed') await mailSendCompleted(tx, input.protection.links, updated!, input.account.email);
    return { ok: true, send: updated! };
  });
  if (!outcome.ok) throw new DomainError(outcome.code, outcome.field, outcome.message, outcome.retryAfter);
  return outcome.send;
}

/** "Your send is complete", with a freeze link: a security email. */
async function mailSendCompleted(tx: Tx, links: SecurityLinks, send: SendRow, email: string | null): Promise<void> {
  const language = (isLanguage(send.language) ? send.language : 'en') as Language;
  await sendSecurityEmail(tx, links, {
    accountId: send.ownerId,
    email,
    language,
    key: 'sendCompleted',
    values: {
      amount: formatMoney(language, minorToDecimal(send.amount, knownDecimals(send.currency)), send.currency),
      shortAddress: shortAddress(send.address),
      address: send.address,
    },
  });
}

/**
 * What an external send's payout means for the send (the payout worker books it): completed with
 * the chain's txid, or failed — the payout already gave the amount and the fee back to the wallet
 * (also when an operator rejected it); approved by two operators, it is processed.
 */
export function sendPayoutOutcomes(links: SecurityLinks): PayoutOutcomes['send'] {
  return {
    async approved(tx, payout) {
      await walletRepository.markApproved(tx, payout.sendId!);
    },
    async completed(tx, payout) {
      const send = await walletRepository.markPaidOut(tx, payout.sendId!, payout.completedAt, payout.txid);
      if (send) await mailSendCompleted(tx, links, send, (await findAccountById(tx, send.ownerId))?.email ?? null);
    },
    async failed(tx, payout) {
      await walletRepository.markPayoutFailed(tx, payout.sendId!, payout.completedAt);
    },
  };
}

export async function getSend(db: Db, ownerId: string, sendId: string): Promise<SendRow> {
  if (!/^[0-9a-f-]{36}$/i.test(sendId)) throw new DomainError('not_found');
  const row = await walletRepository.findSend(db, ownerId, sendId);
  if (!row) throw new DomainError('not_found');
  return row;
}
