import { findAccountBySubject } from '../accounts/service';
import { emailText, send as sendMessage } from '../notify/service';
import {
  changePhrases,
  later,
  mailChange,
  pausedLine,
  recordEvent,
  type ProtectionContext,
  type ProtectionSettings,
} from './context';
import { mailTime, sendSecurityEmail } from './mail';
import { protectionOf } from './outflow';
import { protectionRepository } from './repository';
import type { Language } from '#domain/languages';
import type { Db, Tx } from '../../db/client';
import type { SecurityLinks } from './links';

// Account protection (the invariants: service.ts): the second factor of the login (two-step login), which the identity provider changes.

/** Who changes their second factor at the identity provider: its subject and email, the client, the page's language. */
export type SecondFactorActor = { issuer: string; subject: string; email: string; client: string; language: Language };

/**
 * The code the identity provider asks for before a second factor is added or removed (issue 34):
 * the password alone must not be enough, or whoever stole it would lock the owner out behind
 * his own authenticator app. Emailed to the account's address; when the account exists, as a
 * security email with the freeze link (its owner learns at once that someone has the password).
 */
export async function mailSecondFactorCode(
  db: Db,
  links: SecurityLinks,
  actor: SecondFactorActor & { code: string; change: 'second_factor_added' | 'second_factor_removed' },
): Promise<void> {
  const { language } = actor;
  await db.transaction(async (tx) => {
    const account = await findAccountBySubject(tx, actor.issuer, actor.subject);
    const values = { code: actor.code, change: changePhrases(language)[actor.change] };
    if (account)
      await sendSecurityEmail(tx, links, {
        accountId: account.id,
        email: account.email ?? actor.email,
        language,
        key: 'secondFactorCode',
        values,
      });
    else
      await sendMessage(tx, {
        channel: 'email',
        recipient: actor.email,
        ...emailText(language, 'secondFactorCode', { ...values, freeze: '' }),
      });
  });
}

/**
 * A second factor added or removed at the identity provider, in the transaction that changes it:
 * a security event, the security email with the freeze link, and a cool-down on sends — as a new
 * email address does (an attacker who set up his own app could otherwise send at once). A subject
 * without an account yet has no wallet to protect: it is told by email, nothing more.
 */
export async function secondFactorChanged(
  tx: Tx,
  ctx: { links: SecurityLinks; settings: ProtectionSettings },
  actor: SecondFactorActor & { change: 'second_factor_added' | 'second_factor_removed' },
): Promise<void> {
  const account = await findAccountBySubject(tx, actor.issuer, actor.subject);
  const context: ProtectionContext = { ...ctx, client: actor.client, language: actor.language };
  if (!account) {
    const values = {
      change: changePhrases(actor.language)[actor.change],
      when: mailTime(actor.language, new Date()),
      detail: '',
      freeze: '',
    };
    await sendMessage(tx, {
      channel: 'email',
      recipient: actor.email,
      ...emailText(actor.language, 'securityChanged', values),
    });
    return;
  }
  const row = await protectionOf(tx, account.id, 'update');
  const pausedUntil = later(row.sendsPausedUntil, new Date(Date.now() + ctx.settings.sendCooldownMs));
  await protectionRepository.updateProtection(tx, account.id, { sendsPausedUntil: pausedUntil });
  await recordEvent(tx, account.id, actor.change, actor.client);
  await mailChange(tx, context, { id: account.id, email: account.email ?? actor.email }, actor.change, {
    detail: pausedLine(actor.language, pausedUntil),
  });
}
