import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { RETENTION_YEARS, yearsAfter } from '#domain/identity';
import { ERASED_IBAN, pseudonymizePain } from './pseudonymize';
import type { Db } from '../../db/client';

/**
 * The AML clock (AMLD 2015/849 art. 40, our AML policy): records and identity data are kept for
 * RETENTION_YEARS after the END of the business relationship, not after they were written. A
 * customer's relationship ends at the later of the account's closing (accounts cannot be closed
 * today; an operator freezes them, which ends nothing) and its last activity.
 *
 * "Activity" is what an AML officer counts as the relationship continuing: the customer moving
 * value with us, or us holding value for them.
 * - any ledger movement on one of the customer's ledger accounts (deposits, trades, sends,
 *   internal transfers in or out, fees, refunds, faucet rewards): each is a transaction whose
 *   record the law makes us keep, so the identity behind it must be kept as long;
 * - an order placed by the account, or one not completed yet (its money may still move);
 * - a wallet send started or completed;
 * - a balance that is not zero: we still hold their money, so the relationship has not ended
 *   however long ago they last acted.
 * Not activity: logins, page views, support messages, settings changes, or the identity data
 * being edited. None of them moves money or changes what we owe, and counting logins would let a
 * dormant account keep its personal data forever by signing in once every five years.
 *
 * These are SQL conditions, so one statement decides for every row at once and a run in each
 * replica reads the same answer.
 */

/** The moment RETENTION_YEARS before `now`: activity at or after it keeps the data. */
export function retentionCutoff(now: Date): Date {
  return yearsAfter(now, -RETENTION_YEARS);
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** True when the account `accountId` had its last activity before `cutoff` and holds nothing. */
export function relationshipEnded(accountId: AnyColumn | SQL, cutoff: Date): SQL {
  const since = at(cutoff);
  return sql`(
    exists (select 1 from accounts ra where ra.id = ${accountId} and ra.created_at < ${since})
    and not exists (select 1 from ledger_accounts rl where rl.owner_id = ${accountId} and rl.balance <> 0)
    and not exists (
      select 1 from ledger_accounts rl join ledger_transfers rt on rt.debit_account_id = rl.id
      where rl.owner_id = ${accountId} and rt.created_at >= ${since})
    and not exists (
      select 1 from ledger_accounts rl join ledger_transfers rt on rt.credit_account_id = rl.id
      where rl.owner_id = ${accountId} and rt.created_at >= ${since})
    and not exists (
      select 1 from orders ro where ro.account_id = ${accountId}
      and (ro.created_at >= ${since} or ro.completed_at is null or ro.completed_at >= ${since}))
    and not exists (
      select 1 from wallet_sends rs where rs.owner_id = ${accountId}
      and (rs.created_at >= ${since} or rs.completed_at >= ${since}))
  )`;
}

/**
 * An order whose relationship has ended before `cutoff`: an anonymous order's relationship is that
 * one occasional transaction, so it ends when the order completes (an order still open ends
 * nothing); an account's order ends with the account's relationship.
 */
export function orderRelationshipEnded(order: { completedAt: SQL; accountId: SQL }, cutoff: Date): SQL {
  return sql`(${order.completedAt} is not null and ${order.completedAt} < ${at(cutoff)}
    and (${order.accountId} is null or ${relationshipEnded(order.accountId, cutoff)}))`;
}

/**
 * The personal data in the money records (orders, bank payments, bank payouts and the pain.001
 * files they went out in), erased RETENTION_YEARS after the relationship ended (relationship.ts).
 * Only the fields that name or reach a person go: emails, crypto addresses, IBANs, payer names,
 * the payer's remittance text. Amounts, currencies, rates, dates, statuses, references and every
 * ledger transfer stay: they are the bookkeeping the law keeps for ten years (HGB §257, BW 2:10)
 * and they name nobody once the row's personal fields are gone. Rows are taken FOR UPDATE SKIP
 * LOCKED and marked with `personal_data_erased_at`, so runs in several replicas erase each once.
 */

export type RecordsErased = {
  orders: number;
  bankPayments: number;
  payouts: number;
  payoutFiles: number;
  sends: number;
};

type Rows<T> = { rows: T[] };
const rows = async <T>(db: Db, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as Rows<T>).rows;

/** Payouts that are final (money moved or came back): nothing will read their destination again. */
const FINAL_PAYOUT = sql`po.status in ('completed', 'failed')`;

/** A payout's relationship ended: the order, bank payment or send it was for. */
function payoutEnded(cutoff: Date): SQL {
  return sql`(
    (po.order_id is not null and exists (select 1 from orders o where o.id = po.order_id and ${orderRelationshipEnded({ completedAt: sql`o.completed_at`, accountId: sql`o.account_id` }, cutoff)}))
    or (po.bank_payment_id is not null and exists (select 1 from bank_payments p where p.id = po.bank_payment_id and p.personal_data_erased_at is not null))
    or (po.send_id is not null and exists (select 1 from wallet_sends s where s.id = po.send_id and ${relationshipEnded(sql`s.owner_id`, cutoff)}))
    or (po.chain_output is not null and po.completed_at < ${at(cutoff)})
  )`;
}

export async function eraseExpiredRecords(db: Db, now: Date, cutoff: Date): Promise<RecordsErased> {
  const erasedAt = at(now);

  // Orders: an anonymous order's relationship is the order itself; an account's follows the account.
  const orders = await rows<{ id: string; reference: string; email: string }>(
    db,
    sql`select id, reference, email from orders
        where personal_data_erased_at is null
          and ${orderRelationshipEnded({ completedAt: sql`orders.completed_at`, accountId: sql`orders.account_id` }, cutoff)}
        for update skip locked`,
  );
  for (const order of orders) {
    // The emails about an anonymous order went to its address and name its reference (about 75
    // random bits, so no other order's message matches): they are its records and go with them,
    // written or still kept as a template (notify/outbox-writer.ts).
    await db.execute(sql`delete from outbox where account_id is null and retain_until is null
      and lower(recipient) = lower(${order.email})
      and (strpos(body, ${order.reference}) > 0 or params #>> '{order,reference}' = ${order.reference})`);
    await db.execute(sql`update orders set email = '', email_key = '', address = null, payout_key = null, payer_key = null,
      sender_address = null, beneficiary = null, personal_data_erased_at = ${erasedAt} where id = ${order.id}`);
    // A returned payout's new account holder, as the customer gave it.
    await db.execute(sql`update payout_returns set holder_name = null where order_id = ${order.id}`);
  }

  // Bank payments: an open one is still the operator's to resolve; one that paid an order follows
  // the order; one refunded or assigned elsewhere ended when it was resolved. A refund still on
  // its way needs the payer's IBAN.
  const payments = await rows<{ id: string }>(
    db,
    sql`update bank_payments p set payer_name = null, payer_iban = null, remittance = '', personal_data_erased_at = ${erasedAt}
        where p.id in (
          select p2.id from bank_payments p2
          where p2.personal_data_erased_at is null and p2.status <> 'open'
            and greatest(p2.imported_at, p2.resolved_at) < ${at(cutoff)}
            and (p2.order_id is null or exists (select 1 from orders o where o.id = p2.order_id and o.personal_data_erased_at is not null))
            and not exists (select 1 from payouts po where po.bank_payment_id = p2.id and not ${FINAL_PAYOUT})
          for update skip locked)
        returning p.id`,
  );

  // Bank payouts: the IBAN they were paid to.
  const payouts = await rows<{ id: string }>(
    db,
    sql`update payouts set destination = null, personal_data_erased_at = ${erasedAt}
        where id in (
          select po.id from payouts po
          where po.rail = 'bank' and po.personal_data_erased_at is null and ${FINAL_PAYOUT} and ${payoutEnded(cutoff)}
          for update skip locked)
        returning id`,
  );

  // Wallet sends of an account whose relationship ended: the address sent to and its label. One
  // still on its way (processing, awaiting approval) is never erased; an unconfirmed one is dead.
  const sends = await rows<{ id: string }>(
    db,
    sql`update wallet_sends set address = '', label = null
        where id in (
          select s.id from wallet_sends s
          where s.address <> '' and s.status in ('completed', 'failed', 'awaiting_code') and ${relationshipEnded(sql`s.owner_id`, cutoff)}
          for update skip locked)
        returning id`,
  );

  // A payouts file names every creditor in it: it is pseudonymized once each of its payouts'
  // relationships has ended. Done, it carries ERASED_IBAN, which no real file can (every IBAN is
  // checked before it is paid to), so a second run passes it by.
  const files = await rows<{ id: string; xml: string }>(
    db,
    sql`select e.id, e.xml from bank_exports e
        where strpos(e.xml, ${`<IBAN>${ERASED_IBAN}</IBAN>`}) = 0
          and not exists (select 1 from payouts po where po.bank_export_id = e.id and not (${FINAL_PAYOUT} and ${payoutEnded(cutoff)}))
        for update skip locked`,
  );
  for (const file of files) {
    await db.execute(sql`update bank_exports set xml = ${pseudonymizePain(file.xml)} where id = ${file.id}`);
  }

  return {
    orders: orders.length,
    bankPayments: payments.length,
    payouts: payouts.length,
    payoutFiles: files.length,
    sends: sends.length,
  };
}
