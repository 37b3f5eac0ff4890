/**
 * @jest-environment node
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { redactMessage, safeError } from '../src/logging';
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
    const res = await t.app.inject({
      url: '/api/ops/outbox?to=secret@example.com',
      headers: { ...bearer(token), 'x-request-id': 'req-42' },
    });
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

/**
 * Issue 16: a failed query used to log its parameters (an order's reference with its email, a
 * support message, a send's code hash). The fuzz-like requests below run with everything logged
 * (trace), first as they are and then with the tables they touch gone, so that every one of them
 * fails in the database; no log line may carry what was submitted.
 */
describe('logs when requests and queries fail', () => {
  const EMAIL = 'victim.secret@example.com';
  const REFERENCE = 'QWER-TYUP-ASDF-GHJK';
  const CODE = 'ZXCV-BNMW-LPKJ-HGFD';
  const NAME = 'Secretina Privatova';
  const MESSAGE = 'my confidential support message 4711';
  const SECRETS = [
    EMAIL,
    EMAIL.replace('@', '%40'),
    REFERENCE,
    REFERENCE.replace(/-/g, ''),
    CODE,
    CODE.replace(/-/g, ''),
    NAME,
    MESSAGE,
    'Secretina',
    'confidential',
  ];

  it('carry no email, reference, code, name or message, even when the database refuses the query', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await testApp('pglite', { LOG_LEVEL: 'trace' }, { logStream });
    const user = bearer(await signToken(t.keys, { sub: 'auth0|log-user', email: EMAIL, name: NAME }));
    let client = 0;
    const requests = async (nul: string) => {
      const answers: number[] = [];
      const send = async (
        method: 'GET' | 'POST',
        url: string,
        payload?: object,
        headers: Record<string, string> = {},
      ) => {
        const res = await t.app.inject({ method, url, payload, headers, remoteAddress: `10.18.0.${++client}` });
        answers.push(res.statusCode);
      };
      const email = `${EMAIL}${nul}`;
      await send('POST', '/api/orders', {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '10',
        email,
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      });
      await send('POST', '/api/orders/lookup', { email, reference: `${REFERENCE}${nul}` });
      await send('GET', `/api/orders/${REFERENCE}/events?email=${encodeURIComponent(email)}`);
      await send('POST', '/api/support', {
        name: `${NAME}${nul}`,
        email,
        topic: 'order',
        message: `${MESSAGE}${nul}`,
        orderReference: REFERENCE,
      });
      await send('POST', '/api/identity/mobile/confirm', { code: `${CODE}${nul}` }, user);
      await send(
        'POST',
        '/api/wallet/sends/00000000-0000-4000-8000-000000000000/confirm',
        { code: `${CODE}${nul}` },
        user,
      );
      await send('POST', '/api/wallet/addresses', { currency: 'BTC', label: `${NAME}${nul}` }, user);
      await send('GET', `/api/ops/outbox?to=${encodeURIComponent(email)}`, undefined, t.admin);
      await send('GET', `/api/nowhere?email=${encodeURIComponent(email)}&reference=${REFERENCE}`);
      await send('POST', '/api/orders/lookup', { email, reference: REFERENCE, [MESSAGE]: NAME });
      return answers;
    };
    await requests('');
    await requests('\u0000');
    // Now every query on these tables fails: the error handler logs each failure.
    for (const table of ['orders', 'outbox', 'verification_codes', 'wallet_sends', 'reception_addresses', 'accounts']) {
      await t.app.db.execute(sql.raw(`alter table ${table} rename to ${table}_gone`));
    }
    const failed = await requests('');
    await t.close();
    expect(failed.filter((status) => status === 500).length).toBeGreaterThanOrEqual(3);
    const log = lines.join('');
    // The failures were logged, with what an operator needs to find them: the class and SQLSTATE.
    expect(log).toContain('unhandled error');
    expect(log).toContain('"code":"42P01"');
    const leaks = lines
      .filter((line) => SECRETS.some((secret) => line.includes(secret)))
      .map((line) => line.slice(0, 600));
    expect(leaks).toEqual([]);
    for (const secret of SECRETS) expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });
  }, 120_000);
});

describe('safeError', () => {
  it('keeps the class, codes and frames of a failed query, and none of its values', () => {
    const cause = Object.assign(new Error('invalid input syntax for type uuid: "victim@example.com"'), {
      code: '22P02',
      detail: 'Key (email)=(victim@example.com) exists.',
      table: 'orders',
      routine: 'string_to_uuid',
    });
    const error = new Error(
      `Failed query: select * from orders where email = $1 and reference = $2\nparams: victim@example.com,ABCD-EFGH-JKLM-NPQR`,
      { cause },
    );
    const logged = safeError(error);
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'Failed query',
      cause: {
        code: '22P02',
        table: 'orders',
        routine: 'string_to_uuid',
        message: 'invalid input syntax for type uuid: "…"',
      },
    });
    expect(logged.stack).toContain('    at ');
    const text = JSON.stringify(logged);
    expect(text).not.toContain('victim');
    expect(text).not.toContain('ABCD');
  });

  it('takes emails, codes and hashes out of any message', () => {
    expect(
      redactMessage(
        'no user victim@example.com with code ABCD-EFGH-JKLM-NPQR or hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      ),
    ).toBe('no user [email] with code [code] or hash [hash]');
  });
});
