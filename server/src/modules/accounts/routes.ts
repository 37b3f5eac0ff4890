import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ensureAccount, describeAccount } from './service';
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

export const accountRoutes: FastifyPluginAsyncZod<{ lookupProfile: ProfileLookup }> = async (app, { lookupProfile }) => {
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
      // Auth0 access tokens carry no email: ask the provider once, when the account has none.
      const known = await ensureAccount(app.db, auth);
      const account =
        known.email || auth.email
          ? known
          : await ensureAccount(app.db, auth, await lookupProfile(request.headers.authorization!.slice(7)).catch(() => ({})));
      return describeAccount(app.db, account);
    },
  );
};
