import { formatDateTime } from '#domain/format';
import { escapeHtml } from '../notify/email-html';
import { emailText, fillTemplate, phrase, send, type MessageKey } from '../notify/service';
import type { Language } from '#domain/languages';
import type { Db } from '../../db/client';
import type { SecurityLinks } from './links';

/**
 * Security emails (issue 19): a new address in the book, a send started or completed, a setting
 * changed. Each carries a one-click link that freezes the account's sends (unless the email is
 * about the freeze itself), written in the same transaction as the change it reports.
 */
export type SecurityEmail = {
  accountId: string;
  /** The address it goes to; none, no email (an account without one). */
  email: string | null;
  language: Language;
  key: MessageKey;
  values: Record<string, string>;
  /** False for the emails about a freeze: the sends are frozen already. */
  freezeLink?: boolean;
  /** A new address-book entry: its cancel link goes in {{cancelUrl}}. */
  cancelEntryId?: string;
};

export async function sendSecurityEmail(db: Db, links: SecurityLinks, mail: SecurityEmail): Promise<void> {
  if (!mail.email) return;
  const urls: ClickableLink[] = [];
  const values: Record<string, string> = { ...mail.values, freeze: '' };
  if (mail.freezeLink !== false) {
    const url = await links.create(db, { accountId: mail.accountId, purpose: 'freeze', language: mail.language });
    values.freeze = fillTemplate(phrase(mail.language, 'security', 'freeze'), { url });
    // In the HTML part the freeze link is a button (the text part keeps the address to copy).
    urls.push({ url, button: phrase(mail.language, 'security', 'freezeButton') });
  }
  if (mail.cancelEntryId) {
    const url = await links.create(db, {
      accountId: mail.accountId,
      purpose: 'cancel_address',
      entryId: mail.cancelEntryId,
      language: mail.language,
    });
    values.cancelUrl = url;
    urls.push(url);
  }
  const text = emailText(mail.language, mail.key, values);
  await send(db, {
    channel: 'email',
    recipient: mail.email,
    accountId: mail.accountId,
    ...text,
    html: withClickableLinks(text.html, urls),
  });
}

/** A link of an email's HTML part: the address made clickable, or a button with its own words. */
export type ClickableLink = string | { url: string; button: string };

/**
 * The links, which the HTML part shows as text, made clickable (a mail client does not always do
 * it itself); one with `button` becomes a button (a padded, filled link every client draws).
 */
export function withClickableLinks(html: string, links: ClickableLink[]): string {
  return links.reduce<string>((out, link) => {
    const url = typeof link === 'string' ? link : link.url;
    const shown = escapeHtml(url);
    const anchor =
      typeof link === 'string'
        ? `<a href="${shown}" style="color:#0b3d2e;font-weight:bold;">${shown}</a>`
        : `<a href="${shown}" style="display:inline-block;margin:4px 0;padding:12px 20px;background-color:#0b3d2e;border-radius:6px;color:#ffffff;font-weight:bold;text-decoration:none;">${escapeHtml(link.button)}</a>`;
    return out.split(shown).join(anchor);
  }, html);
}

/** A moment as a security email states it, in its language, in UTC ("24 November 2026 at 10:00 UTC"). */
export function mailTime(language: Language, at: Date): string {
  return formatDateTime(at, language, { utc: true });
}
