import { findAccountById } from '../accounts/service';
import { recordEvent, type ProtectionContext } from './context';
import { freeze } from './freeze';
import { protectionRepository } from './repository';
import type { Language } from '#domain/languages';
import type { Db } from '../../db/client';
import type { SecurityLinks } from './links';

// Account protection (the invariants: service.ts): links from emails, used without a login.

/** The freeze link: freezes the link's account and marks the link used, in one transaction. */
export async function freezeByLink(db: Db, ctx: Omit<ProtectionContext, 'language'>, token: string) {
  return db.transaction(async (tx) => {
    const opened = await ctx.links.open(tx, token, 'freeze');
    if (!opened.ok) return opened;
    if (!(await protectionRepository.useLink(tx, opened.link.id, new Date())))
      return { ok: false as const, code: 'link_used' as const, language: opened.link.language as Language };
    const email = (await findAccountById(tx, opened.link.accountId))?.email ?? null;
    await freeze(
      tx,
      { ...ctx, language: opened.link.language as Language },
      { account: { id: opened.link.accountId, email }, byLink: true },
    );
    return { ok: true as const, language: opened.link.language as Language };
  });
}

/** The cancel link of a new entry: cancels it (if still live) and marks the link used. */
export async function cancelByLink(db: Db, ctx: Omit<ProtectionContext, 'language'>, token: string) {
  return db.transaction(async (tx) => {
    const opened = await ctx.links.open(tx, token, 'cancel_address');
    if (!opened.ok) return opened;
    if (!(await protectionRepository.useLink(tx, opened.link.id, new Date())))
      return { ok: false as const, code: 'link_used' as const, language: opened.link.language as Language };
    const entry = await protectionRepository.cancelEntry(tx, opened.link.accountId, opened.link.entryId!, new Date());
    if (entry)
      await recordEvent(tx, opened.link.accountId, 'address_cancelled_by_link', ctx.client, {
        currency: entry.currency,
        address: entry.address,
      });
    // The page offers to freeze the sends too: the cancel link proved the mailbox as a freeze link would.
    const language = opened.link.language as Language;
    const freezeUrl = await ctx.links.create(tx, { accountId: opened.link.accountId, purpose: 'freeze', language });
    return { ok: true as const, language, freezeToken: new URL(freezeUrl).searchParams.get('t')! };
  });
}

/** What a link's confirmation page shows before anything is done (GET never changes anything). */
export async function previewLink(db: Db, links: SecurityLinks, token: string, purpose: 'freeze' | 'cancel_address') {
  const opened = await links.open(db, token, purpose);
  if (!opened.ok) return opened;
  const entry = opened.link.entryId ? await protectionRepository.entryById(db, opened.link.entryId) : undefined;
  return {
    ok: true as const,
    language: opened.link.language as Language,
    entry: entry && !entry.cancelledAt ? entry : undefined,
  };
}
