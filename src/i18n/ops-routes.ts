/**
 * The operator console (admin:muntly only): pages in every language like the others, but not the
 * site's — no navigation, sitemap or search result leads to them (noindex). A module of its own,
 * so that no other page's first-load script carries it.
 */
export const opsRoutes = {
  ops: '/ops/',
  ops_verifications: '/ops/verifications/',
  ops_unmatched: '/ops/unmatched/',
  ops_payouts: '/ops/payouts/',
  ops_orders: '/ops/orders/',
  ops_accounts: '/ops/accounts/',
  ops_faucet: '/ops/faucet/',
  ops_audit: '/ops/audit/',
  ops_bank: '/ops/bank/',
} as const;

export type OpsRouteName = keyof typeof opsRoutes;
export const opsRouteNames = Object.keys(opsRoutes) as OpsRouteName[];
