import rateLimit from '@fastify/rate-limit';
import {
  confirmOrderBody,
  confirmOrderParams,
  exchangeConfigResponse,
  lookupOrderBody,
  myOrdersResponse,
  openOrderBody,
  orderEventsParams,
  orderEventsQuery,
  orderSchema,
  placeOrderBody,
  placeOrderHeaders,
} from '#domain/contracts/orders';
import { emailLinkKey } from '#domain/customer-key';
import { emailKey } from '#domain/email';
import { DomainError, secondsToWait } from '#domain/errors';
import { isOpenOrder } from '#domain/orders';
import { RateLimited } from '../../errors';
import { takeLimits, type Limit } from '../../limits';
import { errorResponses } from '../../schemas';
import { requestLanguage } from '../notify/service';
import { confirmWalletOrder, placeOrder, lookupOrder, openOrderLink, ordersOf, type OrderRow } from './service';
import { orderView, withIncoming, type BankDetails } from './views';
import type { Order } from '#domain/contracts/orders';
import type { Db } from '../../db/client';
import type { Xpubs } from '../chain/service';
import type { RatesAdapter } from '../rates/service';
import type { OrderLinks } from './links';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

type Options = {
  rates: RatesAdapter;
  bank: BankDetails;
  buySellEnabled: boolean;
  /** Block explorers' transaction pages per currency (`{txid}` where the hash goes). */
  explorers: Record<string, string>;
  xpubs: Xpubs;
  lookupLimitPerMinute: number;
  /** Orders placed per hour for one email address, and from one client address. */
  placement: { perEmailPerHour: number; perClientPerHour: number };
  eventsPollMs?: number;
  /** Confirmations a currency's deposits need, for those with a real node (null: none; chain/nodes.ts). */
  confirmations?: (currency: string) => number | null;
  /**
   * What other modules add to an order's view (wired in app.ts, so that orders depends on none of
   * them): a returned payout (bank/returns.ts withPayoutReturn).
   */
  extendView?: (db: Db, view: Order, row: OrderRow) => Promise<Order>;
  /** The signed links to orders (links.ts): in the confirmation email and the order page's address. */
  links: OrderLinks;
  /** ORDER_EXPIRY_DAYS: an unpaid order says by when it must be paid. */
  expiryDays: number;
};

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Signed links opened (and their orders followed) per minute from one address: a bound on cost, not on guessing. */
const LINK_OPENS_PER_MINUTE = 60;

type LimitResult = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;
/** Throws 429 try_again_soon, with the longest wait, when any of the limits is exceeded. */
function refuseExceeded(results: LimitResult[]) {
  const waits = results.flatMap((result) => (!result.isAllowed && result.isExceeded ? [result.ttl] : []));
  if (waits.length) throw new RateLimited(secondsToWait(Math.max(...waits)));
}
const emailOf = (request: FastifyRequest) =>
  emailKey(
    String(
      (request.body as { email?: unknown } | undefined)?.email ?? (request.query as { email?: unknown })?.email ?? '',
    ),
  );

export const orderRoutes: FastifyPluginAsyncZod<Options> = async (
  app,
  {
    rates,
    bank,
    buySellEnabled,
    explorers,
    xpubs,
    lookupLimitPerMinute,
    placement,
    eventsPollMs = 1000,
    confirmations = () => null,
    extendView = async (_db, view) => view,
    links,
    expiryDays,
  },
) => {
  /** The order as the API shows it, with the coins confirming at its receiving address ("confirming n of N"). */
  const viewOf = async (row: OrderRow) =>
    extendView(app.db, await withIncoming(app.db, orderView(row, bank, expiryDays), row, confirmations), row);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new RateLimited(secondsToWait(context.ttl)),
  });
  // Guessing a reference: at most 10 tries a minute from one address (this process's memory), and
  // 10 a minute for one email address from anywhere, counted in the database every replica shares
  // (so spreading the guesses over many addresses or replicas does not help).
  const byAddress = app.createRateLimit({ max: lookupLimitPerMinute, timeWindow: '1 minute' });
  const lookupByEmail: Limit = { name: 'order-lookup-email', max: lookupLimitPerMinute, windowMs: MINUTE_MS };
  const lookupLimits = async (request: FastifyRequest) => {
    refuseExceeded([await byAddress(request)]);
    await takeLimits(app.db, [{ limit: lookupByEmail, subject: emailLinkKey(emailOf(request)) }]);
  };
  // A signed link cannot be guessed (its MAC is checked before anything is read), so opening one
  // and following its order live are not counted against the lookups' limits: a customer who
  // reloads the order page from the email five times in a minute keeps the order. Only the cost
  // is bounded, per address, well above what a person does.
  const linkOpensByAddress = app.createRateLimit({ max: LINK_OPENS_PER_MINUTE, timeWindow: '1 minute' });
  const linkLimits = async (request: FastifyRequest) => refuseExceeded([await linkOpensByAddress(request)]);
  // Placing orders: each order mails its email address, so a stranger must not be able to fill
  // someone's mailbox (per email, in the shared database: the orders placed with it in the last
  // hour, by its link key so that no spelling starts a new count; a refused request mails nothing
  // and counts for nothing), nor one client to place orders without end (per address, every request).
  const placeByClient = app.createRateLimit({
    max: placement.perClientPerHour,
    timeWindow: '1 hour',
    keyGenerator: (request) => `place-client:${request.ip}`,
  });
  const placeByEmail: Limit = { name: 'order-place-email', max: placement.perEmailPerHour, windowMs: HOUR_MS };

  // Live order status: capped per client and per order, ended after their lifetime and on shutdown (sse.ts).
  const streams = app.eventStreams();

  app.get(
    '/api/exchange/config',
    {
      schema: {
        operationId: 'getExchangeConfig',
        tags: ['orders'],
        summary:
          'Whether buying and selling are on, the bank account buyers and depositors pay to, and the block explorers that transaction hashes link to',
        response: { 200: exchangeConfigResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return { buySellEnabled, bank, explorers };
    },
  );

  app.post(
    '/api/orders',
    {
      // Logged in or not: a token, when sent, must be valid.
      onRequest: app.withOptionalAccount,
      preHandler: async (request) => refuseExceeded([await placeByClient(request)]),
      // The answer holds the order's email and reference, which together open it.
      config: { personal: true },
      schema: {
        operationId: 'placeOrder',
        tags: ['orders'],
        summary:
          'Place a buy, sell or swap order (anyone; the own-wallet options need a login). Idempotency-Key honoured.',
        headers: placeOrderHeaders,
        body: placeOrderBody,
        response: { 201: orderSchema, 200: orderSchema, ...errorResponses(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      // The email's limit is taken by the placement: in the statement that places an anonymous
      // order, else before the order's transaction; a refusal or a replay takes no use.
      const { order, created } = await placeOrder(
        app.db,
        rates,
        {
          buySellEnabled,
          xpubs,
          bank,
          account: request.account,
          language: requestLanguage(request.headers['accept-language']),
          idempotencyKey: request.headers['idempotency-key'],
          protection: app.protection,
          emailLimit: { limit: placeByEmail, subject: emailLinkKey(emailOf(request)) },
          orderLinks: links,
          expiryDays,
        },
        request.body,
      );
      // A logged-in customer is told which address the order's emails go to (for an order with
      // their wallet, the account's, whatever the form said): with the reference it opens the order.
      // The answer carries the order's signed link: the page keeps it in its address, so a reload keeps the order.
      return reply.code(created ? 201 : 200).send({
        ...orderView(order, bank, expiryDays),
        link: links.token(order.reference),
        ...(request.account ? { email: order.email } : {}),
      });
    },
  );

  app.post(
    '/api/orders/:reference/confirm',
    {
      onRequest: app.withAccount,
      config: { personal: true },
      schema: {
        operationId: 'confirmWalletOrder',
        tags: ['orders'],
        summary:
          'Confirm an order paid from your wallet to an address or IBAN outside it, with the code emailed to your account',
        security: [{ bearer: [] }],
        params: confirmOrderParams,
        body: confirmOrderBody,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
        description:
          'A send like any other: account protection (freeze, cool-down, allow-list mode and its hold), a login at most SEND_MAX_AUTH_AGE_MINUTES old (else 401 login_required_recent with WWW-Authenticate max_age), a second factor once the last 24 hours pass SEND_SECOND_FACTOR_ABOVE_EUR, the week’s verifications; then the amount leaves the wallet.',
      },
    },
    async (request) => {
      const { authTime, amr } = request.auth!;
      const order = await confirmWalletOrder(
        app.db,
        { rates, buySellEnabled, protection: app.protection },
        {
          account: request.account!,
          reference: request.params.reference,
          code: request.body.code,
          login: { authTime, amr },
        },
      );
      return orderView(order, bank, expiryDays);
    },
  );

  app.post(
    '/api/orders/open',
    {
      preHandler: linkLimits,
      config: { personal: true },
      schema: {
        operationId: 'openOrder',
        tags: ['orders'],
        summary:
          "Open an order with its signed link's token (its confirmation email, the order page's address): the order with its email, which follows it live",
        body: openOrderBody,
        response: { 200: orderSchema, ...errorResponses(400, 404, 429) },
        description:
          'link_invalid: not a genuine link, or another order’s; order_link_expired: past its lifetime (find the order with its email and reference instead).',
      },
    },
    async (request) => {
      const row = await openOrderLink(app.db, links, request.body.token);
      return { ...(await viewOf(row)), email: row.email!, link: request.body.token.trim() };
    },
  );

  app.post(
    '/api/orders/lookup',
    {
      preHandler: lookupLimits,
      config: { personal: true },
      schema: {
        operationId: 'lookupOrder',
        tags: ['orders'],
        summary: 'Find an order by email and full reference (rate-limited; one uniform "not found")',
        body: lookupOrderBody,
        response: { 200: orderSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      if (!request.body.email.trim()) throw new DomainError('invalid_email', 'email');
      return viewOf(await lookupOrder(app.db, request.body.email, request.body.reference));
    },
  );

  app.get(
    '/api/orders/:reference/events',
    {
      preHandler: (request) =>
        (request.query as { link?: string }).link !== undefined ? linkLimits(request) : lookupLimits(request),
      config: { personal: true },
      schema: {
        operationId: 'streamOrderEvents',
        tags: ['orders'],
        summary:
          'Live order status (Server-Sent Events, event "order" with the whole order) for the holder of email + reference, or of its signed link (`link`); ends when completed',
        params: orderEventsParams,
        querystring: orderEventsQuery,
        response: { ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const { email, link } = request.query;
      let order =
        link !== undefined
          ? await openOrderLink(app.db, links, link, request.params.reference)
          : await lookupOrder(app.db, email ?? '', request.params.reference);
      const stream = streams.start(request, reply, order.reference);
      let last = '';
      const emit = async (row: typeof order) => {
        const view = await viewOf(row);
        const text = JSON.stringify(view);
        if (text !== last) stream.send('order', view);
        last = text;
      };
      await emit(order);
      const open = () => isOpenOrder(order.status);
      if (!open()) return stream.close();
      // Polling the row keeps this right with several replicas (the worker may be another process).
      const timer = setInterval(() => {
        void lookupOrder(app.db, order.email, order.reference)
          .then((row) => {
            // A changed row, or (waiting for coins) a new confirmation at its address.
            if (
              row.updatedAt.getTime() !== order.updatedAt.getTime() ||
              row.status !== order.status ||
              row.receivingAddress
            ) {
              order = row;
              return emit(row).then(() => {
                if (!open()) stream.close();
              });
            }
            return undefined;
          })
          .catch(() => undefined); // a passing database hiccup: the next tick tries again
      }, eventsPollMs);
      stream.onClose(() => clearInterval(timer));
    },
  );

  app.get(
    '/api/me/orders',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'listMyOrders',
        tags: ['orders'],
        summary: 'Your own orders, newest first',
        security: [{ bearer: [] }],
        response: { 200: myOrdersResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const account = request.account!;
      return {
        orders: await Promise.all(
          (await ordersOf(app.db, account.id)).map(async (row) => ({
            ...(await extendView(app.db, orderView(row, bank, expiryDays), row)),
            email: row.email,
          })),
        ),
      };
    },
  );
};
