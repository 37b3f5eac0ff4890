import { DomainError } from '#domain/errors';
import { listOutbox } from '../modules/notify/outbox-writer';
import { escapeHtml } from './html';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Local mode only: the dev mailbox, every message the simulated channels "sent" (email, SMS,
 * letters, bank transfers), newest first; an email as its HTML part (as a mail client shows it) with
 * its text part beside. Filter with ?to=<recipient>. Not for production.
 *
 * It shows everyone's codes and messages, so it answers only on this machine: a local server
 * reachable from the network (HOST=0.0.0.0 on a shared network) answers others 404, as if it did
 * not exist. Both the socket's peer and the client address (which differ behind a trusted proxy
 * on this machine) must be loopback.
 */
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const isLoopback = (address: string | undefined): boolean => address !== undefined && LOOPBACK.has(address);

export const devMailboxRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { to?: string } }>('/dev/mailbox', { schema: { hide: true } }, async (request, reply) => {
    if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip)) throw new DomainError('not_found');
    const to = typeof request.query.to === 'string' ? request.query.to : undefined;
    const messages = await listOutbox(app.db, to);
    const items = messages
      .map(
        (m) =>
          `<li><article><h2>${escapeHtml(m.subject)}</h2><p class="meta">${escapeHtml(m.channel)} → ${escapeHtml(m.to)} · <time>${m.createdAt}</time></p>${
            m.html
              ? // The HTML part as a mail client shows it: sandboxed (no scripts, no same origin), beside the text part.
                `<iframe sandbox title="${escapeHtml(m.subject)} (HTML)" srcdoc="${escapeHtml(m.html)}"></iframe><details><summary>Text version</summary><pre>${escapeHtml(m.body)}</pre></details>`
              : `<pre>${escapeHtml(m.body)}</pre>`
          }</article></li>`,
      )
      .join('');
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Dev mailbox | Muntly</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#10201a}ul{padding:0}li{list-style:none;border:1px solid #d5ddd9;border-radius:.5rem;padding:.5rem 1rem;margin:.75rem 0}h2{font-size:1.1rem;margin:.25rem 0}.meta{color:#4a5a53;margin:0}pre{white-space:pre-wrap;font:inherit;overflow-wrap:anywhere}iframe{display:block;width:100%;height:40rem;border:1px solid #d5ddd9;border-radius:.25rem;margin:.5rem 0}summary{cursor:pointer}</style></head>
<body><main><h1>Dev mailbox</h1><p>Local mode: messages the simulated email, SMS, post and bank channels sent${to ? ` to ${escapeHtml(to)}` : ''}.</p>${messages.length ? `<ul>${items}</ul>` : '<p>No messages yet.</p>'}</main></body></html>`;
  });
};
