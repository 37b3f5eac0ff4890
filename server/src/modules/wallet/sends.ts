import { createHash, randomBytes } from 'node:crypto';
import { judgeCode, codeRefusal } from '../../one-time-codes';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { walletSends } from '../../db/schema';
import type { AccountRow } from '../accounts/repository';
import { ApiError } from '../../errors';
import { requireVerifications } from '../identity/service';
import { findByAddress } from './addresses';
import { systemAccount, transfer, userAccount, balancesOf } from '../ledger/service';
import { eurValueMinor, type RatesAdapter } from '../rates/service';
import { messageText, send as sendMessage } from '../notify/service';
import { currencyByCode } from '../../../../domain/currencies';
import { NETWORK_FEES_MINOR } from '../../../../domain/fees';
import { normalizeAddress } from '../../../../domain/addresses';
import { decimalToMinor, minorToDecimal, eur } from '../../../../domain/money';
import { codeFromBytes, normalizeCode } from '../../../../domain/codes';
import { CODE_TTL_MINUTES } from '../../../../domain/identity';
import type { ErrorCode } from '../../../../domain/errors';
import type { Language } from '../../../../src/i18n/languages';

/**
 * Sends from the wallet. Invariants:
 * - money moves only when the send's own code is accepted, in the same transaction that marks
 *   the send processing, so a send is booked at most once and the ledger refuses any overdraft,
 *   whatever requests run at the same time;
 * - the code is single use, bound to this send, valid 10 minutes, dead after 5 wrong attempts;
 * - the same Idempotency-Key returns the same send (no second send, no second email).
 */
export type SendRow = typeof walletSends.$inferSelect;

const hash = (sendId: string, code: string) => createHash('sha256').update(`send:${sendId}:${code}`).digest('hex');

export function sendView(row: SendRow) {
  const decimals = currencyByCode(row.currency)!.decimals;
  return {
    id: row.id,
    status: row.status as 'awaiting_code' | 'processing' | 'completed' | 'failed',
    currency: row.currency,
    address: row.address,
    amount: minorToDecimal(row.amount, decimals),
    networkFee: minorToDecimal(row.networkFee, decimals),
    internal: row.recipientId !== null,
    label: row.label,
  };
}

/** EUR volume of the user's sends over the last 7 days, for the verification tiers. */
async function weeklySendsEurMinor(db: Db, rates: RatesAdapter, ownerId: string): Promise<bigint> {
  const since = new Date(Date.now() - 7 * 86_400_000);
  const rows = await db
    .select({ currency: walletSends.currency, amount: walletSends.amount })
    .from(walletSends)
    .where(and(eq(walletSends.ownerId, ownerId), inArray(walletSends.status, ['processing', 'completed']), gte(walletSends.createdAt, since)));
  const { rates: current } = await rates.current();
  return rows.reduce((sum, r) => sum + eurValueMinor(r.amount, currencyByCode(r.currency)!.decimals, current[r.currency] ?? '0'), 0n);
}

export async function createSend(
  db: Db,
  rates: RatesAdapter,
  input: { account: AccountRow; currency: string; address: string; amount: string; label?: string; idempotencyKey?: string; language: Language },
) {
  const { account } = input;
  if (input.idempotencyKey) {
    const [existing] = await db
      .select()
      .from(walletSends)
      .where(and(eq(walletSends.ownerId, account.id), eq(walletSends.idempotencyKey, input.idempotencyKey)));
    if (existing) return { send: existing, created: false };
  }
  const currency = currencyByCode(input.currency.toUpperCase());
  if (!currency) throw new ApiError(400, 'validation_failed', 'currency', 'Unknown currency.');
  if (currency.support === 'partial') throw new ApiError(409, 'currency_partially_supported', 'currency');
  const address = normalizeAddress(currency.code, input.address);
  if (!address) throw new ApiError(400, 'invalid_address', 'address');
  const amount = decimalToMinor(input.amount.trim(), currency.decimals);
  if (amount === null || amount <= 0n) throw new ApiError(400, 'invalid_amount', 'amount');

  const recipient = await findByAddress(db, currency.code, address);
  const networkFee = recipient ? 0n : NETWORK_FEES_MINOR[currency.code]!;
  const { rates: current } = await rates.current();
  const thisSendEur = eurValueMinor(amount, currency.decimals, current[currency.code] ?? '0');
  await requireVerifications(db, account.id, { usesWallet: true, weeklyEurMinor: (await weeklySendsEurMinor(db, rates, account.id)) + thisSendEur });
  const balance = (await balancesOf(db, account.id)).find((b) => b.currency === currency.code)?.balance ?? 0n;
  if (balance < amount + networkFee) throw new ApiError(409, 'insufficient_balance', 'amount');

  let code: string | null = null;
  while (!code) code = codeFromBytes(randomBytes(32));
  return db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    const [row] = await tx
      .insert(walletSends)
      .values({
        id,
        ownerId: account.id,
        currency: currency.code,
        address,
        amount,
        networkFee,
        label: input.label ?? null,
        recipientId: recipient?.ownerId ?? null,
        idempotencyKey: input.idempotencyKey ?? null,
        codeHash: hash(id, code),
        codeExpiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      // The same Idempotency-Key arrived twice at once: the other request created it.
      const [existing] = await tx.select().from(walletSends).where(and(eq(walletSends.ownerId, account.id), eq(walletSends.idempotencyKey, input.idempotencyKey!)));
      return { send: existing!, created: false };
    }
    if (account.email) {
      const view = sendView(row);
      await sendMessage(tx, {
        channel: 'email',
        recipient: account.email,
        accountId: account.id,
        ...messageText(input.language, 'sendCode', { id, code, amount: view.amount, fee: view.networkFee, currency: currency.code, address }),
      });
    }
    return { send: row, created: true };
  });
}

type Outcome = { ok: true; send: SendRow } | { ok: false; status: number; code: ErrorCode; message?: string };

/** Accepts the code and books the send, or counts a wrong attempt (committed before answering). */
export async function confirmSend(db: Db, rates: RatesAdapter, input: { ownerId: string; sendId: string; code: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(input.sendId)) throw new ApiError(404, 'not_found');
  const code = normalizeCode(input.code);
  if (!code) throw new ApiError(400, 'invalid_code_format', 'code');
  const { rates: current } = await rates.current();
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const [send] = await tx.select().from(walletSends).where(and(eq(walletSends.id, input.sendId), eq(walletSends.ownerId, input.ownerId))).for('update');
    if (!send) return { ok: false, status: 404, code: 'not_found' };
    if (send.status !== 'awaiting_code') return { ok: false, status: 409, code: 'send_not_pending' };
    const verdict = judgeCode({ hash: send.codeHash, attempts: send.codeAttempts, expiresAt: send.codeExpiresAt }, hash(send.id, code));
    if (verdict.kind === 'wrong') await tx.update(walletSends).set({ codeAttempts: verdict.attempts }).where(eq(walletSends.id, send.id));
    if (verdict.kind !== 'valid') return { ok: false, ...codeRefusal(verdict) };
    const decimals = currencyByCode(send.currency)!.decimals;
    const metadata = {
      address: send.address,
      label: send.label,
      fee: minorToDecimal(send.networkFee, decimals),
      eurValue: eur(eurValueMinor(send.amount, decimals, current[send.currency] ?? '0')),
      sendId: send.id,
    };
    const from = await userAccount(tx as Db, send.ownerId, send.currency);
    try {
      await tx.transaction(async (booking) => {
        const to = send.recipientId
          ? await userAccount(booking as Db, send.recipientId, send.currency)
          : await systemAccount(booking as Db, 'chain', send.currency);
        await transfer(booking as Db, { id: `send:${send.id}`, currency: send.currency, debitAccountId: from.id, creditAccountId: to.id, amount: send.amount, code: send.recipientId ? 'internal' : 'send', metadata });
        if (send.networkFee > 0n) {
          const fees = await systemAccount(booking as Db, 'fees', send.currency);
          await transfer(booking as Db, { id: `send-fee:${send.id}`, currency: send.currency, debitAccountId: from.id, creditAccountId: fees.id, amount: send.networkFee, code: 'fee', metadata });
        }
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'insufficient_balance') throw error;
      await tx.update(walletSends).set({ status: 'failed', confirmedAt: new Date() }).where(eq(walletSends.id, send.id));
      return { ok: false, status: 409, code: 'insufficient_balance' };
    }
    const status = send.recipientId ? 'completed' : 'processing';
    const now = new Date();
    const [updated] = await tx
      .update(walletSends)
      .set({ status, confirmedAt: now, ...(status === 'completed' ? { completedAt: now } : {}) })
      .where(eq(walletSends.id, send.id))
      .returning();
    return { ok: true, send: updated! };
  });
  if (!outcome.ok) throw new ApiError(outcome.status, outcome.code, outcome.code === 'not_found' ? undefined : 'code', outcome.message);
  return outcome.send;
}

/**
 * The simulated chain: external sends confirm a few seconds after they were booked. Several
 * replicas may run this at once; SKIP LOCKED gives each send to one of them.
 */
export async function settlePayouts(db: Db, olderThanMs = 2000): Promise<number> {
  const result = (await db.execute(sql`
    update wallet_sends set status = 'completed', completed_at = now()
    where id in (
      select id from wallet_sends
      where status = 'processing' and confirmed_at < now() - make_interval(secs => ${olderThanMs / 1000})
      order by confirmed_at limit 100 for update skip locked
    )
    returning id`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}

export async function getSend(db: Db, ownerId: string, sendId: string): Promise<SendRow> {
  if (!/^[0-9a-f-]{36}$/i.test(sendId)) throw new ApiError(404, 'not_found');
  const [row] = await db.select().from(walletSends).where(and(eq(walletSends.id, sendId), eq(walletSends.ownerId, ownerId)));
  if (!row) throw new ApiError(404, 'not_found');
  return row;
}
