/**
 * The audit trail (issue 18): every operator action and every read of a customer's personal data,
 * written append-only and chained by hash (server/src/modules/audit). An action is a dotted code,
 * `<what>.<verb>`; this list is its one source (the API's filter, the console's labels).
 *
 * - verification.request  a customer asked for a kind to be enabled (the only customer action kept here)
 * - verification.enable / verify / reject  an operator moved a verification
 * - identity.read          an operator read a customer's identity data (names, addresses, IBANs, documents)
 * - personal.read          an operator read other personal data (a list of users, messages, payout destinations)
 * - identity.data_deleted  retention deleted a verification's data (its date had passed)
 * - admin.grant            a local user was given the admin:muntly scope
 * - dev.token              local mode: an operator had a login token issued for a user
 * - faucet.pause / resume / fund
 * - payment.received       a bank payment was booked to an order or a deposit
 * - payment.business       a buy was marked as paid from a business account
 * - order.review           an operator released (convert) or refunded an anonymous order held past the weekly cap
 * - chain.deposit          a chain deposit was booked (simulated locally)
 * - payout.result          an executor's report on a payout was booked
 * - payout.review / approve / reject   four eyes: the first operator's approval, the second's that
 *                          released it, or a rejection (its money went back)
 * - retention.run          an operator ran the retention job
 * - bank.payment_matched / payment_unmatched   a statement's credit was booked to an order or deposit, or queued
 * - bank.payment_assigned / payment_refunded   an operator resolved an unmatched payment
 * - bank.payout_completed  a statement's debit showed one of our payouts paid
 * - bank.payouts_exported  an operator exported the payouts file (pain.001)
 * - liabilities.publish    a proof of liabilities snapshot was published (by an operator, or by the daily schedule as 'liabilities-schedule')
 * - liabilities.control    the signer's proofs of control of a snapshot's house addresses were verified and stored
 * - account.freeze / unfreeze  an operator froze or unfroze an account's sends (with the reason)
 */
export const AUDIT_ACTIONS = [
  'verification.request',
  'verification.enable',
  'verification.verify',
  'verification.reject',
  'identity.read',
  'personal.read',
  'identity.data_deleted',
  'admin.grant',
  'dev.token',
  'faucet.pause',
  'faucet.resume',
  'faucet.fund',
  'payment.received',
  'payment.business',
  'order.review',
  'chain.deposit',
  'chain.reversal',
  'chain.assign',
  'chain.return',
  'chain.alert_resolved',
  'payout.result',
  'payout.review',
  'payout.approve',
  'payout.reject',
  'retention.run',
  'bank.payment_matched',
  'bank.payment_unmatched',
  'bank.payment_assigned',
  'bank.payment_refunded',
  'bank.payout_completed',
  'bank.payouts_exported',
  'bank.payout_returned',
  'bank.return_unmatched',
  'payout.return_new_iban',
  'payout.return_link',
  'liabilities.publish',
  'liabilities.control',
  'account.freeze',
  'account.unfreeze',
  'database.backup',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What an audit row holds as `before` and `after`: the state an action changed, as JSON that
 * reads the same after a round trip through the database (strings, booleans, null, whole
 * numbers; amounts as decimal strings). Never document contents, codes or secrets.
 */
export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };
export type AuditState = { [key: string]: AuditValue };

/** Why a row breaks the chain, as `audit:verify` reports the first one. */
export const AUDIT_BREAKS = ['hash', 'prev_hash', 'gap', 'head'] as const;
export type AuditBreak = (typeof AUDIT_BREAKS)[number];
