import { createHash } from 'node:crypto';
import { defaultLanguage, isLanguage, type Language } from '#domain/languages';
import { lockKey } from '../../db/raw';
import { findAccountBySubject } from '../accounts/service';
import { phrase as notifyPhrase, fillTemplate } from '../notify/service';
import { mailTime, sendSecurityEmail } from './mail';
import { protectionRepository } from './repository';
import type { SignInReportResult } from '#domain/contracts/protection';
import type { Db } from '../../db/client';
import type { SecurityLinks } from './links';

// Account protection (the invariants: service.ts): sign-ins reported by the identity provider.

/**
 * A login the identity provider reports (the local provider after the password, and after the
 * one-time password when two-step login is on; in production an Auth0 Action through
 * POST /api/security/sign-ins): whose (the token's subject), from which device (a random key the
 * provider keeps in a long-lived cookie of its own: a new browser is a new device), which client
 * (clientOf the User-Agent), when, and the language of its login page.
 */
export type SignIn = { subject: string; deviceKey: string; client: string; at: Date; language?: Language };
export type SignInOutcome = SignInReportResult['device'];

/** What the devices table keeps of a device key: its SHA-256, never the key. */
export const deviceHash = (deviceKey: string) =>
  createHash('sha256').update(`muntly-sign-in-device:${deviceKey}`).digest('hex');

/**
 * Remembers the device of a login. The subject's first device is recorded silently (an account's
 * first login is no news to anyone, and accounts that existed before devices were kept start
 * here too); a device new to a subject that has others is a security event and an email, with
 * when, from what client and the freeze link; a known device changes nothing the user sees.
 * One login at a time per subject (a lock): two logins at once from one new device send one email.
 * A subject without an account yet (the account is made by its first request) has nothing to
 * protect: its devices are kept, nobody is told.
 */
export async function recordSignIn(
  db: Db,
  ctx: { links: SecurityLinks; issuer: string },
  signIn: SignIn,
): Promise<SignInOutcome> {
  const { issuer } = ctx;
  const { subject, client, at } = signIn;
  const hash = deviceHash(signIn.deviceKey);
  return db.transaction(async (tx) => {
    await lockKey(tx, `sign-in:${issuer}:${subject}`);
    if (await protectionRepository.touchDevice(tx, issuer, subject, hash, at)) return 'known_device';
    const first = (await protectionRepository.countDevices(tx, issuer, subject)) === 0;
    await protectionRepository.insertDevice(tx, {
      issuer,
      subject,
      deviceHash: hash,
      client,
      firstSeenAt: at,
      lastSeenAt: at,
    });
    if (first) return 'first_device';
    const account = await findAccountBySubject(tx, issuer, subject);
    if (!account) return 'new_device';
    await protectionRepository.insertEvent(tx, {
      accountId: account.id,
      kind: 'signed_in_new_device',
      client,
      detail: null,
      createdAt: at,
    });
    // The user's language: that of their latest security email; else the login page's (which
    // whoever logs in chooses, so only when there is nothing better).
    const last = await protectionRepository.lastEmailLanguage(tx, account.id);
    const language = isLanguage(last) ? last : (signIn.language ?? defaultLanguage);
    await sendSecurityEmail(tx, ctx.links, {
      accountId: account.id,
      email: account.email,
      language,
      key: 'newSignIn',
      values: { when: mailTime(language, at), client: clientPhrase(language, client) },
    });
    return 'new_device';
  });
}

/**
 * A client as an email names it, in its language ("Firefox unter Linux"). Anything but a known
 * browser is named by a fixed phrase, never by its User-Agent's first word: whoever logs in
 * chooses that, and the email carries the owner's anti-phishing phrase (issue 34).
 */
function clientPhrase(language: Language, client: string): string {
  const browserOn = /^(\S+) on (\S+)$/.exec(client);
  if (browserOn)
    return fillTemplate(notifyPhrase(language, 'security', 'browserOn'), {
      browser: browserOn[1]!,
      system: browserOn[2]!,
    });
  return client === 'API' ? client : notifyPhrase(language, 'security', 'otherClient');
}
