/**
 * The route table: page name (the product's route key, docs/decisions/0016) -> language-neutral path. Every page
 * exists unprefixed for English and under each language prefix; a test checks that each
 * entry has a page in src/pages and each page an entry here.
 */
export const routes = {
  home: '/',
  exchange: '/exchange/',
  exchange_buy: '/exchange/buy/',
  exchange_sell: '/exchange/sell/',
  exchange_swap: '/exchange/swap/',
  exchange_deposit: '/exchange/deposit/',
  exchange_order_history: '/exchange/order-history/',
  wallet: '/wallet/',
  wallet_balances: '/wallet/balances/',
  wallet_receive: '/wallet/receive/',
  wallet_send: '/wallet/send/',
  wallet_transactions: '/wallet/transactions/',
  wallet_security: '/wallet/security/',
  wallet_proof: '/wallet/proof/',
  identity: '/identity/',
  my_identity: '/identity/me/',
  login: '/login/',
  register: '/register/',
  logout: '/logout/',
  faucet: '/faucet/',
  faucet_history: '/faucet/history/',
  rates: '/rates/',
  charts: '/charts/',
  news: '/news/',
  forum: '/forum/',
  chatbots: '/chatbots/',
  crypto_locker: '/crypto-locker/',
  fees: '/fees/',
  status: '/status/',
  proof: '/proof/',
  support: '/support/',
  contact: '/contact/',
  aml_policy: '/aml-policy/',
  cookie_policy: '/cookie-policy/',
  privacy_policy: '/privacy-policy/',
  terms_and_conditions: '/terms-and-conditions/',
  imprint: '/imprint/',
} as const;

export type RouteName = keyof typeof routes;

export const routeNames = Object.keys(routes) as RouteName[];

/** The page name whose path is `path` (language-neutral), if any. */
export function routeNameOf(path: string): RouteName | undefined {
  return routeNames.find((name) => routes[name] === path);
}

/** Pages in the header navigation, in order. */
export const headerNav: RouteName[] = ['exchange', 'wallet', 'identity', 'faucet', 'rates', 'fees', 'support'];
/** The legal pages and the imprint, linked from every footer. */
export const legalNav: RouteName[] = [
  'aml_policy',
  'cookie_policy',
  'privacy_policy',
  'terms_and_conditions',
  'imprint',
];
/** Other pages linked from the footer. */
export const footerNav: RouteName[] = [
  'news',
  'forum',
  'charts',
  'chatbots',
  'crypto_locker',
  'status',
  'proof',
  'contact',
];
