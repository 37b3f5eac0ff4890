import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Security headers for every response. The Content-Security-Policy is per document: Gatsby
 * inlines a few small scripts (page path, chunk map, consent defaults, gtag), so each HTML file
 * gets the SHA-256 hashes of exactly its own inline scripts instead of 'unsafe-inline'.
 */
const GOOGLE_TAG = 'https://www.googletagmanager.com';
const GOOGLE_ANALYTICS = ['https://*.google-analytics.com', 'https://*.analytics.google.com'];

export function contentSecurityPolicy(options: { scriptHashes?: string[]; authOrigin?: string } = {}): string {
  const hashes = (options.scriptHashes ?? []).map((hash) => `'sha256-${hash}'`);
  // The identity provider: the login SDK calls its token endpoint and renews in a hidden frame.
  const auth = options.authOrigin ? ` ${options.authOrigin}` : '';
  return [
    "default-src 'self'",
    `script-src 'self' ${[...hashes, GOOGLE_TAG].join(' ')}`,
    // React style attributes and Gatsby's inlined stylesheet; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: ${GOOGLE_TAG} ${GOOGLE_ANALYTICS.join(' ')}`,
    `connect-src 'self'${auth} ${GOOGLE_TAG} ${GOOGLE_ANALYTICS.join(' ')}`,
    `frame-src${auth || " 'none'"}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The base64 SHA-256 of every inline script of an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, body] of html.matchAll(INLINE_SCRIPT)) {
    if (body) hashes.add(createHash('sha256').update(body, 'utf8').digest('base64'));
  }
  return [...hashes];
}

export const securityPlugin = fp<{ authOrigin?: string }>(async (app, { authOrigin }) => {
  await app.register(helmet, {
    // Set per response by the site plugin (documents need their own script hashes).
    contentSecurityPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', contentSecurityPolicy({ authOrigin }));
    }
  });
});
