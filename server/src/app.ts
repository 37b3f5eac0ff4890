import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import cors from '@fastify/cors';
import type { JWTVerifyGetKey } from 'jose';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { errorBody, errorsPlugin } from './errors';
import { securityPlugin } from './plugins/security';
import { sitePlugin } from './plugins/site';
import { dbPlugin } from './plugins/db';
import { authPlugin } from './plugins/auth';
import { healthRoutes } from './modules/health/routes';
import { accountRoutes, type ProfileLookup } from './modules/accounts/routes';
import { opsRoutes, type LocalIdpAccess } from './modules/ops/routes';
import { authRoutes } from './modules/auth/routes';
import { identityRoutes } from './modules/identity/routes';
import { devMailboxRoutes } from './dev/mailbox';
import { walletRoutes } from './modules/wallet/routes';
import { faucetPlugin } from './modules/faucet/routes';
import { faucetSettings } from './modules/faucet/settings';
import { simulatedRates, type RatesAdapter } from './modules/rates/service';
import { TEST_XPUBS, type Xpubs } from './modules/chain/derive';
import { ratesRoutes } from './modules/rates/routes';
import { orderRoutes } from './modules/orders/routes';
import { processOrders } from './modules/orders/processing';
import { simulatedChain, type ChainAdapter } from './modules/chain/adapter';
import { coingeckoRates } from './modules/rates/coingecko';
import { benchRoutes } from './dev/bench';
import { applyRetention } from './modules/retention/service';
import { relayMail, smtpTransport, type MailTransport } from './modules/notify/mail-relay';
import { supportRoutes } from './modules/support/routes';

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
  /** Paying crypto out; the simulated chain unless a deployment plugs in its signer. */
  chain?: ChainAdapter;
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
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            ...(deps.logStream ? { stream: deps.logStream } : {}),
            // Tokens and personal data never reach the logs: no headers, no bodies, and no query
            // strings (an operator's ?email= or ?to= would carry one).
            serializers: {
              req: (request: { id: string; method: string; url: string }) => ({ id: request.id, method: request.method, path: request.url.split('?')[0] }),
            },
          },
    bodyLimit: 100 * 1024,
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

  await app.register(errorsPlugin);
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(securityPlugin, { authOrigin: new URL(config.authIssuer).origin });
  // The site and the API share an origin; other origins (a CDN-hosted site) are listed explicitly.
  await app.register(cors, { origin: [config.siteOrigin], methods: ['GET', 'POST', 'PATCH'], allowedHeaders: ['authorization', 'content-type', 'idempotency-key'] });
  await app.register(dbPlugin, { database: deps.database });
  await app.register(authPlugin, { issuer: config.authIssuer, audience: config.authAudience, jwks: deps.jwks, requiredScope: 'use:muntly' });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Muntly API', version: '1.0.0', description: 'Amounts are decimal strings. Errors: { error: { code, message, field? } }.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(healthRoutes);
  await app.register(authRoutes, {
    // The Auth0 SDK wants the local provider's origin with its scheme and without a trailing slash.
    domain: config.localIdp ? config.authIssuer.replace(/\/$/, '') : config.AUTH0_DOMAIN!,
    clientId: config.authClientId,
    audience: config.authAudience,
  });
  await app.register(accountRoutes, { lookupProfile: deps.lookupProfile ?? (async () => ({})) });
  await app.register(identityRoutes);
  const rates = deps.rates ?? (config.RATES_FEED === 'coingecko' ? coingeckoRates({ baseUrl: config.RATES_FEED_URL }) : simulatedRates());
  const chain = deps.chain ?? simulatedChain();
  const xpubs = deps.xpubs ?? xpubsFrom(config);
  await app.register(ratesRoutes, { rates });
  await app.register(faucetPlugin, { database: deps.database, rates, settings: faucetSettings(config) });
  await app.register(orderRoutes, {
    rates,
    xpubs,
    lookupLimitPerMinute: config.LOOKUP_LIMIT_PER_MINUTE,
    buySellEnabled: config.BUY_SELL_ENABLED,
    bank: { iban: config.BANK_IBAN, bic: config.BANK_BIC, beneficiary: config.BANK_BENEFICIARY },
  });
  await app.register(walletRoutes, { rates, xpubs });
  await app.register(opsRoutes, { localIdp: deps.localIdp, rates });
  await app.register(supportRoutes);
  if (config.BENCH_ROUTES) await app.register(benchRoutes);
  if (config.ORDER_WORKER_INTERVAL_MS > 0) repeat(app, 'order processing', config.ORDER_WORKER_INTERVAL_MS, () => processOrders(app.db, { rates, chain }));
  if (config.RETENTION_INTERVAL_MS > 0) repeat(app, 'retention', config.RETENTION_INTERVAL_MS, () => applyRetention(app.db));
  if (config.SMTP_URL) {
    const transport = deps.mailTransport ?? smtpTransport(config.SMTP_URL);
    repeat(app, 'mail relay', 2000, () => relayMail(app.db, transport, config.MAIL_FROM));
  }
  if (config.localIdp) await app.register(devMailboxRoutes);

  await app.register(sitePlugin, { publicDir: config.PUBLIC_DIR, authOrigin: new URL(config.authIssuer).origin });
  return app;
}

/**
 * Background work every replica runs (the order worker, the mail relay, retention); SKIP LOCKED hands each
 * item to one of them. A run never overlaps the previous one in this process, and shutting down
 * lets the current run finish before the database closes.
 */
function repeat(app: FastifyInstance, label: string, intervalMs: number, work: () => Promise<unknown>) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = work()
      .catch((error: unknown) => app.log.warn({ err: error }, `${label} failed; retrying on the next run`))
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}

/** Trust the first `hops` proxies in front of the server (X-Forwarded-For, read from the right). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** XPUB_BTC, XPUB_LTC, XPUB_DOGE, XPUB_BCH, XPUB_ETH and XRP_ADDRESS, or the public test keys. */
function xpubsFrom(config: Config): Xpubs {
  return {
    BTC: config.XPUB_BTC ?? TEST_XPUBS.BTC,
    LTC: config.XPUB_LTC ?? TEST_XPUBS.LTC,
    DOGE: config.XPUB_DOGE ?? TEST_XPUBS.DOGE,
    BCH: config.XPUB_BCH ?? TEST_XPUBS.BCH,
    ETH: config.XPUB_ETH ?? TEST_XPUBS.ETH,
    XRP: config.XRP_ADDRESS ?? TEST_XPUBS.XRP,
  };
}
