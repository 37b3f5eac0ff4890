/**
 * @jest-environment node
 */
import { testApp, databaseKinds, type TestApp } from './helpers';

describe.each(databaseKinds())('service (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(() => t.close());

  it('reports liveness and readiness', async () => {
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: kind });
  });

  it('serves the OpenAPI document and its UI at /api/docs', async () => {
    const ui = await t.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/ready', '/api/me', '/api/ops/users']),
    );
  });

  it('refuses bodies over 100 KB with 413 and an error code', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/grant-admin',
      headers: { 'content-type': 'application/json', ...t.admin },
      payload: JSON.stringify({ email: 'x'.repeat(101 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('answers malformed JSON with 400, never 5xx', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/grant-admin',
      headers: { 'content-type': 'application/json', ...t.admin },
      payload: '{"email":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().error.code).toEqual(expect.any(String));
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});

if (process.env.TEST_DATABASE_URL) {
  describe('PostgreSQL dropping connections', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp('postgresql');
    });
    afterAll(() => t.close());

    it('keeps serving after the server terminates every idle connection (restart, failover)', async () => {
      expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
      const { sql } = await import('drizzle-orm');
      const result = (await t.app.db.execute(sql`select current_database() as name`)) as unknown as {
        rows: { name: string }[];
      };
      const { Client } = await import('pg');
      const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
        result.rows[0]!.name,
      ]);
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await t.app.inject({ url: '/api/ready' });
      expect(after.statusCode).toBe(200);
    });
  });
}
