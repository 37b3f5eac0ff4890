/**
 * Muntly's mailboxes, named in the legal texts, on the contact page and in the support module.
 * No imports: pages that only show the addresses must not pull a validation library into their
 * bundle.
 */
export const SUPPORT_MAILBOX = 'support@muntly.example';
/** Where copies of ID documents go (identity verification, step 2 of the kind "id"). */
export const IDENTITY_MAILBOX = 'identity@muntly.example';
/** The operator's own mailbox: requests that need a person at Muntly (e.g. enabling a verification). */
export const OPERATIONS_MAILBOX = 'operations@muntly.example';
