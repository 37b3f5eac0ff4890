import { decimalToMinor } from '#domain/money';
import { phrase as notifyPhrase, fillTemplate, requestLanguage } from '../notify/service';
import { mailTime, sendSecurityEmail } from './mail';
import { protectionRepository, type ProtectionRow } from './repository';
import type { Language } from '#domain/languages';
import type { SecurityEventKind } from '#domain/protection';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { SecurityLinks } from './links';

/** Account protection's settings and the context of a request (the invariants: service.ts). */

export type ProtectionSettings = {
  holdMs: number;
  sendCooldownMs: number;
  unfreezeCooldownMs: number;
  maxAuthAgeSeconds: number;
  /** EUR cents; a send worth more needs a second factor in the login. */
  secondFactorAboveEurMinor: bigint;
};

export const HOUR_MS = 3_600_000;

export function protectionSettings(config: Config): ProtectionSettings {
  return {
    holdMs: config.ADDRESS_HOLD_HOURS * HOUR_MS,
    sendCooldownMs: config.SEND_COOLDOWN_HOURS * HOUR_MS,
    unfreezeCooldownMs: config.UNFREEZE_COOLDOWN_HOURS * HOUR_MS,
    maxAuthAgeSeconds: config.SEND_MAX_AUTH_AGE_MINUTES * 60,
    secondFactorAboveEurMinor: decimalToMinor(config.SEND_SECOND_FACTOR_ABOVE_EUR, 2)!,
  };
}

/** What moving value out of a wallet needs of account protection: its settings and the maker of the emails' freeze links. */
export type SendProtection = { settings: ProtectionSettings; links: SecurityLinks };

/** What a route hands the service: the settings, the link maker, who acts (the security events' "client") and the page language (the emails'). */
export type ProtectionContext = {
  settings: ProtectionSettings;
  links: SecurityLinks;
  client: string;
  language: Language;
};

/** The context of a request of the logged-in user. */
export function protectionContext(
  app: { protection: { settings: ProtectionSettings; links: SecurityLinks } },
  request: { headers: Record<string, string | string[] | undefined> },
): ProtectionContext {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    ...app.protection,
    client: clientOf(header('user-agent')),
    language: requestLanguage(header('accept-language')),
  };
}

/** Frozen: since frozen_at, until the unfreeze the user confirmed takes effect (or the operator's). */
export const isFrozen = (row: ProtectionRow, now = new Date()): boolean =>
  row.frozenAt !== null && (row.unfreezesAt === null || row.unfreezesAt > now);

export const later = (a: Date | null, b: Date): Date => (a && a > b ? a : b);

export async function recordEvent(
  db: Db,
  accountId: string,
  kind: SecurityEventKind,
  client: string,
  detail?: Record<string, string | boolean>,
): Promise<void> {
  await protectionRepository.insertEvent(db, { accountId, kind, client, detail: detail ?? null });
}

/** The email telling the account what changed ("settings changed"), with its freeze link unless it reports a freeze. */
export async function mailChange(
  db: Db,
  ctx: ProtectionContext,
  account: { id: string; email: string | null },
  change: keyof ReturnType<typeof changePhrases>,
  values: { until?: Date; email?: string; detail?: string } = {},
) {
  const language = ctx.language;
  const changeText = fillTemplate(changePhrases(language)[change], {
    until: values.until ? mailTime(language, values.until) : '',
    email: values.email ?? '',
  });
  await sendSecurityEmail(db, ctx.links, {
    accountId: account.id,
    email: account.email,
    language,
    key: 'securityChanged',
    values: { change: changeText, when: mailTime(language, new Date()), detail: values.detail ?? '' },
    freezeLink: change !== 'frozen' && change !== 'frozen_by_operator',
  });
}

export function changePhrases(language: Language) {
  const p = (key: Parameters<typeof notifyPhrase<'securityChanges'>>[2]) =>
    notifyPhrase(language, 'securityChanges', key);
  return {
    allow_list_on: p('allow_list_on'),
    allow_list_off: p('allow_list_off'),
    phrase_set: p('phrase_set'),
    phrase_changed: p('phrase_changed'),
    phrase_removed: p('phrase_removed'),
    email_changed: p('email_changed'),
    second_factor_added: p('second_factor_added'),
    second_factor_removed: p('second_factor_removed'),
    frozen: p('frozen'),
    frozen_by_operator: p('frozen_by_operator'),
    unfreeze_confirmed: p('unfreeze_confirmed'),
    unfrozen_by_operator: p('unfrozen_by_operator'),
  };
}

export const pausedLine = (language: Language, until: Date) =>
  fillTemplate(notifyPhrase(language, 'security', 'sendsPausedUntil'), { until: mailTime(language, until) });

/**
 * Who acted, as the security events show it: the browser and system the site was used from
 * ("Firefox on Linux"), never an IP address. From the User-Agent, which a client may fake: it
 * describes, it proves nothing.
 */
export function clientOf(userAgent: string | undefined): string {
  if (!userAgent) return 'API';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux|X11/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} on ${system}`;
  // Something else (a script, a command line): its first word, short and free of anything odd.
  return (userAgent.split(/[\s/]/)[0] ?? 'API').replace(/[^\w.-]/g, '').slice(0, 40) || 'API';
}
