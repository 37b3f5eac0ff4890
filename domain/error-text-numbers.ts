/**
 * The numbers error texts state and the wait a limit names: what the site needs of
 * domain/errors.ts, which re-exports them. Apart from it so that every page does not carry the
 * map of all codes and DomainError (its native-class helpers), only these few lines.
 */
import { FEES } from './fees';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
  UNUSED_ADDRESSES_PER_CURRENCY,
} from './limits';
import type { ErrorCode } from './errors';

/** The EUR limit a code's text states ({{limit}}); texts without their own state the first-order cap. */
const LIMIT_OF: Partial<Record<ErrorCode, bigint>> = {
  order_limit: ORDER_LIMIT_EUR_MINOR,
  mobile_verification_required: MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  weekly_limit_login_required: MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  id_verification_required: ID_VERIFICATION_WEEKLY_EUR_MINOR,
  amount_below_minimum_fee: FEES.buy.minimumEurMinor,
};

/**
 * The numbers an error text states, from domain/limits.ts and domain/fees.ts (never written in a
 * text by hand): {{limit}} and {{idLimit}} in EUR minor units, {{addresses}} a count. The site and
 * the API fill them in alike, each formatting the money for its language.
 */
export const errorTextNumbers = (key: string): { limit: bigint; idLimit: bigint; addresses: number } => ({
  limit:
    (Object.prototype.hasOwnProperty.call(LIMIT_OF, key) ? LIMIT_OF[key as ErrorCode] : undefined) ??
    FIRST_ORDER_LIMIT_EUR_MINOR,
  idLimit: ID_VERIFICATION_WEEKLY_EUR_MINOR,
  addresses: UNUSED_ADDRESSES_PER_CURRENCY,
});

/** A limit's wait ("in 45 seconds", "через 2 минуты"), in a language, in the largest whole unit ({{when}} in the texts). */
export function waitPhrase(seconds: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
  if (seconds < 90) return format.format(Math.ceil(seconds), 'second');
  if (seconds < 90 * 60) return format.format(Math.ceil(seconds / 60), 'minute');
  return format.format(Math.ceil(seconds / 3600), 'hour');
}
