/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { testApp, type TestApp } from './helpers';
import type { OpenAPIV3 } from 'openapi-types';

/**
 * The API description at /api/docs is what a client is generated from: it must be a valid
 * OpenAPI 3.0 document, and every operation must carry a stable operationId (the name a generated
 * client gives its function, so that renaming none of them breaks no client) and one tag, the
 * server module it belongs to. The routes are read from the source as well, so a route declared
 * without them, or missing from the document, fails here.
 */
const root = path.resolve(__dirname, '../..');
const modulesDir = path.join(root, 'server/src/modules');
const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

/** Every /api route declared in a module's files: method, path in OpenAPI's form, the module. */
function declaredRoutes(): { key: string; module: string }[] {
  const routes: { key: string; module: string }[] = [];
  for (const module of fs.readdirSync(modulesDir)) {
    const dir = path.join(modulesDir, module);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const [, method, url] of source.matchAll(/\.(get|post|patch|put|delete)(?:<[^>]*>)?\(\s*'(\/api[^']*)'/g)) {
        routes.push({ key: `${method!.toUpperCase()} ${url!.replace(/:(\w+)/g, '{$1}')}`, module });
      }
    }
  }
  return routes;
}

describe('the OpenAPI document at /api/docs', () => {
  let t: TestApp;
  let doc: OpenAPIV3.Document;
  let operations: { key: string; operation: OpenAPIV3.OperationObject }[];

  beforeAll(async () => {
    t = await testApp('pglite');
    doc = (await t.app.inject({ url: '/api/docs/json' })).json() as OpenAPIV3.Document;
    operations = Object.entries(doc.paths).flatMap(([route, item]) =>
      METHODS.flatMap((method) =>
        item?.[method] ? [{ key: `${method.toUpperCase()} ${route}`, operation: item[method]! }] : [],
      ),
    );
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.0.3 document', async () => {
    expect(doc.openapi).toBe('3.0.3');
    // swagger-parser validates against the specification's JSON schema and its further rules
    // (unique operationIds among them); it throws naming what is wrong. A copy: it dereferences in place.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('documents every /api route of the modules, and only the API', () => {
    const declared = declaredRoutes().map((route) => route.key);
    expect(operations.map((o) => o.key).sort()).toEqual([...declared].sort());
    expect(operations.length).toBeGreaterThan(90);
  });

  it('gives every operation a unique operationId and the tag of its module', () => {
    const moduleOf = new Map(declaredRoutes().map((route) => [route.key, route.module]));
    const wrong = operations.filter(
      ({ key, operation }) =>
        !/^[a-z][A-Za-z]+$/.test(operation.operationId ?? '') ||
        operation.tags?.length !== 1 ||
        operation.tags[0] !== moduleOf.get(key),
    );
    expect(wrong.map(({ key, operation }) => `${key}: ${operation.operationId} ${operation.tags?.join(',')}`)).toEqual(
      [],
    );
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the names a client was generated with', () => {
    // A sample across modules: renaming one breaks every client built on it.
    const byKey = new Map(operations.map((o) => [o.key, o.operation.operationId]));
    expect(
      Object.fromEntries(
        [
          'POST /api/orders',
          'POST /api/orders/lookup',
          'POST /api/wallet/sends/{id}/confirm',
          'GET /api/ops/payouts',
          'POST /api/ops/bank/statements',
        ].map((key) => [key, byKey.get(key)]),
      ),
    ).toEqual({
      'POST /api/orders': 'placeOrder',
      'POST /api/orders/lookup': 'lookupOrder',
      'POST /api/wallet/sends/{id}/confirm': 'confirmSend',
      'GET /api/ops/payouts': 'opsListPayouts',
      'POST /api/ops/bank/statements': 'opsImportStatement',
    });
  });
});
