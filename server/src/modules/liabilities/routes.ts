import {
  controlProofsResponse,
  myProofQuery,
  myProofResponse,
  publishResponse,
  snapshotParams,
  snapshotsQuery,
  snapshotsResponse,
} from '#domain/contracts/liabilities';
import { DomainError } from '#domain/errors';
import { errorResponses } from '../../schemas';
import { actorOf } from '../audit/service';
import {
  controlProofs,
  listSnapshots,
  myProofs,
  publishedSnapshot,
  publishSnapshot,
  type LiabilitiesDeps,
} from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The proof of liabilities: the published snapshots for anyone (in the API and as files under the
 * site: /proof/latest.json, /proof/<id>.json, /proof/<id>/<CUR>.json, /proof/<id>/control.json), the logged-in user's own
 * leaves and paths, and the operator's publish (`npm run ops -- liabilities:publish`).
 */
const JSON_TYPE = 'application/json; charset=utf-8';
/** A snapshot never changes once published; the latest one does, once a period. */
const FOREVER = 'public, max-age=31536000, immutable';
const LATEST = 'public, max-age=60';

/** A file name under /proof/ (`12.json`, `BTC.json`), or not_found: these are paths of the site, not API input. */
function fileName(name: string, pattern: RegExp): string {
  const match = pattern.exec(name);
  if (!match) throw new DomainError('not_found');
  return match[1]!;
}
const snapshotId = (name: string) => {
  const id = Number(fileName(name, /^(\d{1,10})(?:\.json)?$/));
  if (id < 1 || id > 2_147_483_647) throw new DomainError('not_found');
  return id;
};

export const liabilitiesRoutes: FastifyPluginAsyncZod<LiabilitiesDeps> = async (app, deps) => {
  app.get(
    '/api/liabilities',
    {
      schema: {
        operationId: 'listLiabilitySnapshots',
        tags: ['liabilities'],
        summary:
          'Proof of liabilities: the published snapshots, newest first, each with its roots (total owed per currency) and what the house’s addresses held',
        querystring: snapshotsQuery,
        response: { 200: snapshotsResponse, ...errorResponses(400) },
      },
    },
    async (request) => listSnapshots(app.db, request.query),
  );

  app.get(
    '/api/liabilities/:id',
    {
      schema: {
        operationId: 'getLiabilitySnapshot',
        tags: ['liabilities'],
        summary:
          'One whole published snapshot (domain/liabilities.ts PublishedSnapshot): every tree, level by level, and the reserves',
        params: snapshotParams,
      },
    },
    // Read first: only a published snapshot is marked cacheable.
    async (request, reply) => {
      const file = await publishedSnapshot(app.db, request.params.id);
      return reply.type(JSON_TYPE).header('cache-control', FOREVER).send(file);
    },
  );

  app.get(
    '/api/liabilities/:id/control',
    {
      schema: {
        operationId: 'getControlProofs',
        tags: ['liabilities'],
        summary:
          'The proofs of control of the snapshot’s house addresses: each a message naming the address and the snapshot’s digest, signed with the address’s key',
        params: snapshotParams,
        response: { 200: controlProofsResponse, ...errorResponses(400, 404) },
      },
    },
    // Signatures are added after publishing (the signer holds the keys): cached briefly, not forever.
    async (request, reply) => {
      const proofs = await controlProofs(app.db, request.params.id);
      return reply.header('cache-control', LATEST).send({ proofs });
    },
  );

  // The same files under the site, for people and tools that fetch or download them.
  app.get('/proof/latest.json', { schema: { hide: true } }, async (_request, reply) => {
    const file = await publishedSnapshot(app.db, 'latest');
    return reply.type(JSON_TYPE).header('cache-control', LATEST).send(file);
  });
  // Only `<id>.json` here: /proof/ itself (and /proof/index.html) is the site's public page of the
  // proof, which the static files answer; a bare `:file` would take it as an empty file name.
  app.get<{ Params: { file: string } }>(
    '/proof/:file(^\\d{1,10}\\.json$)',
    { schema: { hide: true } },
    async (request, reply) => {
      const file = await publishedSnapshot(app.db, snapshotId(fileName(request.params.file, /^(\d{1,10})\.json$/)));
      return reply.type(JSON_TYPE).header('cache-control', FOREVER).send(file);
    },
  );
  app.get<{ Params: { id: string; file: string } }>(
    '/proof/:id/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      if (request.params.file === 'control.json') {
        const proofs = await controlProofs(app.db, snapshotId(request.params.id));
        return reply.type(JSON_TYPE).header('cache-control', LATEST).send({ proofs });
      }
      const file = await publishedSnapshot(
        app.db,
        snapshotId(request.params.id),
        fileName(request.params.file, /^([A-Z0-9]{1,16})\.json$/),
      );
      return reply.type(JSON_TYPE).header('cache-control', FOREVER).send(file);
    },
  );

  app.get(
    '/api/wallet/proof',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'getMyProof',
        tags: ['liabilities'],
        summary:
          'Your proof of inclusion: per snapshot your secret nonce, and each of your leaves with its path to the published root',
        security: [{ bearer: [] }],
        querystring: myProofQuery,
        response: { 200: myProofResponse, ...errorResponses(400, 401, 403) },
      },
    },
    // The nonce is the account's secret: like every answer to a logged-in request, it is sent with no-store (plugins/edge.ts).
    async (request) => myProofs(app.db, request.account!.id, request.query),
  );

  app.post(
    '/api/ops/liabilities/publish',
    {
      onRequest: app.requireScope('admin:muntly'),
      schema: {
        operationId: 'opsPublishLiabilities',
        tags: ['liabilities'],
        summary: 'Takes a snapshot of every user balance in one consistent read and publishes its trees',
        security: [{ bearer: [] }],
        response: { 200: publishResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const published = await publishSnapshot(app.db, deps, { actor: actorOf(request) });
      if (!published) throw new DomainError('try_again_soon');
      return published;
    },
  );
};
