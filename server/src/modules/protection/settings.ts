import { DomainError, secondsToWait } from '#domain/errors';
import { checkPhrase, type SecurityEventKind } from '#domain/protection';
import { antiPhishingPhrase, setAntiPhishingPhrase } from '../notify/service';
import { later, mailChange, pausedLine, recordEvent, type ProtectionContext } from './context';
import { protectionOf } from './outflow';
import { protectionRepository } from './repository';
import type { Db } from '../../db/client';

// Account protection (the invariants: service.ts): settings: the allow-list mode and the anti-phishing phrase.

/**
 * Switching the mode on works at once. Switching it off weakens the account, so it waits for the
 * hold since it was switched on (an attacker who just got in cannot undo it), and starts a
 * cool-down on sends.
 */
export async function setAllowList(
  db: Db,
  ctx: ProtectionContext,
  input: { account: { id: string; email: string | null }; on: boolean },
): Promise<void> {
  const { account } = input;
  await db.transaction(async (tx) => {
    const row = await protectionOf(tx, account.id, 'update');
    if (row.allowListOnly === input.on) return;
    const now = new Date();
    if (input.on) {
      await protectionRepository.updateProtection(tx, account.id, { allowListOnly: true, allowListSince: now });
      await recordEvent(tx, account.id, 'allow_list_on', ctx.client);
      await mailChange(tx, ctx, account, 'allow_list_on');
      return;
    }
    const offFrom = new Date(row.allowListSince.getTime() + ctx.settings.holdMs);
    if (offFrom > now)
      throw new DomainError(
        'allow_list_on_hold',
        'allowListOnly',
        undefined,
        secondsToWait(offFrom.getTime() - now.getTime()),
      );
    const pausedUntil = later(row.sendsPausedUntil, new Date(now.getTime() + ctx.settings.sendCooldownMs));
    await protectionRepository.updateProtection(tx, account.id, {
      allowListOnly: false,
      sendsPausedUntil: pausedUntil,
    });
    await recordEvent(tx, account.id, 'allow_list_off', ctx.client);
    await mailChange(tx, ctx, account, 'allow_list_off', { detail: pausedLine(ctx.language, pausedUntil) });
  });
}

/**
 * Sets, changes or removes (null) the phrase. Changing or removing it starts a cool-down on
 * sends (a phisher who got in would change it first); setting the first one does not.
 */
export async function setPhrase(
  db: Db,
  ctx: ProtectionContext,
  input: { account: { id: string; email: string | null }; phrase: string | null },
): Promise<void> {
  const { account } = input;
  let phrase: string | null = null;
  if (input.phrase !== null) {
    const checked = checkPhrase(input.phrase);
    if (!checked.ok) throw new DomainError(checked.code, 'phrase');
    phrase = checked.phrase;
  }
  await db.transaction(async (tx) => {
    // Under the protection row's lock: two changes at once are one after the other.
    const row = await protectionOf(tx, account.id, 'update');
    const current = (await antiPhishingPhrase(tx, account.id))?.phrase ?? null;
    if (current === phrase) return;
    const now = new Date();
    const kind: SecurityEventKind =
      current === null ? 'phrase_set' : phrase === null ? 'phrase_removed' : 'phrase_changed';
    const pausedUntil =
      kind === 'phrase_set'
        ? row.sendsPausedUntil
        : later(row.sendsPausedUntil, new Date(now.getTime() + ctx.settings.sendCooldownMs));
    await setAntiPhishingPhrase(tx, account.id, phrase);
    await protectionRepository.updateProtection(tx, account.id, { sendsPausedUntil: pausedUntil });
    await recordEvent(tx, account.id, kind, ctx.client);
    // Written after the change: the email shows the new phrase at its top (or none).
    await mailChange(tx, ctx, account, kind, {
      detail: kind === 'phrase_set' ? '' : pausedLine(ctx.language, pausedUntil!),
    });
  });
}

/**
 * The account's email address changed (the identity provider's token or profile says so): sends
 * pause, and the former address is told, with a freeze link — the new one may be an attacker's.
 */
export async function emailChanged(
  db: Db,
  ctx: ProtectionContext,
  input: { accountId: string; from: string; to: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await protectionOf(tx, input.accountId, 'update');
    const now = new Date();
    const pausedUntil = later(row.sendsPausedUntil, new Date(now.getTime() + ctx.settings.sendCooldownMs));
    await protectionRepository.updateProtection(tx, input.accountId, { sendsPausedUntil: pausedUntil });
    await recordEvent(tx, input.accountId, 'email_changed', ctx.client);
    await mailChange(tx, ctx, { id: input.accountId, email: input.from }, 'email_changed', {
      email: input.to,
      detail: pausedLine(ctx.language, pausedUntil),
    });
  });
}
