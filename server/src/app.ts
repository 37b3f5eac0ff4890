import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { isNodeCurrency, type NodeCurrency } from '#domain/chain';
import { XRP_CONFIRMATIONS } from '#domain/xrp';
import { benchRoutes } from './dev/bench';
import { devMailboxRoutes } from './dev/mailbox';
import { simulatedChain } from './dev/simulated-chain';
import { errorBody, errorsPlugin } from './errors';
import { loggerOptions } from './logging';
import { accountRoutes, type ProfileLookup } from './modules/accounts/routes';
import { auditRoutes } from './modules/audit/routes';
import { authRoutes } from './modules/auth/routes';
import { payoutReturnRoutes } from './modules/bank/return-routes';
import { RETURN_LINK_TTL_MS, returnLinks, withPayoutReturn } from './modules/bank/returns';
import { bankOpsRoutes } from './modules/bank/routes';
import { esploraChain } from './modules/chain/esplora';
import {
  chainNodes,
  nodeBlockSource,
  checkNodeNetworks,
  checkXrpNetwork,
  confirmationsOf,
  xpubsFrom,
  xrpChain,
  type XrpChain,
} from './modules/chain/nodes';
import { type Chain, type Xpubs } from './modules/chain/service';
import { faucetOpsRoutes } from './modules/faucet/ops-routes';
import { faucetPlugin } from './modules/faucet/routes';
import { faucetSettings } from './modules/faucet/settings';
import { healthRoutes } from './modules/health/routes';
import { identityRoutes } from './modules/identity/routes';
import { liabilitiesControlRoutes } from './modules/liabilities/control-routes';
import { liabilitiesRoutes } from './modules/liabilities/routes';
import { setEmailOperator } from './modules/notify/service';
import { operatorRoutes } from './modules/operator/routes';
import { opsChainRoutes } from './modules/ops/chain-routes';
import { opsConsoleRoutes } from './modules/ops/console-routes';
import { opsMoneyRoutes } from './modules/ops/money-routes';
import { opsRoutes } from './modules/ops/routes';
import { orderLinks } from './modules/orders/links';
import { orderRoutes } from './modules/orders/routes';
import { payoutApproval } from './modules/payouts/approval';
import { sharedSignerKey } from './modules/payouts/instruction';
import { payoutOpsRoutes } from './modules/payouts/routes';
import { linkSecret, securityLinks } from './modules/protection/links';
import { protectionPlugin, protectionRoutes } from './modules/protection/routes';
import { accountFrozen, emailChanged, protectionContext, protectionSettings } from './modules/protection/service';
import { coingeckoRates } from './modules/rates/coingecko';
import { ratesRoutes } from './modules/rates/routes';
import { simulatedRates, type RatesAdapter } from './modules/rates/service';
import { supportRoutes } from './modules/support/routes';
import { findByAddress } from './modules/wallet/addresses';
import { walletRoutes } from './modules/wallet/routes';
import { accountPlugin } from './plugins/account';
import { authPlugin } from './plugins/auth';
import { dbPlugin } from './plugins/db';
import { answerClientError, edgePlugin } from './plugins/edge';
import { securityPlugin } from './plugins/security';
import { sitePlugin } from './plugins/site';
import { ssePlugin } from './sse';
import { workersPlugin } from './workers';
import { payoutOutcomes } from './workers/payouts';
import type { Config } from './config';
import type { Database } from './db/client';
import type { EmailChangeHookOf } from './modules/accounts/service';
import type { CoinNode } from './modules/chain/rpc';
import type { MailTransport } from './modules/notify/mail-relay';
import type { LocalIdpAccess } from './modules/ops/service';
import type { PayoutAdapters } from './modules/payouts/adapters';
import type { JWTVerifyGetKey } from 'jose';

export type AppDependencies = {
  database: Database;
  /** Where token signing keys come from: the issuer's JWKS in production, a local set in tests. */
  jwks: JWTVerifyGetKey;
  localIdp?: LocalIdpAccess;
  lookupProfile?: ProfileLookup;
  /** The EUR rate feed; the seeded simulation unless a deployment plugs in a real one. */
  rates?: RatesAdapter;
  /** Watch-only keys for reception addresses; local mode uses public test keys. */
  xpubs?: Xpubs;
  /** Blocks and balances on chain: the simulated chain with simulated payouts, else CHAIN_BLOCKS_URL's explorer. */
  chain?: Chain;
  /** Real nodes per currency (default: CHAIN_RPC_URL_<CUR>). */
  nodes?: Map<NodeCurrency, CoinNode>;
  /** The XRP Ledger server (default: CHAIN_RPC_URL_XRP; null: none). */
  xrp?: XrpChain | null;
  /** Paying out (crypto, SEPA): the adapters CHAIN_PAYOUTS / BANK_PAYOUTS name unless a test gives its own. */
  payoutAdapters?: Partial<PayoutAdapters>;
  /** Where emails go when SMTP_URL is set (nodemailer's SMTP transport unless a test gives one). */
  mailTransport?: MailTransport;
  /** Where logs go (stdout unless a test captures them). */
  logStream?: NodeJS.WritableStream;
};

/**
 * Builds the server in three layers (as fastify/demo does): external concerns (compression,
 * security headers, errors, database, auth, API docs), then the API modules, then the site.
 */
export async function buildApp(config: Config, deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    bodyLimit: 100 * 1024,
    // Slow clients (config.ts): a request must arrive whole within its time, and a silent
    // connection closes. These limit receiving requests, not writing responses (event streams).
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: config.HTTP_TIMEOUT_CHECK_INTERVAL_MS,
    },
    // Headers too large, a request too slow, bytes that are not HTTP: the API's error shape.
    clientErrorHandler: answerClientError,
    // Rate limits and stream caps key on request.ip: behind a proxy that must be the client's.
    // (A hop count as the function Fastify would make of it; its types accept only the other forms.)
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : (config.TRUST_PROXY ?? false),
    requestIdHeader: 'x-request-id',
    // Malformed URLs and headers get the same error shape as everything else.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorBody('bad_request'));
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin, { loginMaxAgeSeconds: protectionSettings(config).maxAuthAgeSeconds });
  await app.register(edgePlugin);
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(securityPlugin, { authOrigin: new URL(config.authIssuer).origin });
  // The site and the API share an origin; other origins (a CDN-hosted site) are listed explicitly.
  await app.register(cors, {
    origin: [config.siteOrigin],
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
  });
  await app.register(dbPlugin, { database: deps.database });
  // Account protection's settings and the signer of security emails' links: sends, accounts, workers.
  const links = securityLinks({
    origin: config.siteOrigin,
    secret: linkSecret(config),
    ttlMs: config.SECURITY_LINK_TTL_HOURS * 3_600_000,
  });
  await app.register(protectionPlugin, { settings: protectionSettings(config), links });
  await app.register(authPlugin, {
    issuer: config.authIssuer,
    audience: config.authAudience,
    jwks: deps.jwks,
    requiredScope: 'use:muntly',
    claimNamespace: config.AUTH_CLAIM_NAMESPACE,
  });
  // A changed email address is a security event (sends pause, the former address is told).
  const onEmailChange: EmailChangeHookOf = (request) => (db, change) =>
    emailChanged(db, protectionContext(app, request), change);
  await app.register(accountPlugin, { onEmailChange });
  await app.register(ssePlugin, { maxLifetimeMs: config.EVENT_STREAM_MAX_LIFETIME_MS });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Muntly API',
        version: '1.0.0',
        description: 'Amounts are decimal strings. Errors: { error: { code, message, field? } }.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(healthRoutes);
  await app.register(operatorRoutes, { operator: config.operator });
  // Every email names the operator at its foot, as the site does.
  setEmailOperator(config.operator);
  await app.register(authRoutes, {
    // The Auth0 SDK wants the local provider's origin with its scheme and without a trailing slash.
    domain: config.localIdp ? config.authIssuer.replace(/\/$/, '') : config.AUTH0_DOMAIN!,
    clientId: config.authClientId,
    audience: config.authAudience,
  });
  await app.register(accountRoutes, { lookupProfile: deps.lookupProfile ?? (async () => ({})), onEmailChange });
  await app.register(identityRoutes, { bankIban: config.BANK_IBAN });
  const rates =
    deps.rates ??
    (config.RATES_FEED === 'coingecko' ? coingeckoRates({ baseUrl: config.RATES_FEED_URL }) : simulatedRates());
  const xpubs = deps.xpubs ?? xpubsFrom(config);
  // Real nodes (CHAIN_RPC_URL_<CUR>): refused at start-up when on another network than CHAIN_NETWORK;
  // their chain payouts carry the MAC the signer checks (payouts/instruction.ts).
  const nodes = deps.nodes ?? chainNodes(config);
  // The faucet's blocks: the simulated chain's locally, else Muntly's own Bitcoin node, else CHAIN_BLOCKS_URL's explorer.
  const bitcoinNode = nodes.get('BTC');
  const chain =
    deps.chain ??
    (config.CHAIN_PAYOUTS === 'simulated'
      ? simulatedChain()
      : bitcoinNode
        ? nodeBlockSource(bitcoinNode, config.CHAIN_NETWORK)
        : esploraChain({ baseUrl: config.CHAIN_BLOCKS_URL }));
  await checkNodeNetworks(nodes, config.CHAIN_NETWORK, (message) => app.log.warn(message));
  // The XRP Ledger (CHAIN_RPC_URL_XRP, issue 31): one validated ledger is final.
  const xrp = deps.xrp !== undefined ? deps.xrp : xrpChain(config);
  if (xrp) await checkXrpNetwork(xrp, config.CHAIN_NETWORK, (message) => app.log.warn(message));
  const confirmations = (code: string) =>
    code === 'XRP' && xrp
      ? XRP_CONFIRMATIONS
      : isNodeCurrency(code) && nodes.has(code)
        ? confirmationsOf(config, code)
        : null;
  await app.register(ratesRoutes, { rates });
  const faucet = faucetSettings(config, chain);
  await app.register(faucetPlugin, { database: deps.database, rates, settings: faucet });
  await app.register(orderRoutes, {
    rates,
    xpubs,
    lookupLimitPerMinute: config.LOOKUP_LIMIT_PER_MINUTE,
    placement: {
      perEmailPerHour: config.ORDER_LIMIT_PER_EMAIL_PER_HOUR,
      perClientPerHour: config.ORDER_LIMIT_PER_CLIENT_PER_HOUR,
    },
    buySellEnabled: config.BUY_SELL_ENABLED,
    explorers: config.explorers,
    bank: config.bank,
    // The confirmation email's link and the order page's address open the order (orders/links.ts).
    links: orderLinks({ origin: config.siteOrigin, secret: linkSecret(config) }),
    expiryDays: config.ORDER_EXPIRY_DAYS,
    confirmations,
    // A payout the payee's bank sent back shows on its order (issue 33).
    extendView: withPayoutReturn,
  });
  // Four eyes on payouts (PAYOUT_APPROVAL_*): account protection's freeze makes every payout of a
  // frozen account wait too (payouts/approval.ts).
  const approval = payoutApproval(config, rates, {
    accountFrozen,
    ...(nodes.size > 0 || xrp ? { instructionKey: sharedSignerKey(config) } : {}),
  });
  await app.register(walletRoutes, { rates, xpubs, approval, confirmations });
  await app.register(protectionRoutes, {
    xpubs,
    findReception: findByAddress,
    signInReports: { secret: config.SIGN_IN_REPORT_SECRET, issuer: config.authIssuer },
  });
  await app.register(opsRoutes, { localIdp: deps.localIdp });
  await app.register(opsMoneyRoutes, {
    rates,
    chain,
    settlement: { rates, approval, buySellEnabled: config.BUY_SELL_ENABLED },
  });
  await app.register(liabilitiesRoutes, { chain, xpubs });
  await app.register(liabilitiesControlRoutes, { chain, xpubs });
  await app.register(opsChainRoutes, { nodes, xpubs, approval, xrp });
  await app.register(faucetOpsRoutes);
  await app.register(payoutOpsRoutes, { outcomes: payoutOutcomes(approval, links) });
  await app.register(auditRoutes);
  await app.register(opsConsoleRoutes, { rates, approval });
  // Returned payouts (issue 33): the anonymous seller's link is signed with the security links' key, valid two weeks.
  const returns = returnLinks({ origin: config.siteOrigin, secret: linkSecret(config), ttlMs: RETURN_LINK_TTL_MS });
  await app.register(bankOpsRoutes, {
    rates,
    outcomes: payoutOutcomes(approval, links),
    approval,
    account: {
      iban: config.BANK_IBAN,
      bic: config.BANK_BIC,
      name: config.bank.beneficiary,
      painVersion: config.BANK_PAIN_VERSION,
      address: config.bankDebtorAddress,
    },
    links: returns,
  });
  await app.register(payoutReturnRoutes, {
    approval,
    links: returns,
    bank: config.bank,
    perMinute: config.LOOKUP_LIMIT_PER_MINUTE,
  });
  await app.register(supportRoutes);
  if (config.BENCH_ROUTES) await app.register(benchRoutes);
  await app.register(workersPlugin, {
    config,
    rates,
    approval,
    chain,
    xpubs,
    faucet,
    nodes,
    xrp,
    payoutAdapters: deps.payoutAdapters,
    mailTransport: deps.mailTransport,
  });
  if (config.localIdp) await app.register(devMailboxRoutes);

  await app.register(sitePlugin, { publicDir: config.PUBLIC_DIR, authOrigin: new URL(config.authIssuer).origin });
  return app;
}

/** Trust the first `hops` proxies in front of the server (X-Forwarded-For, read from the right). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
