/**
 * Account protection (issue 19). Invariants:
 * - a send goes out only while the account is not frozen and not in a cool-down, and, in
 *   allow-list mode, only to a live address-book entry whose hold has passed (another Muntly
 *   user's address too); the confirmation checks all of it again under the protection row's
 *   lock, in the transaction that books the money, so a freeze and a confirmation never overlap;
 * - a freeze takes effect at once; an unfreeze takes a login, an emailed code and a cool-down
 *   (the operator may unfreeze at once); a freeze by an operator only an operator lifts; what an
 *   operator does is in the audit trail, in its transaction;
 * - a payout of a frozen account waits for two operators' approval (`accountFrozen`, the payouts'
 *   approval hook);
 * - the anti-phishing phrase is never answered in full once set;
 * - every change is a security event, and the emails about it carry a link that freezes sends.
 *
 * The service, one file a part: settings and context (context.ts), what the outflow gate asks
 * (outflow.ts), the address book, the allow-list and the anti-phishing phrase (settings.ts), the
 * login's second factor, freeze and unfreeze, sign-ins, the emails' links (by-link.ts) and the
 * security overview. Other modules and the routes import them from here.
 */
export { maskPhrase } from '#domain/protection';
export { addEntry, listBook, removeEntry, type FindReception } from './address-book';
export { cancelByLink, freezeByLink, previewLink } from './by-link';
export {
  clientOf,
  isFrozen,
  protectionContext,
  protectionSettings,
  type ProtectionContext,
  type ProtectionSettings,
  type SendProtection,
} from './context';
export {
  accountFrozen,
  confirmUnfreeze,
  freeze,
  operatorFreeze,
  operatorUnfreeze,
  requestUnfreeze,
  type OperatedAccount,
  type OperatorFreezeView,
} from './freeze';
export { bookRefusal, protectionOf } from './outflow';
export { securityOverview } from './overview';
export { mailSecondFactorCode, secondFactorChanged, type SecondFactorActor } from './second-factor';
export { emailChanged, setAllowList, setPhrase } from './settings';
export { deviceHash, recordSignIn, type SignIn, type SignInOutcome } from './sign-ins';
