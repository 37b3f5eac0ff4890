import { EMAIL_PATTERN, emailKey } from './email';

/**
 * Who an operator is, as four eyes and the audit trail compare them. Locally the ops CLI acts as
 * `<OPS_SUBJECT>:<email>` (`--as <email>` or OPS_AS): the email follows the rule every email
 * address follows here (domain/email.ts `emailKey`, after NFKC so a full-width `＠` is an `@`),
 * so `Bob@Example.com`, ` bob@example.com ` and `bob@EXAMPLE.com` are one operator, never two who
 * could review and approve the same payout.
 */
export const operatorKey = (email: string): string => emailKey(String(email).normalize('NFKC'));

/** A token's subject as the operator it names: `<prefix>:<email>` with the email by operatorKey; any other subject as it is. */
export function operatorActor(subject: string): string {
  const colon = subject.indexOf(':');
  if (colon < 0) return subject;
  const named = operatorKey(subject.slice(colon + 1));
  return EMAIL_PATTERN.test(named) ? `${subject.slice(0, colon)}:${named}` : subject;
}
