/**
 * @jest-environment node
 */
import { testApp, type TestApp } from './helpers';

describe('GET /api/operator', () => {
  let local: TestApp;
  let named: TestApp;
  beforeAll(async () => {
    local = await testApp('pglite');
    named = await testApp('pglite', {
      OPERATOR_NAME: 'Muntly GmbH',
      OPERATOR_ADDRESS: 'Chausseestraße 1, 10115 Berlin, Germany',
      OPERATOR_EMAIL: 'legal@muntly.eu',
      OPERATOR_REGISTRATION: 'Amtsgericht Charlottenburg, HRB 123456 B',
    });
  });
  afterAll(async () => {
    await local.close();
    await named.close();
  });

  it('says "sample" in local mode, so the site shows its marked sample values', async () => {
    const res = await local.app.inject({ url: '/api/operator' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sample: true });
  });

  it('names the configured operator, with the fields that were given, cacheable by anyone', async () => {
    const res = await named.app.inject({ url: '/api/operator' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.json()).toEqual({
      sample: false,
      name: 'Muntly GmbH',
      address: 'Chausseestraße 1, 10115 Berlin, Germany',
      email: 'legal@muntly.eu',
      registration: 'Amtsgericht Charlottenburg, HRB 123456 B',
    });
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await local.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.paths['/api/operator'].get.responses['200']).toBeDefined();
  });
});
