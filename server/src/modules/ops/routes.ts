import { bankPaymentReceived } from '../orders/processing';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountsRepository } from '../accounts/repository';
import { ensureAccount } from '../accounts/service';
import { ApiError } from '../../errors';
import { errorResponses } from '../../schemas';
import { idpUsersRepository } from '../../dev/users';
import { mintAccessToken, type IdpKeys } from '../../dev/keys';
import { enableKind, markVerified, describeIdentity } from '../identity/service';
import { identityRepository } from '../identity/repository';
import { listOutbox } from '../notify/service';
import { verifyLedger } from '../ledger/service';
import { applyRetention } from '../retention/service';
import { creditChainDeposit } from '../wallet/deposits';
import type { RatesAdapter } from '../rates/service';
import { VERIFICATION_KINDS } from '../../../../domain/verification';
import type { Db } from '../../db/client';
import { faucetOpsRoutes } from '../faucet/ops-routes';

/**
 * Operator actions under /api/ops, the same as `npm run ops -- …`. Every route needs a token
 * with both `use:muntly` and `admin:muntly`.
 */
export type LocalIdpAccess = { keys: IdpKeys; issuer: string; audience: string; clientId: string };

const emailBody = z.object({ email: z.email().max(254) });
const emailKindBody = z.object({ email: z.email().max(254), kind: z.enum(VERIFICATION_KINDS) });

/**
 * The account of an email. Locally, a user of the local provider who has not used the API yet
 * gets their account now, so the operator can prepare it before the first login.
 */
async function accountByEmail(db: Db, email: string, localIdp?: LocalIdpAccess) {
  const [account] = await accountsRepository.findByEmail(db, email);
  if (account) return account;
  const idpUser = localIdp ? await idpUsersRepository.findByEmail(db, email) : undefined;
  if (!idpUser) throw new ApiError(404, 'unknown_user', 'email');
  return ensureAccount(db, { issuer: localIdp!.issuer, subject: idpUser.id, scopes: new Set(), expiresAt: 0, email: idpUser.email, name: idpUser.name });
}

/** Who did it, for the audit log. */
const actorOf = (request: { auth?: { issuer: string; subject: string } }) => `${request.auth?.issuer ?? ''}${request.auth?.subject ?? ''}`;

export const opsRoutes: FastifyPluginAsyncZod<{ localIdp?: LocalIdpAccess; rates: RatesAdapter }> = async (app, { localIdp, rates }) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));
  await app.register(faucetOpsRoutes);

  app.get(
    '/api/ops/users',
    {
      schema: {
        tags: ['ops'],
        summary: 'Every account',
        security: [{ bearer: [] }],
        response: {
          200: z.object({
            users: z.array(z.object({ email: z.string().nullable(), displayName: z.string().nullable(), accountKey: z.string(), issuer: z.string(), createdAt: z.string() })),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => ({
      users: (await accountsRepository.list(app.db)).map((a) => ({
        email: a.email,
        displayName: a.displayName,
        accountKey: a.accountKey,
        issuer: a.issuer,
        createdAt: a.createdAt.toISOString(),
      })),
    }),
  );

  app.post(
    '/api/ops/grant-admin',
    {
      schema: {
        tags: ['ops'],
        summary: 'Give a local user the admin:muntly scope (with Auth0, assign the permission there)',
        security: [{ bearer: [] }],
        body: emailBody,
        response: { 200: z.object({ email: z.string(), admin: z.literal(true) }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      if (!localIdp) throw new ApiError(409, 'not_available_in_production');
      const user = await idpUsersRepository.setAdmin(app.db, request.body.email, true);
      if (!user) throw new ApiError(404, 'unknown_user', 'email');
      return { email: user.email, admin: true as const };
    },
  );

  app.post(
    '/api/ops/dev-token',
    {
      schema: {
        tags: ['ops'],
        summary: 'Local mode: an access token for this email (the local user is created if needed)',
        security: [{ bearer: [] }],
        body: emailBody,
        response: { 200: z.object({ email: z.string(), accessToken: z.string(), expiresIn: z.number() }), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      if (!localIdp) throw new ApiError(409, 'not_available_in_production');
      const email = request.body.email.toLowerCase();
      const user = await idpUsersRepository.ensure(app.db, {
        email,
        name: email.split('@')[0]!,
        password: randomBytes(24).toString('base64url'), // nobody logs in with it; the token is the point
      });
      const accessToken = await mintAccessToken(localIdp.keys, {
        issuer: localIdp.issuer,
        audience: localIdp.audience,
        subject: user.id,
        scope: user.isAdmin ? 'openid profile email use:muntly admin:muntly' : 'openid profile email use:muntly',
        email: user.email,
        name: user.name,
        clientId: localIdp.clientId,
      });
      return { email: user.email, accessToken, expiresIn: 3600 };
    },
  );

  app.post(
    '/api/ops/verification/enable',
    {
      schema: {
        tags: ['ops'],
        summary: 'Enable a verification kind for a user (they asked us to)',
        security: [{ bearer: [] }],
        body: emailKindBody,
        response: { 200: z.object({ email: z.string(), kind: z.string(), phase: z.string() }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await accountByEmail(app.db, request.body.email, localIdp);
      const phase = await enableKind(app.db, account.id, request.body.kind, actorOf(request));
      app.forgetAccountSummary(account.issuer, account.subject);
      return { email: request.body.email, kind: request.body.kind, phase };
    },
  );

  app.post(
    '/api/ops/verification/verify',
    {
      schema: {
        tags: ['ops'],
        summary: 'Mark a verification kind verified after checking the document by hand',
        security: [{ bearer: [] }],
        body: emailKindBody,
        response: { 200: z.object({ email: z.string(), kind: z.string(), phase: z.literal('verified') }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await accountByEmail(app.db, request.body.email, localIdp);
      await markVerified(app.db, account.id, request.body.kind, actorOf(request));
      app.forgetAccountSummary(account.issuer, account.subject);
      return { email: request.body.email, kind: request.body.kind, phase: 'verified' as const };
    },
  );

  app.get(
    '/api/ops/identity',
    {
      schema: {
        tags: ['ops'],
        summary: "A user's identity data (every read is written to the audit log)",
        security: [{ bearer: [] }],
        querystring: emailBody,
        response: { 200: z.object({ email: z.string(), kinds: z.array(z.record(z.string(), z.unknown())) }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await accountByEmail(app.db, request.query.email, localIdp);
      await identityRepository.audit(app.db, { actor: actorOf(request), action: 'identity.read', accountId: account.id });
      return { email: request.query.email, kinds: await describeIdentity(app.db, account.id) };
    },
  );

  app.get(
    '/api/ops/outbox',
    {
      schema: {
        tags: ['ops'],
        summary: 'Messages sent (email, SMS, post, bank), newest first',
        security: [{ bearer: [] }],
        querystring: z.object({ to: z.string().max(254).optional() }),
        response: {
          200: z.object({ messages: z.array(z.object({ channel: z.string(), to: z.string(), subject: z.string(), body: z.string(), createdAt: z.string() })) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({ messages: await listOutbox(app.db, request.query.to) }),
  );

  app.get(
    '/api/ops/ledger/verify',
    {
      schema: {
        tags: ['ops'],
        summary: 'Checks every ledger invariant',
        security: [{ bearer: [] }],
        response: { 200: z.object({ ok: z.boolean(), checks: z.array(z.object({ name: z.string(), ok: z.boolean(), problems: z.array(z.string()) })) }), ...errorResponses(401, 403) },
      },
    },
    async () => {
      const checks = await verifyLedger(app.db);
      return { ok: checks.every((c) => c.ok), checks };
    },
  );

  app.post(
    '/api/ops/retention',
    {
      schema: {
        tags: ['ops'],
        summary: 'Deletes identity data and support messages whose retention period has ended (every replica also does this hourly)',
        security: [{ bearer: [] }],
        response: { 200: z.object({ identityDataDeleted: z.number(), messagesDeleted: z.number(), ranAt: z.string() }), ...errorResponses(401, 403) },
      },
    },
    async () => applyRetention(app.db),
  );

  app.post(
    '/api/ops/chain-deposit',
    {
      schema: {
        tags: ['ops'],
        summary: 'Simulate an incoming chain deposit to a reception address (the production watcher calls the same service)',
        security: [{ bearer: [] }],
        body: z.object({ currency: z.string().max(10), address: z.string().max(200), amount: z.string().max(40), txid: z.string().max(100).optional(), sender: z.string().max(200).optional() }),
        response: {
          200: z.object({ txid: z.string(), currency: z.string(), address: z.string(), amount: z.string(), credited: z.boolean(), orderReference: z.string().nullable() }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => creditChainDeposit(app.db, rates, request.body),
  );

  app.post(
    '/api/ops/payment-received',
    {
      schema: {
        tags: ['ops'],
        summary: 'Simulate an incoming SEPA payment: reason = a buy order\'s shortReference, or DEPOSIT + account key (+ currency) (the production bank adapter calls the same service)',
        security: [{ bearer: [] }],
        body: z.object({ reason: z.string().min(1).max(140), amount: z.string().max(40), txid: z.string().max(100).optional() }),
        response: {
          200: z.object({ reference: z.string(), type: z.string(), status: z.string(), amountReceived: z.string().nullable(), credited: z.boolean() }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const { order, created } = await bankPaymentReceived(app.db, rates, request.body);
      return { reference: order.reference, type: order.type, status: order.status, amountReceived: order.amountReceived, credited: created };
    },
  );
};
