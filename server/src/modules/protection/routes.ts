import { createHash, timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import {
  addEntryBody,
  addressBookEntrySchema,
  addressBookResponse,
  linkOutcomeQuery,
  securityLinkForm,
  securityLinkQuery,
  securityOverviewSchema,
  securitySettingsBody,
  signInReportBody,
  signInReportResponse,
  unfreezeConfirmBody,
} from '#domain/contracts/protection';
import { walletIdParams } from '#domain/contracts/wallet';
import { DomainError, secondsToWait, statusOf } from '#domain/errors';
import { isLanguage, type Language } from '#domain/languages';
import { RateLimited } from '../../errors';
import { takeLimits, type Limit } from '../../limits';
import { errorResponses } from '../../schemas';
import { requestLanguage } from '../notify/service';
import { securityLinkPath, type SecurityLinks } from './links';
import { cancelledPage, cancelQuestionPage, failedPage, freezeQuestionPage, frozenPage } from './pages';
import {
  addEntry,
  cancelByLink,
  clientOf,
  confirmUnfreeze,
  freeze,
  freezeByLink,
  listBook,
  previewLink,
  removeEntry,
  requestUnfreeze,
  protectionContext,
  recordSignIn,
  securityOverview,
  setAllowList,
  setPhrase,
  type FindReception,
  type ProtectionSettings,
} from './service';
import type { SecurityLinkPurpose } from '#domain/protection';
import type { Xpubs } from '../chain/service';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

declare module 'fastify' {
  interface FastifyInstance {
    /** Account protection's settings (config) and the maker of security links: what sends, accounts and workers need of it. */
    protection: { settings: ProtectionSettings; links: SecurityLinks };
  }
}

/** Decorates the app with `protection` (registered before the modules that send security emails). */
export const protectionPlugin = fp<{ settings: ProtectionSettings; links: SecurityLinks }>(
  async (app, options) => {
    app.decorate('protection', { settings: options.settings, links: options.links });
  },
  { name: 'protection' },
);

/** Clicks on links from emails per client address: plenty for a person, nothing to guess with (the links are signed anyway). */
export const SECURITY_LINK_RATE_LIMIT = { max: 30, timeWindow: '10 minutes' } as const;
/**
 * Uses of one link (its token, hashed), counted in the database every replica shares: a link acts
 * on one person's account and mails them, so whoever holds it (a forwarded email, a mail scanner)
 * gets the same few tries however many replicas or addresses they spread them over.
 */
export const SECURITY_LINK_LIMIT: Limit = { name: 'security-link', max: 10, windowMs: 10 * 60_000 };

/**
 * The logged-in user's protection (/api/wallet/address-book, /api/wallet/security) and the pages
 * of the links in security emails (/api/security/…), which work without a login.
 */
export const protectionRoutes: FastifyPluginAsyncZod<{
  xpubs: Xpubs;
  findReception: FindReception;
  /** The provider's reports of logins: the shared secret (none: the endpoint is off) and the provider's issuer (whose subjects they name). */
  signInReports: { secret: string | undefined; issuer: string };
}> = async (app, { xpubs, findReception, signInReports }) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new RateLimited(secondsToWait(context.ttl)),
  });
  // The link pages post a plain HTML form (no script on them).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 2048 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  const ctx = (request: FastifyRequest) => protectionContext(app, request);

  app.get(
    '/api/wallet/address-book',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'listAddressBook',
        tags: ['protection'],
        summary: 'Your address book: where your sends may go',
        security: [{ bearer: [] }],
        response: { 200: addressBookResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ entries: await listBook(app.db, request.account!.id) }),
  );

  app.post(
    '/api/wallet/address-book',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'addAddressBookEntry',
        tags: ['protection'],
        summary:
          'Add an address: usable after the hold (another Muntly user’s at once); an email with a cancel link announces it',
        security: [{ bearer: [] }],
        body: addEntryBody,
        response: { 201: addressBookEntrySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const account = request.account!;
      const entry = await addEntry(app.db, ctx(request), {
        account,
        houseXrpAddress: xpubs.XRP,
        findReception,
        ...request.body,
        label: request.body.label || undefined,
      });
      return reply.code(201).send(entry);
    },
  );

  app.delete(
    '/api/wallet/address-book/:id',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'removeAddressBookEntry',
        tags: ['protection'],
        summary: 'Remove an address from your book',
        security: [{ bearer: [] }],
        params: walletIdParams,
        response: { 200: addressBookEntrySchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => removeEntry(app.db, ctx(request), { accountId: request.account!.id, id: request.params.id }),
  );

  app.get(
    '/api/wallet/security',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'getSecurity',
        tags: ['protection'],
        summary:
          'Allow-list mode, address book, anti-phishing phrase (masked), freeze, cool-downs and recent security events',
        security: [{ bearer: [] }],
        response: { 200: securityOverviewSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return securityOverview(app.db, app.protection.settings, request.account!.id);
    },
  );

  app.patch(
    '/api/wallet/security',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'updateSecurity',
        tags: ['protection'],
        summary:
          'Switch allow-list mode, set or remove (null) the anti-phishing phrase; either starts a cool-down on sends',
        security: [{ bearer: [] }],
        body: securitySettingsBody,
        response: { 200: securityOverviewSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const account = request.account!;
      if (request.body.phrase !== undefined)
        await setPhrase(app.db, ctx(request), { account, phrase: request.body.phrase });
      if (request.body.allowListOnly !== undefined)
        await setAllowList(app.db, ctx(request), { account, on: request.body.allowListOnly });
      return securityOverview(app.db, app.protection.settings, account.id);
    },
  );

  app.post(
    '/api/wallet/security/freeze',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'freezeSends',
        tags: ['protection'],
        summary: 'Freeze every send of your account at once',
        security: [{ bearer: [] }],
        response: { 200: securityOverviewSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      await freeze(app.db, ctx(request), { account: request.account!, byLink: false });
      return securityOverview(app.db, app.protection.settings, request.account!.id);
    },
  );

  app.post(
    '/api/wallet/security/unfreeze',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'requestUnfreeze',
        tags: ['protection'],
        summary: 'Unfreeze, step 1: a code is emailed',
        security: [{ bearer: [] }],
        response: { 200: securityOverviewSchema, ...errorResponses(401, 403, 409, 429) },
      },
    },
    async (request) => {
      await requestUnfreeze(app.db, ctx(request), { account: request.account! });
      return securityOverview(app.db, app.protection.settings, request.account!.id);
    },
  );

  app.post(
    '/api/wallet/security/unfreeze/confirm',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'confirmUnfreeze',
        tags: ['protection'],
        summary: 'Unfreeze, step 2: the emailed code; sends resume after the cool-down',
        security: [{ bearer: [] }],
        body: unfreezeConfirmBody,
        response: { 200: securityOverviewSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      await confirmUnfreeze(app.db, ctx(request), { account: request.account!, code: request.body.code });
      return securityOverview(app.db, app.protection.settings, request.account!.id);
    },
  );

  // The links of security emails. GET shows what the link would do and a button; only the POST
  // does it, so a mail scanner fetching links does nothing. The page's form is answered with a
  // redirect to a page (post/redirect/get: a reload posts nothing again); a JSON request with
  // the token gets JSON, as every API answer.
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  const linkRoute = {
    config: { rateLimit: SECURITY_LINK_RATE_LIMIT },
    preHandler: async (request: FastifyRequest) => {
      const token = (request.query as { t?: unknown }).t ?? (request.body as { t?: unknown } | undefined)?.t;
      if (typeof token === 'string' && token)
        await takeLimits(app.db, [{ limit: SECURITY_LINK_LIMIT, subject: token }]);
    },
  };
  const linkClient = { client: 'email link' };
  const pageLanguage = (request: FastifyRequest, given?: string): Language =>
    isLanguage(given) ? given : requestLanguage(request.headers['accept-language']);
  const isForm = (request: FastifyRequest) =>
    (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const again = (purpose: SecurityLinkPurpose, token: string) =>
    `${securityLinkPath(purpose)}?t=${encodeURIComponent(token)}`;

  app.get(
    '/api/security/freeze',
    {
      ...linkRoute,
      schema: {
        operationId: 'showFreezeLink',
        tags: ['protection'],
        summary: 'A freeze link: the question, with a button (HTML)',
        querystring: securityLinkQuery,
      },
    },
    async (request, reply) => {
      const preview = await previewLink(app.db, app.protection.links, request.query.t, 'freeze');
      if (!preview.ok)
        return html(reply, statusOf(preview.code), failedPage(preview.language ?? pageLanguage(request), preview.code));
      return html(reply, 200, freezeQuestionPage(preview.language, securityLinkPath('freeze'), request.query.t));
    },
  );

  app.post(
    '/api/security/freeze',
    {
      ...linkRoute,
      schema: {
        operationId: 'useFreezeLink',
        tags: ['protection'],
        summary: 'A freeze link, confirmed: every send of the account stops (the page’s form: 303 to the outcome)',
        body: securityLinkForm,
      },
    },
    async (request, reply) => {
      const done = await freezeByLink(app.db, { ...app.protection, ...linkClient }, request.body.t);
      if (isForm(request))
        return reply
          .code(303)
          .header('cache-control', 'no-store')
          .redirect(done.ok ? `/api/security/frozen?lang=${done.language}` : again('freeze', request.body.t), 303);
      if (!done.ok) throw new DomainError(done.code, 't');
      return { frozen: true };
    },
  );

  app.get(
    '/api/security/frozen',
    {
      schema: {
        operationId: 'showFrozen',
        tags: ['protection'],
        summary: 'After a freeze link: the outcome (HTML)',
        querystring: linkOutcomeQuery,
      },
    },
    async (request, reply) => html(reply, 200, frozenPage(pageLanguage(request, request.query.lang))),
  );

  app.get(
    '/api/security/cancel-address',
    {
      ...linkRoute,
      schema: {
        operationId: 'showCancelAddressLink',
        tags: ['protection'],
        summary: 'A cancel link of a new address: the question, with a button (HTML)',
        querystring: securityLinkQuery,
      },
    },
    async (request, reply) => {
      const preview = await previewLink(app.db, app.protection.links, request.query.t, 'cancel_address');
      if (!preview.ok)
        return html(reply, statusOf(preview.code), failedPage(preview.language ?? pageLanguage(request), preview.code));
      // The entry is gone (the user removed it): nothing left to cancel.
      if (!preview.entry) return html(reply, statusOf('link_used'), failedPage(preview.language, 'link_used'));
      return html(
        reply,
        200,
        cancelQuestionPage(preview.language, securityLinkPath('cancel_address'), request.query.t, preview.entry),
      );
    },
  );

  app.post(
    '/api/security/cancel-address',
    {
      ...linkRoute,
      schema: {
        operationId: 'useCancelAddressLink',
        tags: ['protection'],
        summary: 'A cancel link, confirmed: the address leaves the book (the page’s form: 303 to the outcome)',
        body: securityLinkForm,
      },
    },
    async (request, reply) => {
      const done = await cancelByLink(app.db, { ...app.protection, ...linkClient }, request.body.t);
      if (isForm(request)) {
        const next = done.ok
          ? `/api/security/cancelled?lang=${done.language}&t=${encodeURIComponent(done.freezeToken)}`
          : again('cancel_address', request.body.t);
        return reply.code(303).header('cache-control', 'no-store').redirect(next, 303);
      }
      if (!done.ok) throw new DomainError(done.code, 't');
      return { cancelled: true };
    },
  );

  app.get(
    '/api/security/cancelled',
    {
      schema: {
        operationId: 'showCancelled',
        tags: ['protection'],
        summary: 'After a cancel link: the outcome, and a button to freeze sends too (HTML)',
        querystring: linkOutcomeQuery,
      },
    },
    async (request, reply) =>
      html(
        reply,
        200,
        cancelledPage(pageLanguage(request, request.query.lang), securityLinkPath('freeze'), request.query.t ?? ''),
      ),
  );

  // Logins reported by the identity provider (an Auth0 post-login Action): the shared secret as a
  // bearer token, checked before the body is even read; off (404) while SIGN_IN_REPORT_SECRET is unset.
  const secretDigest = signInReports.secret ? createHash('sha256').update(signInReports.secret).digest() : undefined;
  app.post(
    '/api/security/sign-ins',
    {
      onRequest: async (request) => {
        if (!secretDigest) throw new DomainError('not_found');
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
        if (!timingSafeEqual(createHash('sha256').update(given).digest(), secretDigest))
          throw new DomainError('sign_in_report_secret_invalid');
      },
      schema: {
        operationId: 'reportSignIn',
        tags: ['protection'],
        summary:
          'The identity provider reports a login (Authorization: Bearer SIGN_IN_REPORT_SECRET): a device new to the account is a security event and an email',
        security: [{ bearer: [] }],
        body: signInReportBody,
        response: { 200: signInReportResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { subject, deviceKey, userAgent, language } = request.body;
      const signIn = {
        subject,
        deviceKey,
        client: clientOf(userAgent),
        at: new Date(),
        language: isLanguage(language) ? language : undefined,
      };
      return {
        device: await recordSignIn(app.db, { links: app.protection.links, issuer: signInReports.issuer }, signIn),
      };
    },
  );
};
