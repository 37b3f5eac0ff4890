import fp from 'fastify-plugin';
import { meSchema, type Me } from '#domain/contracts/accounts';
import { TtlCache } from '../../cache';
import { errorResponses } from '../../schemas';
import { ensureAccount, describeAccount, type EmailChangeHookOf } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export type ProfileLookup = (token: string) => Promise<{ email?: string; name?: string }>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Forget a cached account summary after changing the account (e.g. a verification phase). */
    forgetAccountSummary: (issuer: string, subject: string) => void;
  }
}

/**
 * How long this replica may answer GET /api/me from memory. The summary is for display; every
 * decision (gates, balances) reads the database. Writes made here forget it at once; writes made
 * on another replica show within this time.
 */
export const SUMMARY_TTL_MS = 2000;

const accountRoutesPlugin: FastifyPluginAsyncZod<{
  lookupProfile: ProfileLookup;
  onEmailChange: EmailChangeHookOf;
}> = async (app, { lookupProfile, onEmailChange }) => {
  const summaries = new TtlCache<Me>(10_000);
  const keyOf = (issuer: string, subject: string) => `${issuer}\n${subject}`;
  app.decorate('forgetAccountSummary', (issuer: string, subject: string) => summaries.delete(keyOf(issuer, subject)));

  app.get(
    '/api/me',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'getMe',
        tags: ['accounts'],
        summary: 'The logged-in user’s account (created on first use)',
        security: [{ bearer: [] }],
        response: { 200: meSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const auth = request.auth!;
      const key = keyOf(auth.issuer, auth.subject);
      const cached = summaries.get(key);
      if (cached) return cached;
      // Auth0 access tokens carry no email: ask the provider once, when the account has none.
      const hook = onEmailChange(request);
      const known = await ensureAccount(app.db, auth, {}, hook);
      const account =
        known.email || auth.email
          ? known
          : await ensureAccount(
              app.db,
              auth,
              await lookupProfile(request.headers.authorization!.slice(7)).catch(() => ({})),
              hook,
            );
      const summary = await describeAccount(app.db, account);
      summaries.set(key, summary, SUMMARY_TTL_MS);
      return summary;
    },
  );
};

/** Not encapsulated: other modules (identity, ops) call `forgetAccountSummary`. */
export const accountRoutes = fp(accountRoutesPlugin, { name: 'accounts' });
