/**
 * The support form's topics, apart from its schema (domain/support.ts) so that the site's form
 * can list them without loading zod at first paint; the schema arrives when the form is checked.
 */
export const SUPPORT_TOPICS = ['order', 'wallet', 'identity', 'faucet', 'account', 'security', 'other'] as const;
export type SupportTopic = (typeof SUPPORT_TOPICS)[number];
