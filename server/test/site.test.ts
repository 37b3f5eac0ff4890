/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheControlFor, IMMUTABLE, REVALIDATE } from '../src/plugins/site';
import { testApp, type TestApp } from './helpers';
import type { FastifyInstance } from 'fastify';

/** A miniature Gatsby build: enough files to check what the server does with each kind. */
function fixtureSite(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-site-'));
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  };
  const page = (lang: string, text: string) =>
    `<!DOCTYPE html><html lang="${lang}"><head><script>window.pagePath="/${lang}";</script></head><body>${text}<script src="/app-0123456789abcdef0123.js"></script></body></html>`;
  write('index.html', page('en', 'Home'));
  write('fees/index.html', page('en', 'Fees'));
  write('404.html', page('en', 'Page not found'));
  write('uk/404/index.html', page('uk', 'Сторінку не знайдено'));
  write('de/404/index.html', page('de', 'Seite nicht gefunden'));
  write('app-0123456789abcdef0123.js', 'console.log("app")');
  write('sw.js', 'self.addEventListener("fetch", () => {})');
  write('page-data/app-data.json', '{"webpackCompilationHash":"abc"}');
  write('page-data/index/page-data.json', '{"path":"/"}');
  write('static/d/123/data.json', '{}');
  return dir;
}

let app: FastifyInstance;
let server: TestApp;
beforeAll(async () => {
  server = await testApp('pglite', { PUBLIC_DIR: fixtureSite() });
  app = server.app;
});
afterAll(() => server.close());

describe('serving the site', () => {
  it('serves pages with security headers and a CSP allowing exactly their inline scripts', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(REVALIDATE);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const csp = String(res.headers['content-security-policy']);
    const hash = createHash('sha256').update('window.pagePath="/en";').digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain('unsafe-inline');
  });

  it('redirects a page path without its trailing slash', async () => {
    const res = await app.inject({ url: '/fees' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/fees/');
  });

  it('lets browsers keep hashed assets for a year and revalidates the rest', async () => {
    expect((await app.inject({ url: '/app-0123456789abcdef0123.js' })).headers['cache-control']).toBe(IMMUTABLE);
    expect((await app.inject({ url: '/static/d/123/data.json' })).headers['cache-control']).toBe(IMMUTABLE);
    expect((await app.inject({ url: '/sw.js' })).headers['cache-control']).toBe(REVALIDATE);
    expect((await app.inject({ url: '/page-data/app-data.json' })).headers['cache-control']).toBe(REVALIDATE);
    expect((await app.inject({ url: '/page-data/index/page-data.json' })).headers['cache-control']).toBe(REVALIDATE);
  });

  it.each([
    ['/uk/anything', 'uk', 'Сторінку не знайдено'],
    ['/de/exchange/nope/', 'de', 'Seite nicht gefunden'],
    ['/anything', 'en', 'Page not found'],
    ['/xx/anything', 'en', 'Page not found'],
  ])('answers %s with a real 404 and the %s not-found page', async (url, lang, text) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(`lang="${lang}"`);
    expect(res.body).toContain(text);
    expect(res.headers['content-security-policy']).toContain("'sha256-");
  });

  it('answers a malformed path with a client error, never a server error', async () => {
    const res = await app.inject({ url: '/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
  });

  it('answers HEAD for a missing page with 404 (Gatsby checks this before showing its 404)', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/fr/missing/' });
    expect(res.statusCode).toBe(404);
  });

  it('answers unknown API paths with a JSON error, not a page', async () => {
    const res = await app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('compresses text responses for clients that accept it', async () => {
    const big = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(big.statusCode).toBe(200);
  });
});

describe('cache rules', () => {
  it.each([
    ['app-ee922f32b07d9998ad39.js', IMMUTABLE],
    ['component---src-pages-index-tsx-48b1bde26d453fa0adc2.js', IMMUTABLE],
    ['styles.75f7ac41bf11e96a2f6c.css', IMMUTABLE],
    ['workbox-v4.3.1/workbox-sw.js', IMMUTABLE],
    ['currency-icons/0.18.1/btc.svg', IMMUTABLE],
    ['sw.js', REVALIDATE],
    ['index.html', REVALIDATE],
    ['manifest.webmanifest', REVALIDATE],
    ['page-data/app-data.json', REVALIDATE],
  ])('%s -> %s', (file, expected) => expect(cacheControlFor(file)).toBe(expected));
});
