import { verificationRejectBody, verificationRejectResponse } from '#domain/contracts/console';
import {
  devTokenResponse,
  enableVerificationResponse,
  grantAdminResponse,
  opsEmailBody,
  opsEmailKindBody,
  opsIdentityResponse,
  opsUsersQuery,
  opsUsersResponse,
  outboxQuery,
  outboxResponse,
  retentionResponse,
  verificationRequestsQuery,
  verificationRequestsResponse,
  verifyResponse,
} from '#domain/contracts/ops';
import { opsAccountParams, opsFreezeBody, opsFreezeResponse } from '#domain/contracts/protection';
import { DomainError } from '#domain/errors';
import { errorResponses } from '../../schemas';
import { findAccountByEmail, findAccountByKey, listAccounts } from '../accounts/service';
import { actorOf, readPersonalData, recordAudit } from '../audit/service';
import {
  enableKind,
  listVerificationRequests,
  markVerified,
  readIdentityAsOperator,
  rejectVerification,
} from '../identity/service';
import { listOutbox } from '../notify/outbox-writer';
import { operatorFreeze, operatorUnfreeze } from '../protection/service';
import { applyRetention } from '../retention/service';
import { accountByEmail, type LocalIdpAccess } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Operator actions under /api/ops on accounts, identity and messages, the same as
 * `npm run ops -- …` (the money's are in money-routes.ts). Every route needs a token with both
 * `use:muntly` and `admin:muntly`.
 */
export const opsRoutes: FastifyPluginAsyncZod<{ localIdp?: LocalIdpAccess }> = async (app, { localIdp }) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));

  app.get(
    '/api/ops/users',
    {
      schema: {
        operationId: 'opsListUsers',
        tags: ['ops'],
        summary: 'Every account, or the one with this email address',
        security: [{ bearer: [] }],
        querystring: opsUsersQuery,
        response: { 200: opsUsersResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      users: (
        await readPersonalData(app.db, actorOf(request), request.query.email ? 'user' : 'users', async (tx) => {
          if (!request.query.email) return listAccounts(tx);
          const account = await findAccountByEmail(tx, request.query.email);
          return account ? [account] : [];
        })
      ).map((a) => ({
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
        operationId: 'opsGrantAdmin',
        tags: ['ops'],
        summary: 'Give a local user the admin:muntly scope (with Auth0, assign the permission there)',
        security: [{ bearer: [] }],
        body: opsEmailBody,
        response: { 200: grantAdminResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      if (!localIdp) throw new DomainError('not_available_in_production');
      const user = await app.db.transaction(async (tx) => {
        const granted = await localIdp.grantAdmin(tx, request.body.email);
        if (!granted) throw new DomainError('unknown_user', 'email');
        // Named by their id: the subject of their tokens, as the trail names them when they act.
        await recordAudit(tx, {
          actor: actorOf(request),
          action: 'admin.grant',
          target: granted.id,
          before: { admin: granted.wasAdmin },
          after: { admin: true },
        });
        return granted;
      });
      return { email: user.email, admin: true as const };
    },
  );

  app.post(
    '/api/ops/dev-token',
    {
      schema: {
        operationId: 'opsDevToken',
        tags: ['ops'],
        summary: 'Local mode: an access token for this email (the local user is created if needed)',
        security: [{ bearer: [] }],
        body: opsEmailBody,
        response: { 200: devTokenResponse, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      if (!localIdp) throw new DomainError('not_available_in_production');
      return app.db.transaction(async (tx) => {
        const { email, subject, admin, accessToken, expiresIn } = await localIdp.devToken(tx, request.body.email);
        // Whoever holds the token acts as that user: the trail says who had it issued (never the token).
        await recordAudit(tx, { actor: actorOf(request), action: 'dev.token', target: subject, after: { admin } });
        return { email, accessToken, expiresIn };
      });
    },
  );

  app.post(
    '/api/ops/verification/enable',
    {
      schema: {
        operationId: 'opsEnableVerification',
        tags: ['ops'],
        summary: 'Enable a verification kind for a user (they asked us to)',
        security: [{ bearer: [] }],
        body: opsEmailKindBody,
        response: { 200: enableVerificationResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await accountByEmail(app.db, request.body.email, localIdp);
      const phase = await enableKind(app.db, account, request.body.kind, actorOf(request));
      app.forgetAccountSummary(account.issuer, account.subject);
      return { email: request.body.email, kind: request.body.kind, phase };
    },
  );

  app.get(
    '/api/ops/verification-requests',
    {
      schema: {
        operationId: 'opsListVerificationRequests',
        tags: ['ops'],
        summary: 'Verification kinds users asked to have enabled, oldest first (all=true: also those enabled since)',
        security: [{ bearer: [] }],
        querystring: verificationRequestsQuery,
        response: { 200: verificationRequestsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      requests: await readPersonalData(app.db, actorOf(request), 'verification-requests', (tx) =>
        listVerificationRequests(tx, request.query.all === 'true'),
      ),
    }),
  );

  app.post(
    '/api/ops/verification/verify',
    {
      schema: {
        operationId: 'opsVerify',
        tags: ['ops'],
        summary: 'Mark a verification kind verified after checking the document by hand',
        security: [{ bearer: [] }],
        body: opsEmailKindBody,
        response: { 200: verifyResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await accountByEmail(app.db, request.body.email, localIdp);
      await markVerified(app.db, account, request.body.kind, actorOf(request));
      app.forgetAccountSummary(account.issuer, account.subject);
      return { email: request.body.email, kind: request.body.kind, phase: 'verified' as const };
    },
  );

  app.post(
    '/api/ops/verification/reject',
    {
      schema: {
        operationId: 'opsRejectVerification',
        tags: ['ops'],
        summary:
          'Send submitted details back to step 1 with a reason the customer reads in their language (on their identity page and by email)',
        security: [{ bearer: [] }],
        body: verificationRejectBody,
        response: { 200: verificationRejectResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { email, kind, reason } = request.body;
      const account = await accountByEmail(app.db, email, localIdp);
      await rejectVerification(app.db, account, kind, reason, actorOf(request));
      app.forgetAccountSummary(account.issuer, account.subject);
      return { email, kind, phase: 'step_1' as const, reason };
    },
  );

  app.get(
    '/api/ops/identity',
    {
      schema: {
        operationId: 'opsGetIdentity',
        tags: ['ops'],
        summary: "A user's identity data (every read is written to the audit trail)",
        security: [{ bearer: [] }],
        querystring: opsEmailBody,
        response: { 200: opsIdentityResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await accountByEmail(app.db, request.query.email, localIdp);
      return { email: request.query.email, kinds: await readIdentityAsOperator(app.db, account, actorOf(request)) };
    },
  );

  // An operator's freeze and unfreeze of an account's sends, by its key; each with its reason in
  // the audit trail (the operator console and `npm run ops -- freeze | unfreeze`).
  const operated = async (accountKey: string) => {
    const account = await findAccountByKey(app.db, accountKey.trim().toUpperCase());
    if (!account) throw new DomainError('not_found');
    return account;
  };
  app.post(
    '/api/ops/accounts/:accountKey/freeze',
    {
      schema: {
        operationId: 'opsFreezeAccount',
        tags: ['ops'],
        summary:
          "Freeze an account's sends at once; only an operator unfreezes it, and its payouts wait for approval (the reason is audited, never shown to the user)",
        security: [{ bearer: [] }],
        params: opsAccountParams,
        body: opsFreezeBody,
        response: { 200: opsFreezeResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const account = await operated(request.params.accountKey);
      const state = await operatorFreeze(app.db, app.protection, {
        account,
        actor: actorOf(request),
        reason: request.body.reason,
      });
      return { accountKey: account.accountKey, ...state };
    },
  );

  app.post(
    '/api/ops/accounts/:accountKey/unfreeze',
    {
      schema: {
        operationId: 'opsUnfreezeAccount',
        tags: ['ops'],
        summary:
          "Unfreeze an account's sends at once, without the user's cool-down (they proved who they are to support, or an operator's freeze ends); the reason is audited",
        security: [{ bearer: [] }],
        params: opsAccountParams,
        body: opsFreezeBody,
        response: { 200: opsFreezeResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const account = await operated(request.params.accountKey);
      const state = await operatorUnfreeze(app.db, app.protection, {
        account,
        actor: actorOf(request),
        reason: request.body.reason,
      });
      return { accountKey: account.accountKey, ...state };
    },
  );

  app.get(
    '/api/ops/outbox',
    {
      schema: {
        operationId: 'opsListOutbox',
        tags: ['ops'],
        summary: 'Messages sent (email, SMS, post, bank), newest first',
        security: [{ bearer: [] }],
        querystring: outboxQuery,
        response: { 200: outboxResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      messages: await readPersonalData(app.db, actorOf(request), 'outbox', (tx) => listOutbox(tx, request.query.to)),
    }),
  );

  app.post(
    '/api/ops/retention',
    {
      schema: {
        operationId: 'opsRunRetention',
        tags: ['ops'],
        summary:
          'Deletes identity data and support messages whose retention period has ended (every replica also does this hourly)',
        security: [{ bearer: [] }],
        response: { 200: retentionResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => applyRetention(app.db, new Date(), actorOf(request)),
  );

  app.post(
    '/api/ops/backup',
    {
      schema: {
        operationId: 'opsBackup',
        tags: ['ops'],
        summary:
          'The embedded database (PGlite) as a consistent gzipped tarball, taken while the server runs; with PostgreSQL 409 backup_not_embedded (use pg_basebackup and WAL archiving)',
        security: [{ bearer: [] }],
        // A gzipped tarball (not JSON): no response schema to check it against.
      },
    },
    async (request, reply) => {
      const { database } = app;
      if (!database.backup) throw new DomainError('backup_not_embedded');
      // Recorded first, so the backup holds the row of its own making: a restore shows which backup it was.
      const at = new Date();
      await app.db.transaction((tx) =>
        recordAudit(tx, { actor: actorOf(request), action: 'database.backup', after: { at: at.toISOString() } }),
      );
      const tarball = Buffer.from(await (await database.backup()).arrayBuffer());
      return reply
        .header('content-type', 'application/gzip')
        .header(
          'content-disposition',
          `attachment; filename="muntly-pglite-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz"`,
        )
        .header('cache-control', 'no-store')
        .send(tarball);
    },
  );
};
