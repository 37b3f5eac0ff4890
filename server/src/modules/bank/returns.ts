import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError, type ErrorCode } from '#domain/errors';
import { isLanguage, localizePath, type Language } from '#domain/languages';
import { minorToDecimal } from '#domain/money';
import {
  HOLDER_NAME_MAX,
  RETURN_CHARGE_TOLERANCE_EUR_MINOR,
  returnReasonKey,
  type PayoutReturnState,
} from '#domain/returns';
import { sameIban, sepaIban } from '#domain/sepa';
import { recordAudit } from '../audit/service';
import { orderOutflowGate } from '../gates/service';
import { systemAccount, transfer } from '../ledger/service';
import { emailText, formatMoney, phrase, send } from '../notify/service';
import { findOrderById, lockOrderByReference, orderPayoutChanged, orderReferencesAndAccounts } from '../orders/service';
import {
  bookPayoutResult,
  findPayout,
  lockPayout,
  markPayoutReturned,
  payoutStatuses,
  requestPayout,
  type PayoutOutcomes,
  type PayoutRow,
} from '../payouts/service';
import { bankRepository, paymentValues, type PayoutReturnRow } from './repository';
import type { Order, PayoutReturn } from '#domain/contracts/orders';
import type { Db, Tx } from '../../db/client';
import type { PayoutApproval } from '../payouts/approval';
import type { StatementLine } from './camt';

/**
 * SEPA returns (issue 33): a payout the payee's bank sent back arrives on a later statement as a
 * credit with return information (camt.ts `returned`). Booked once, in one transaction:
 *
 * - the statement payment's row (its unique bank reference: a statement imported twice, or twice
 *   at once, or a return reported in a camt.054 and again in the camt.053, books nothing twice);
 * - the payout, locked: completed (or exported and not yet seen debited: it is completed first,
 *   the bank did pay it out) becomes `returned`, with the bank's reason;
 * - the ledger: the money comes back from the bank into the `returns` account (transfer
 *   `payout-returned:<payout>`), where it is owed to the customer; a charge the payee's bank kept
 *   (up to RETURN_CHARGE_TOLERANCE_EUR_MINOR) is Muntly's, from its fees account
 *   (`payout-return-charge:<payout>`), so the customer is owed the whole payout again;
 * - a `payout_returns` row (unique per payout), the audit row, and the customer's email.
 *
 * A return that names no payout of an order, or whose amount does not fit, waits in the unmatched
 * queue marked as a return: it is never refunded to the IBAN it came from.
 *
 * The customer then gives another IBAN (`giveNewIban`): an account holder on the order's page
 * when logged in, an anonymous seller through the emailed link (signed, expiring, single use).
 * That books a new payout from the `returns` account, judged by the same four eyes as any
 * (approval.ts); if it fails in turn, its money goes back to `returns` and the return waits again.
 */
export type ReturnLinks = {
  /** A new link for the return (its old one stops working), written in the caller's transaction. */
  create(tx: Tx, returnId: string, language: Language): Promise<string>;
  /** The return a token opens, or why it does not. */
  open(
    db: Db,
    token: string,
  ): Promise<{ ok: true; row: PayoutReturnRow } | { ok: false; code: ErrorCode; language?: Language }>;
};

/** How long a return email's link works: two weeks, time enough to open a new bank account; a new link can be mailed after. */
export const RETURN_LINK_TTL_MS = 14 * 86_400_000;

export type { PayoutReturnRow };

const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const uuidOfHex = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * The links in return emails: the return's id and a random nonce, with an HMAC of both under the
 * security links' secret (SECURITY_LINK_SECRET), so nobody without the server's key makes one. The
 * row keeps the nonce and the expiry: a newer link, or the link used, clears or replaces the
 * nonce, so each link works once. The token names no id in readable form and is never logged.
 */
export function returnLinks(options: { origin: string; secret: Buffer; ttlMs: number }): ReturnLinks {
  const mac = (id: string, nonce: string) =>
    createHmac('sha256', options.secret).update(`muntly-payout-return:${id}:${nonce}`).digest('base64url');
  const token = (id: string, nonce: string) =>
    `${Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url')}.${nonce}.${mac(id, nonce)}`;
  return {
    async create(tx, returnId, language) {
      const nonce = randomBytes(16).toString('base64url');
      await bankRepository.updateReturn(tx, returnId, {
        linkNonce: nonce,
        linkExpiresAt: new Date(Date.now() + options.ttlMs),
      });
      return `${options.origin}${localizePath('/exchange/order-history/', language)}?newIban=${token(returnId, nonce)}`;
    },
    async open(db, value) {
      const given = value.trim();
      const match = TOKEN.exec(given);
      if (!match) return { ok: false, code: 'link_invalid' };
      const id = uuidOfHex(Buffer.from(match[1]!, 'base64url').toString('hex'));
      if (!timingSafeEqual(Buffer.from(given), Buffer.from(token(id, match[2]!))))
        return { ok: false, code: 'link_invalid' };
      const row = await bankRepository.findReturn(db, id);
      if (!row) return { ok: false, code: 'link_invalid' };
      const language = isLanguage(row.language) ? row.language : undefined;
      // A genuine link whose nonce is gone: used (a new IBAN was given with it), or replaced by a newer one.
      if (row.linkNonce !== match[2])
        return { ok: false, code: row.replacementPayoutId ? 'link_used' : 'link_invalid', language };
      if (!row.linkExpiresAt || row.linkExpiresAt.getTime() <= Date.now())
        return { ok: false, code: 'return_link_expired', language };
      return { ok: true, row };
    },
  };
}

/** What the import needs to book a return: the payout outcomes (to complete an exported payout first) and the links for the email. */
export type ReturnDeps = { outcomes: PayoutOutcomes; links?: ReturnLinks };

type LineResult = {
  outcome: 'payout_returned' | 'unmatched' | 'duplicate';
  reference: string | null;
  paymentId: string | null;
  reason: string | null;
};

/** Purposes whose return is owed to an order's customer, who gives another IBAN. */
const RETURNABLE = new Set<PayoutRow['purpose']>(['order_delivery', 'order_refund']);

/** The payout a return names and why it cannot be booked against it (null: it can). */
function returnRefusal(payout: PayoutRow | undefined, line: StatementLine): string | null {
  if (!payout || payout.rail !== 'bank' || !payout.orderId || !RETURNABLE.has(payout.purpose))
    return 'return_unknown_payout';
  if (payout.status === 'returned') return 'return_already_booked';
  if (payout.status !== 'completed' && payout.status !== 'submitted') return 'return_payout_not_paid';
  const amount = line.amount!;
  if (
    payout.currency !== line.currency ||
    amount > payout.amount ||
    payout.amount - amount > RETURN_CHARGE_TOLERANCE_EUR_MINOR
  )
    return 'return_amount_differs';
  return null;
}

/** One return credit, in one transaction (see above). `payoutId`: what its end-to-end id names. */
export async function importReturn(
  db: Db,
  deps: ReturnDeps,
  line: StatementLine,
  payoutId: string | null,
  statementId: string | null,
  actor: string,
): Promise<LineResult> {
  return db.transaction(async (tx) => {
    const returned = line.returned!;
    const row = await bankRepository.insertPayment(tx, {
      ...paymentValues(line, statementId),
      isReturn: true,
      returnReason: returned.reason?.slice(0, 35) ?? null,
      returnInfo: returned.additional?.slice(0, 500) ?? null,
    });
    if (!row) return { outcome: 'duplicate', reference: null, paymentId: null, reason: null };
    let payout = payoutId ? await lockPayout(tx, payoutId) : undefined;
    const refusal = returnRefusal(payout, line);
    if (refusal || !payout) {
      const unmatchedReason = refusal ?? 'return_unknown_payout';
      await bankRepository.updatePayment(tx, row.id, { unmatchedReason });
      await recordAudit(tx, {
        actor,
        action: 'bank.return_unmatched',
        target: row.id,
        after: {
          entryRef: row.entryRef,
          amount: minorToDecimal(row.amount, 2),
          returnReason: row.returnReason,
          unmatchedReason,
        },
      });
      return { outcome: 'unmatched', reference: payout?.id ?? null, paymentId: row.id, reason: unmatchedReason };
    }
    if (payout.status === 'submitted') {
      // Exported, and the statement returns it before (or without) reporting it debited: the bank
      // paid it out, so it completes first, as its debit would have completed it.
      payout = (
        await bookPayoutResult(tx, deps.outcomes, {
          id: payout.id,
          result: {
            status: 'completed',
            txid: `bank-return:${line.ref}`.replace(/[^A-Za-z0-9:_.-]/g, '_').slice(0, 128),
          },
        })
      ).payout;
    }
    const returnsAccount = (await systemAccount(tx, 'returns', 'EUR')).id;
    const meta = {
      payoutId: payout.id,
      orderId: payout.orderId,
      bankPaymentId: row.id,
      entryRef: row.entryRef,
      reason: returned.reason,
    };
    await transfer(tx, {
      id: `payout-returned:${payout.id}`,
      currency: 'EUR',
      debitAccountId: (await systemAccount(tx, 'bank', 'EUR')).id,
      creditAccountId: returnsAccount,
      amount: row.amount,
      code: 'payout_returned',
      metadata: meta,
    });
    const charge = payout.amount - row.amount;
    if (charge > 0n) {
      await transfer(tx, {
        id: `payout-return-charge:${payout.id}`,
        currency: 'EUR',
        debitAccountId: (await systemAccount(tx, 'fees', 'EUR')).id,
        creditAccountId: returnsAccount,
        amount: charge,
        code: 'payout_return_charge',
        metadata: meta,
      });
    }
    const reasonText = [returned.reason, returned.additional].filter(Boolean).join(' ');
    await markPayoutReturned(tx, payout.id, `returned by the payee's bank${reasonText ? `: ${reasonText}` : ''}`);
    const order = (await findOrderById(tx, payout.orderId!))!;
    const language: Language = isLanguage(order.language) ? order.language : 'en';
    const record = await bankRepository.insertReturn(tx, {
      payoutId: payout.id,
      orderId: order.id,
      bankPaymentId: row.id,
      amount: payout.amount,
      amountReturned: row.amount,
      reasonCode: row.returnReason,
      reasonInfo: row.returnInfo,
      language,
    });
    await bankRepository.updatePayment(tx, row.id, { status: 'returned', resolution: `return of payout ${payout.id}` });
    await orderPayoutChanged(tx, order.id);
    await recordAudit(tx, {
      actor,
      action: 'bank.payout_returned',
      target: payout.id,
      before: { status: payout.status },
      after: {
        status: 'returned',
        entryRef: row.entryRef,
        orderReference: order.reference,
        reason: row.returnReason,
        amount: minorToDecimal(row.amount, 2),
        owed: minorToDecimal(payout.amount, 2),
      },
    });
    await mailReturn(tx, deps.links, order, record);
    return { outcome: 'payout_returned', reference: payout.id, paymentId: row.id, reason: row.returnReason };
  });
}

/** The return email: the bank's reason in plain words and what to do, with the link for an anonymous seller. */
async function mailReturn(
  tx: Tx,
  links: ReturnLinks | undefined,
  order: { reference: string; email: string | null; accountId: string | null },
  record: PayoutReturnRow,
): Promise<void> {
  if (!order.email) return;
  const language: Language = isLanguage(record.language) ? record.language : 'en';
  // An account holder gives the IBAN on the order's page, logged in; anyone else through the link.
  const link = order.accountId ? null : links ? await links.create(tx, record.id, language) : null;
  const text = emailText(language, 'payoutReturned', {
    reference: order.reference,
    amount: formatMoney(language, minorToDecimal(record.amount, 2), 'EUR'),
    reason: returnReasonText(language, record.reasonCode),
    next: link
      ? `${phrase(language, 'payoutReturnNext', 'link')}\n${link}`
      : phrase(language, 'payoutReturnNext', 'account'),
  });
  await send(tx, { channel: 'email', recipient: order.email, ...text, accountId: order.accountId ?? undefined });
}

/**
 * An operator mails an anonymous seller a new link (theirs expired, or a new payout to their IBAN
 * failed after the link was used): the old link stops working. Only while the return waits.
 */
export async function resendReturnLink(db: Db, links: ReturnLinks, input: { id: string; actor: string }) {
  return db.transaction(async (tx) => {
    const row = await bankRepository.lockReturn(tx, input.id);
    if (!row) throw new DomainError('not_found', 'id');
    if ((await stateOf(tx, row)).state !== 'awaiting_iban') throw new DomainError('payout_return_not_waiting', 'id');
    const order = (await findOrderById(tx, row.orderId))!;
    // An account holder needs no link: the order's page takes the IBAN.
    if (order.accountId || !order.email) throw new DomainError('payout_return_not_waiting', 'id');
    await mailReturn(tx, links, order, row);
    await recordAudit(tx, {
      actor: input.actor,
      action: 'payout.return_link',
      target: row.payoutId,
      after: { orderReference: order.reference },
    });
    return { orderReference: order.reference };
  });
}

/** The bank's reason in plain words, in the customer's language (a generic text for codes without one). */
export function returnReasonText(language: Language, code: string | null): string {
  return phrase(language, 'returnReasons', returnReasonKey(code));
}

// ---------------------------------------------------------------------------------------------
// Another IBAN

/** A return's state: waiting while it has no new payout, or only failed ones. */
async function stateOf(
  db: Db,
  row: PayoutReturnRow,
): Promise<{ state: PayoutReturnState; replacement: PayoutRow | undefined }> {
  const replacement = row.replacementPayoutId ? await findPayout(db, row.replacementPayoutId) : undefined;
  if (!replacement || replacement.status === 'failed' || replacement.status === 'returned')
    return { state: 'awaiting_iban', replacement };
  return { state: replacement.status === 'completed' ? 'new_payout_completed' : 'new_payout_pending', replacement };
}

/** The order's latest return, as the order's page shows it. */
export async function payoutReturnOf(db: Db, orderId: string): Promise<PayoutReturn | null> {
  const row = await bankRepository.latestReturnOfOrder(db, orderId);
  if (!row) return null;
  const returnedPayout = await findPayout(db, row.payoutId);
  const { state, replacement } = await stateOf(db, row);
  return {
    reason: row.reasonCode,
    amount: minorToDecimal(row.amount, 2),
    iban: returnedPayout?.destination ?? null,
    returnedAt: row.createdAt.toISOString(),
    state,
    newIban: state === 'awaiting_iban' ? null : (replacement?.destination ?? null),
    awaitingApproval: replacement?.status === 'awaiting_approval',
  };
}

/** A delivered order whose payout the payee's bank sent back: the order's view with the return, and what became of it. */
export async function withPayoutReturn(db: Db, view: Order, row: { id: string; status: string }): Promise<Order> {
  if (row.status === 'new') return view;
  const payoutReturn = await payoutReturnOf(db, row.id);
  return payoutReturn ? { ...view, payoutReturn } : view;
}

export type NewIbanInput = {
  reference: string;
  iban: string;
  holderName?: string;
  /** Who gives it: the order's account (logged in), or the emailed link's token. */
  by: { accountId: string } | { token: string };
};

/**
 * Another IBAN for a returned payout: a new SEPA payout of the amount owed, from the `returns`
 * account, judged by four eyes like any payout (approval.ts), in one transaction with the return
 * row locked, so two submissions make one payout. Not the IBAN it came back from, nor Muntly's
 * own account. With a link, the holder's name is required (the name the payee's bank checks) and
 * the link is used up.
 */
export async function giveNewIban(
  db: Db,
  deps: { approval: PayoutApproval; links: ReturnLinks; bankIban: string; actor: string },
  input: NewIbanInput,
) {
  return db.transaction(async (tx) => {
    const order = await lockOrderByReference(tx, input.reference);
    let returnId: string | undefined;
    if ('token' in input.by) {
      const opened = await deps.links.open(tx, input.by.token);
      if (!opened.ok) throw new DomainError(opened.code, 'token');
      // The link opens its own order's return only.
      if (!order || opened.row.orderId !== order.id) throw new DomainError('link_invalid', 'token');
      returnId = opened.row.id;
    } else {
      if (!order || order.accountId !== input.by.accountId) throw new DomainError('not_found', 'reference');
      returnId = (await bankRepository.latestReturnOfOrder(tx, order.id))?.id;
    }
    if (!returnId) throw new DomainError('payout_return_not_waiting', 'reference');
    const row = await bankRepository.lockReturn(tx, returnId);
    const { state, replacement } = await stateOf(tx, row!);
    if (state !== 'awaiting_iban') throw new DomainError('payout_return_not_waiting', 'reference');
    const checked = sepaIban(input.iban);
    if (!checked.ok) throw new DomainError(checked.code, 'iban');
    const returnedPayout = (await findPayout(tx, row!.payoutId))!;
    const returnedIbans = [returnedPayout.destination, replacement?.destination].filter(Boolean);
    if (returnedIbans.includes(checked.iban)) throw new DomainError('iban_returned', 'iban');
    if (sameIban(checked.iban, deps.bankIban)) throw new DomainError('muntly_iban', 'iban');
    const holderName = input.holderName?.replace(/\s+/g, ' ').trim() ?? '';
    if ('token' in input.by && !holderName)
      throw new DomainError('validation_failed', 'holderName', 'The account holder’s name is required.');
    if (holderName.length > HOLDER_NAME_MAX || /[\p{Cc}<>]/u.test(holderName))
      throw new DomainError('invalid_characters', 'holderName');
    const attempt = replacement ? `${replacement.id}` : 'first';
    const key = `payout-return:${row!.id}:${attempt}`;
    const payout = await requestPayout(tx, {
      // The customer's own money, owed again: the same gate as the order's delivery.
      pass: orderOutflowGate('order_delivery'),
      rail: 'bank',
      purpose: 'order_delivery',
      orderId: order!.id,
      currency: 'EUR',
      destination: checked.iban,
      reference: order!.shortReference,
      amount: row!.amount,
      networkFee: 0n,
      sourceAccountId: (await systemAccount(tx, 'returns', 'EUR')).id,
      idempotencyKey: key,
      holds: [
        {
          id: key,
          amount: row!.amount,
          code: 'payout',
          metadata: { orderId: order!.id, reference: order!.reference, returnedPayoutId: row!.payoutId },
        },
      ],
      approval: { policy: deps.approval, accountId: order!.accountId },
    });
    await bankRepository.updateReturn(tx, row!.id, {
      replacementPayoutId: payout.id,
      holderName: holderName || null,
      linkNonce: null,
      linkExpiresAt: null,
      updatedAt: new Date(),
    });
    await orderPayoutChanged(tx, order!.id, payout.status === 'awaiting_approval');
    await recordAudit(tx, {
      actor: deps.actor,
      action: 'payout.return_new_iban',
      target: row!.payoutId,
      before: { state },
      after: {
        orderReference: order!.reference,
        payoutId: payout.id,
        status: payout.status,
        by: 'token' in input.by ? 'link' : 'account',
      },
    });
    return { order: order!, payout };
  });
}

/** What a return link opens: the order, for the page that asks for the new IBAN. */
export async function openReturnLink(db: Db, links: ReturnLinks, token: string) {
  const opened = await links.open(db, token);
  if (!opened.ok) throw new DomainError(opened.code, 'token');
  return (await findOrderById(db, opened.row.orderId))!;
}

/** The name a new payout's IBAN holder gave with it (for the pain.001's Cdtr/Nm). */
export async function holderNameOfReissue(db: Db, payoutId: string): Promise<string | null> {
  return bankRepository.holderNameOfReplacement(db, payoutId);
}

/** Returned payouts waiting for another IBAN, oldest first (the operator console). */
export async function returnsAwaitingIban(db: Db) {
  // Those without a new payout, or whose new payout failed or came back too. The payouts' statuses
  // and the orders' references are asked of their modules, whose tables they are.
  const all = await bankRepository.allReturns(db);
  const statuses = await payoutStatuses(
    db,
    all.flatMap((ret) => (ret.replacementPayoutId ? [ret.replacementPayoutId] : [])),
  );
  const waiting = all.filter((ret) => {
    if (ret.replacementPayoutId === null) return true;
    const status = statuses.get(ret.replacementPayoutId);
    return status === 'failed' || status === 'returned';
  });
  const orders = await orderReferencesAndAccounts(
    db,
    waiting.map((ret) => ret.orderId),
  );
  const rows = waiting.flatMap((ret) => {
    const order = orders.get(ret.orderId);
    return order ? [{ ret, reference: order.reference, accountId: order.accountId }] : [];
  });
  return rows.map(({ ret, reference, accountId }) => ({
    id: ret.id,
    payoutId: ret.payoutId,
    orderReference: reference,
    anonymous: accountId === null,
    amount: minorToDecimal(ret.amount, 2),
    reason: ret.reasonCode,
    reasonInfo: ret.reasonInfo,
    returnedAt: ret.createdAt.toISOString(),
    linkExpiresAt: ret.linkExpiresAt?.toISOString() ?? null,
  }));
}
