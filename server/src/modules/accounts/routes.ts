import { z } from 'zod';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ensureAccount, describeAccount, type MeView } from './service';
import { TtlCache } from '../../cache';
import { errorResponses } from '../../schemas';
import { VERIFICATION_KINDS, VERIFICATION_PHASES } from '../../../../domain/verification';

const phase = z.enum(VERIFICATION_PHASES);
export const meSchema = z.object({
  accountKey: z.string().describe('Short key used in the deposit reference'),
  depositReference: z.string().describe('DEPOSIT + accountKey: the payment reason for deposits'),
  depositLimitEur: z.string().describe('Largest EUR deposit accepted, decimal string'),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  verification: z.object(Object.fromEntries(VERIFICATION_KINDS.map((k) => [k, phase])) as Record<(typeof VERIFICATION_KINDS)[number], typeof phase>),
});

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

const accountRoutesPlugin: FastifyPluginAsyncZod<{ lookupProfile: ProfileLookup }> = async (app, { lookupProfile }) => {
  const summaries = new TtlCache<MeView>(10_000);
  const keyOf = (issuer: string, subject: string) => `${issuer}\n${subject}`;
  app.decorate('forgetAccountSummary', (issuer: string, subject: string) => summaries.delete(keyOf(issuer, subject)));

  app.get(
    '/api/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['account'],
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
      const known = await ensureAccount(app.db, auth);
      const account =
        known.email || auth.email
          ? known
          : await ensureAccount(app.db, auth, await lookupProfile(request.headers.authorization!.slice(7)).catch(() => ({})));
      const summary = await describeAccount(app.db, account);
      summaries.set(key, summary, SUMMARY_TTL_MS);
      return summary;
    },
  );
};

/** Not encapsulated: other modules (identity, ops) call `forgetAccountSummary`. */
export const accountRoutes = fp(accountRoutesPlugin, { name: 'accounts' });
