/**
 * @jest-environment node
 */
import { Writable } from 'node:stream';
import { testApp, signToken, bearer } from './helpers';

describe('logs', () => {
  it('carry request ids but no tokens, emails or query strings', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await testApp('pglite', { LOG_LEVEL: 'info' }, { logStream });
    const token = await signToken(t.keys, { scope: 'use:muntly admin:muntly', email: 'operator@example.com' });
    const res = await t.app.inject({ url: '/api/ops/outbox?to=secret@example.com', headers: { ...bearer(token), 'x-request-id': 'req-42' } });
    expect(res.statusCode).toBe(200);
    await t.close();
    const log = lines.join('');
    expect(log).toContain('"reqId":"req-42"');
    expect(log).toContain('/api/ops/outbox');
    expect(log).not.toContain('secret@example.com');
    expect(log).not.toContain(token);
    expect(log).not.toContain('operator@example.com');
  });
});
