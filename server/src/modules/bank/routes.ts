import {
  assignPaymentBody,
  assignPaymentResponse,
  bankExportFileResponse,
  bankExportParams,
  bankExportsQuery,
  bankExportsResponse,
  bankPaymentParams,
  bankPaymentsQuery,
  bankPaymentsResponse,
  exportPayoutsResponse,
  importStatementResponse,
  refundPaymentResponse,
  statementBody,
} from '#domain/contracts/bank';
import { DomainError } from '#domain/errors';
import { errorBody } from '../../errors';
import { errorResponses } from '../../schemas';
import { actorOf, readPersonalData } from '../audit/service';
import { charsetOf, decodeStatement } from './encoding';
import {
  assignBankPayment,
  bankExportFile,
  exportPayouts,
  importStatement,
  listBankExports,
  planImport,
  listBankPayments,
  refundBankPayment,
  type BankAccountConfig,
} from './service';
import type { PayoutApproval } from '../payouts/approval';
import type { PayoutOutcomes } from '../payouts/service';
import type { RatesAdapter } from '../rates/service';
import type { ReturnLinks } from './returns';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** A day's camt.053 of a busy account is a few hundred kilobytes; far more is not a statement. */
export const STATEMENT_BODY_LIMIT = 5 * 1024 * 1024;

/**
 * The operator's bank files under /api/ops/bank (admin tokens only), the same as `npm run ops --
 * import-statement | unmatched | assign-payment | refund-payment | export-payouts | bank-exports |
 * bank-export` and the operator console. The statement is posted as it came from the bank
 * (Content-Type application/xml or text/xml); the payouts file comes back in JSON and, again,
 * as the file itself.
 */
export const bankOpsRoutes: FastifyPluginAsyncZod<{
  rates: RatesAdapter;
  outcomes: PayoutOutcomes;
  approval: PayoutApproval;
  account: BankAccountConfig;
  links?: ReturnLinks;
}> = async (app, { rates, outcomes, approval, account, links }) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));
  // Only in this plugin: the rest of the API takes JSON alone. The bytes as they came: their
  // encoding is the file's to say (encoding.ts), not the parser's to assume.
  app.addContentTypeParser(
    ['application/xml', 'text/xml'],
    { parseAs: 'buffer', bodyLimit: STATEMENT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/ops/bank/statements',
    {
      bodyLimit: STATEMENT_BODY_LIMIT,
      schema: {
        operationId: 'opsImportStatement',
        tags: ['bank'],
        summary:
          'Import a camt.053 bank statement: credits are matched to orders and deposits as payment-received does, once per bank reference; the rest wait in the unmatched queue. Debits naming an exported payout complete it.',
        security: [{ bearer: [] }],
        consumes: ['application/xml', 'text/xml'],
        body: statementBody,
        response: { 200: importStatementResponse, ...errorResponses(400, 401, 403, 413) },
      },
      // The body is the file's bytes (a Buffer); statementBody documents it for the API's readers.
      validatorCompiler: () => (body) =>
        Buffer.isBuffer(body) ? { value: body } : { error: new DomainError('statement_invalid', 'statement') },
    },
    async (request, reply) => {
      // Refused here, before anything is booked or streamed: an encoding, a file, an account.
      const plan = planImport(
        decodeStatement(request.body as unknown as Buffer, charsetOf(request.headers['content-type'])),
        account,
      );
      const run = (onProgress?: Parameters<typeof importStatement>[4]) =>
        importStatement(app.db, { rates, outcomes, account, links }, plan, actorOf(request), onProgress);
      if (!/application\/x-ndjson/.test(request.headers.accept ?? '')) return run();
      // The console asks for progress: one JSON line per committed batch, then the result (or
      // the error). Streamed over the same request rather than run as a job to poll: nothing to
      // keep between requests or find on another replica, and what it reports is what was
      // committed. The import goes on if the page is closed (every line counts once anyway).
      reply.raw.writeHead(200, {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      const send = (line: object) => reply.raw.writableEnded || reply.raw.write(`${JSON.stringify(line)}\n`);
      try {
        send({ result: await run((progress) => send({ progress })) });
      } catch (error) {
        if (!(error instanceof DomainError)) request.log.error({ err: error }, 'statement import failed');
        send(
          error instanceof DomainError ? errorBody(error.code, error.field, error.detail) : errorBody('internal_error'),
        );
      }
      reply.raw.end();
      return reply;
    },
  );

  app.get(
    '/api/ops/bank/unmatched',
    {
      schema: {
        operationId: 'opsListBankPayments',
        tags: ['bank'],
        summary:
          'Bank payments: the unmatched queue (status=open, oldest first), or those matched, assigned, refunded, all',
        security: [{ bearer: [] }],
        querystring: bankPaymentsQuery,
        response: { 200: bankPaymentsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    // Payers' names and IBANs: the read is in the audit trail.
    async (request) => ({
      payments: await readPersonalData(app.db, actorOf(request), 'bank-payments', (tx) =>
        listBankPayments(tx, request.query),
      ),
    }),
  );

  app.post(
    '/api/ops/bank/unmatched/:id/assign',
    {
      schema: {
        operationId: 'opsAssignBankPayment',
        tags: ['bank'],
        summary:
          'Assign an unmatched payment to an order (reference or short reference) or a deposit (DEPOSIT<account key> [CUR]): the intake takes it as if the payer had written that reason',
        security: [{ bearer: [] }],
        params: bankPaymentParams,
        body: assignPaymentBody,
        response: { 200: assignPaymentResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      assignBankPayment(app.db, rates, { id: request.params.id, target: request.body.target, actor: actorOf(request) }),
  );

  app.post(
    '/api/ops/bank/unmatched/:id/refund',
    {
      schema: {
        operationId: 'opsRefundBankPayment',
        tags: ['bank'],
        summary: "Refund an unmatched payment to the payer's IBAN: a SEPA payout, exported with the next payouts file",
        security: [{ bearer: [] }],
        params: bankPaymentParams,
        response: { 200: refundPaymentResponse, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => refundBankPayment(app.db, approval, { id: request.params.id, actor: actorOf(request) }),
  );

  app.post(
    '/api/ops/bank/payouts-export',
    {
      schema: {
        operationId: 'opsExportPayouts',
        tags: ['bank'],
        summary:
          'Every EUR payout that is due, in one pain.001 file (BANK_PAIN_VERSION: .001.09, or .001.03) to upload to the bank; each payout is in exactly one file and is then submitted',
        security: [{ bearer: [] }],
        response: { 200: exportPayoutsResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => exportPayouts(app.db, { account, actor: actorOf(request) }),
  );

  app.get(
    '/api/ops/bank/exports',
    {
      schema: {
        operationId: 'opsListBankExports',
        tags: ['bank'],
        summary: 'The payouts files made so far, newest first',
        security: [{ bearer: [] }],
        querystring: bankExportsQuery,
        response: { 200: bankExportsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ exports: await listBankExports(app.db, request.query.limit) }),
  );

  app.get(
    '/api/ops/bank/exports/:id',
    {
      schema: {
        operationId: 'opsGetBankExport',
        tags: ['bank'],
        summary: 'A payouts file again, as it was made (application/xml)',
        security: [{ bearer: [] }],
        params: bankExportParams,
        produces: ['application/xml'],
        response: { 200: bankExportFileResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await bankExportFile(app.db, request.params.id);
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.messageId}.xml"`)
        .send(file.xml);
    },
  );
};
