import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { protectionRepository, type SecurityLinkRow } from './repository';
import type { ErrorCode } from '#domain/errors';
import type { Language } from '#domain/languages';
import type { SecurityLinkPurpose } from '#domain/protection';
import type { Config } from '../../config';
import type { Db } from '../../db/client';

/**
 * The links of security emails: "freeze my sends" and "cancel this new address". A link works
 * without a login, so it must be unforgeable, single use and short-lived:
 * - it carries the id of its row and an HMAC-SHA256 of purpose and id under SECURITY_LINK_SECRET,
 *   so nobody without the server's key can make one, or turn a cancel link into a freeze link;
 * - its row (security_links) says when it expires and when it was used; using it marks it used in
 *   the same transaction as what it does.
 * The token names no internal id in readable form (no email carries a UUID) and is not logged
 * (requests are logged without their query string).
 */
export type SecurityLinks = {
  /** A new link for this account, written with the caller's transaction: the URL to put in the email. */
  create(
    db: Db,
    input: { accountId: string; purpose: SecurityLinkPurpose; entryId?: string; language: Language },
  ): Promise<string>;
  /** The link's row when the token is genuine and for this purpose, or the refusal to show. */
  open(
    db: Db,
    token: string,
    purpose: SecurityLinkPurpose,
  ): Promise<{ ok: true; link: SecurityLinkRow } | { ok: false; code: ErrorCode; language?: Language }>;
};

const PATHS: Record<SecurityLinkPurpose, string> = {
  freeze: '/api/security/freeze',
  cancel_address: '/api/security/cancel-address',
};
export const securityLinkPath = (purpose: SecurityLinkPurpose) => PATHS[purpose];

export function securityLinks(options: { origin: string; secret: Buffer; ttlMs: number }): SecurityLinks {
  const mac = (purpose: SecurityLinkPurpose, id: string) =>
    createHmac('sha256', options.secret).update(`muntly-security-link:${purpose}:${id}`).digest();
  const token = (purpose: SecurityLinkPurpose, id: string) =>
    `${Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url')}.${mac(purpose, id).toString('base64url')}`;

  return {
    async create(db, input) {
      const row = await protectionRepository.insertLink(db, {
        accountId: input.accountId,
        purpose: input.purpose,
        entryId: input.entryId ?? null,
        language: input.language,
        expiresAt: new Date(Date.now() + options.ttlMs),
      });
      return `${options.origin}${PATHS[input.purpose]}?t=${token(input.purpose, row.id)}`;
    },

    async open(db, value, purpose) {
      const given = value.trim();
      const match = /^([A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{43}$/.exec(given);
      if (!match) return { ok: false, code: 'link_invalid' };
      const hex = Buffer.from(match[1]!, 'base64url').toString('hex');
      const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      // Compared with the one canonical spelling (base64url has spare bits in its last character).
      const expected = Buffer.from(token(purpose, id));
      if (!timingSafeEqual(Buffer.from(given), expected)) return { ok: false, code: 'link_invalid' };
      const link = await protectionRepository.findLink(db, id);
      if (!link || link.purpose !== purpose) return { ok: false, code: 'link_invalid' };
      // A genuine link says why it no longer works in the language of its email.
      const language = link.language as Language;
      if (link.usedAt) return { ok: false, code: 'link_used', language };
      if (link.expiresAt.getTime() <= Date.now()) return { ok: false, code: 'link_expired', language };
      return { ok: true, link };
    },
  };
}

export const LOCAL_SECRET_FILE = 'security-link-secret';

/**
 * The key links are signed with: SECURITY_LINK_SECRET (required in production), or locally one
 * made once and kept in DATA_DIR, so links in the dev mailbox survive a restart.
 */
export function linkSecret(config: Pick<Config, 'SECURITY_LINK_SECRET' | 'DATA_DIR'>): Buffer {
  if (config.SECURITY_LINK_SECRET) return Buffer.from(config.SECURITY_LINK_SECRET, 'utf8');
  const file = path.join(config.DATA_DIR, LOCAL_SECRET_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    // 'wx': two replicas starting at once keep the first one's key.
    try {
      fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8');
}
