import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { splitLanguage } from '#domain/languages';
import { sendError } from '../errors';
import { contentSecurityPolicy, inlineScriptHashes } from './security';

/**
 * Serves the Gatsby build (public/) on the same origin as the API.
 *
 * Caching: content-hashed assets never change, so browsers keep them for a year; HTML,
 * page-data, app-data and the service worker are revalidated on every load so a deployment
 * shows at once. Unknown paths answer a real 404 with the not-found page of the path's language.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Cache-Control for a path inside public/. */
export function cacheControlFor(relativePath: string): string {
  const file = relativePath.replace(/\\/g, '/').replace(/^\/?/, '/');
  if (file === '/sw.js') return REVALIDATE;
  if (file.startsWith('/static/')) return IMMUTABLE; // Gatsby hashes everything it puts here
  if (/^\/workbox-v[\d.]+\//.test(file)) return IMMUTABLE; // versioned directory
  if (/^\/currency-icons\/[\d.]+\//.test(file)) return IMMUTABLE; // logos, by the icon package's version
  if (/[-.][0-9a-f]{16,}\.(js|css|map)$/.test(file)) return IMMUTABLE;
  return REVALIDATE;
}

type CachedDocument = { mtimeMs: number; csp: string; html: Buffer };

export const sitePlugin = fp<{ publicDir: string; authOrigin?: string }>(async (app, { publicDir, authOrigin }) => {
  const root = path.resolve(publicDir);
  const documents = new Map<string, CachedDocument>();

  /** Reads an HTML file once per version and works out its CSP. */
  function document(file: string): CachedDocument {
    const { mtimeMs } = fs.statSync(file);
    const cached = documents.get(file);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    const html = fs.readFileSync(file);
    const entry = {
      mtimeMs,
      html,
      csp: contentSecurityPolicy({ scriptHashes: inlineScriptHashes(html.toString('utf8')), authOrigin }),
    };
    documents.set(file, entry);
    return entry;
  }

  await app.register(fastifyStatic, {
    root,
    redirect: true, // /fees -> /fees/, as Gatsby's trailingSlash: 'always' expects
    index: ['index.html'],
    cacheControl: false,
    setHeaders(res, file) {
      res.setHeader('cache-control', cacheControlFor(path.relative(root, file)));
      if (file.endsWith('.html')) res.setHeader('content-security-policy', document(file).csp);
      if (file.endsWith('sw.js')) res.setHeader('service-worker-allowed', '/');
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = decodeURIComponentSafe(request.url.split('?')[0] ?? '/');
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return sendError(reply, 'not_found', 'No such API route.');
    }
    const { language } = splitLanguage(pathname);
    const file = language === 'en' ? path.join(root, '404.html') : path.join(root, language, '404', 'index.html');
    if (!fs.existsSync(file)) {
      return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', REVALIDATE).send('Not found');
    }
    const { html, csp } = document(file);
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .header('cache-control', REVALIDATE)
      .header('content-security-policy', csp)
      .send(html);
  });
});

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // malformed escapes are just an unknown path
  }
}
