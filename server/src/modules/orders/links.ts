import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatCode } from '#domain/codes';
import { localizePath, type Language } from '#domain/languages';

/**
 * The link to an order, in its confirmation email and in the order page's address once it is
 * placed: it opens the order without retyping the email and the reference, and a reload keeps it.
 * The token is the order's reference, when the link stops working, and an HMAC-SHA256 of both
 * under the server's link secret (SECURITY_LINK_SECRET), so nobody without the key makes one,
 * lengthens one, or turns one order's link into another's. It is compared in constant time. It
 * opens the order as the email and reference do (read, follow); it is not logged (requests are
 * logged without their query string or body).
 */
export type OrderLinks = {
  /** The token of a new link to the order with this reference. */
  token(reference: string, now?: Date): string;
  /** The whole address to put in an email, on the order history page in the email's language. */
  url(reference: string, language: Language, now?: Date): string;
  /** The reference a token opens, or why not: not genuine, or past its lifetime. */
  open(
    token: string,
    now?: Date,
  ): { ok: true; reference: string } | { ok: false; code: 'link_invalid' | 'order_link_expired' };
};

/**
 * How long an order's link works: 60 days, well past an unpaid order's expiry (ORDER_EXPIRY_DAYS,
 * 7 by default) and its payout or refund; after that the order is still found with its email and
 * reference.
 */
export const ORDER_LINK_TTL_MS = 60 * 86_400_000;

const TOKEN = /^([A-Z]{16})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;

export function orderLinks(options: { origin: string; secret: Buffer; ttlMs?: number }): OrderLinks {
  const ttlMs = options.ttlMs ?? ORDER_LINK_TTL_MS;
  const mac = (letters: string, expires: string) =>
    createHmac('sha256', options.secret).update(`muntly-order-link:${letters}:${expires}`).digest('base64url');
  const token = (reference: string, now = new Date()) => {
    const letters = reference.replace(/-/g, '');
    const expires = Math.floor((now.getTime() + ttlMs) / 1000).toString(36);
    return `${letters}.${expires}.${mac(letters, expires)}`;
  };
  return {
    token,
    url: (reference, language, now) =>
      `${options.origin}${localizePath('/exchange/order-history/', language)}?order=${token(reference, now)}`,
    open(value, now = new Date()) {
      const given = value.trim();
      const match = TOKEN.exec(given);
      if (!match) return { ok: false, code: 'link_invalid' };
      const [, letters, expires] = match as unknown as [string, string, string];
      // Compared with the one canonical spelling (base64url has spare bits in its last character).
      if (!timingSafeEqual(Buffer.from(given), Buffer.from(`${letters}.${expires}.${mac(letters, expires)}`)))
        return { ok: false, code: 'link_invalid' };
      if (parseInt(expires, 36) * 1000 <= now.getTime()) return { ok: false, code: 'order_link_expired' };
      return { ok: true, reference: formatCode(letters) };
    },
  };
}
