import { Readable } from 'node:stream';
import { auditListResponse, auditQuery, auditVerifyResponse } from '#domain/contracts/audit';
import { errorResponses } from '../../schemas';
import { auditCsv, listAudit, verifyAudit } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The audit trail for operators and auditors, under /api/ops (admin:muntly), the same as
 * `npm run ops -- audit | audit:verify`: a list with filters, its CSV export, and the chain's check.
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));

  app.get(
    '/api/ops/audit',
    {
      schema: {
        operationId: 'opsListAudit',
        tags: ['audit'],
        summary: 'The audit trail, newest first: who did what, when, to what, with the state before and after',
        security: [{ bearer: [] }],
        querystring: auditQuery,
        response: { 200: auditListResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { cursor, limit, ...filter } = request.query;
      return listAudit(app.db, filter, { cursor, limit });
    },
  );

  app.get(
    '/api/ops/audit.csv',
    {
      schema: {
        operationId: 'opsExportAuditCsv',
        tags: ['audit'],
        summary: 'The audit trail as CSV, oldest first, every row matching the filters (cursor and limit do not apply)',
        security: [{ bearer: [] }],
        querystring: auditQuery,
        // A stream of text/csv (not JSON): no response schema to check it against.
      },
    },
    async (request, reply) => {
      const { cursor: _cursor, limit: _limit, ...filter } = request.query;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="muntly-audit.csv"')
        .send(Readable.from(auditCsv(app.db, filter)));
    },
  );

  app.get(
    '/api/ops/audit/verify',
    {
      schema: {
        operationId: 'opsVerifyAudit',
        tags: ['audit'],
        summary: "Recomputes the audit trail's hash chain; answers the first row that breaks it",
        security: [{ bearer: [] }],
        response: { 200: auditVerifyResponse, ...errorResponses(401, 403) },
      },
    },
    async () => verifyAudit(app.db),
  );
};
