/**
 * @jest-environment node
 */
import http from 'node:http';
import { COMMANDS, run, usage } from '../src/ops/cli';
import type { AddressInfo } from 'node:net';

/**
 * The ops CLI is a table of commands (server/src/ops/cli.ts): each names the contract in
 * domain/contracts its answer is checked against, so a server that answers something else (another
 * version, a proxy's page) is refused in plain words instead of printing `undefined` or crashing.
 */
describe('ops CLI command table', () => {
  it('gives every command that asks the server for JSON a contract, and lists every command in the usage', () => {
    const names = COMMANDS.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    expect(COMMANDS.filter((command) => command.contract === null).map((command) => command.name)).toEqual([
      'backup',
      'restore',
    ]);
    const text = usage();
    for (const name of names) expect(text).toMatch(new RegExp(`^  ${name.replace(/[.:]/g, '\\$&')}( |$)`, 'm'));
  });

  describe('against a server that answers off the contract', () => {
    let server: http.Server;
    const saved = { url: process.env.OPS_URL, token: process.env.OPS_TOKEN };
    const answers: Record<string, unknown> = {
      '/api/ops/users': { users: [{ accountKey: 42, email: null }] },
      '/api/ops/queues': {
        verificationRequests: 1,
        documents: 0,
        unmatchedPayments: 0,
        payoutsAwaitingApproval: 0,
        chainAlerts: 0,
        chainUnmatched: 0,
      },
    };
    beforeAll(async () => {
      server = http.createServer((request, response) => {
        const answer = answers[new URL(request.url ?? '/', 'http://x').pathname];
        response
          .writeHead(answer ? 200 : 404, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer ?? { error: { code: 'not_found', message: 'Not found.' } }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      process.env.OPS_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      process.env.OPS_TOKEN = 'token';
    });
    afterAll(async () => {
      for (const [name, value] of Object.entries({ OPS_URL: saved.url, OPS_TOKEN: saved.token })) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await new Promise((resolve) => server.close(resolve));
    });

    it('refuses the answer, naming the route and what does not match, and prints none of it', async () => {
      const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        await expect(run(['users'])).rejects.toThrow(
          /answer to \/api\/ops\/users is not what its contract says[\s\S]*users\[0\]\.accountKey/,
        );
        expect(log).not.toHaveBeenCalled();
        // An answer that keeps the contract is printed as before.
        await run(['queues']);
        expect(log.mock.calls.flat().join('\n')).toContain('Verification requests: 1');
      } finally {
        log.mockRestore();
      }
    });
  });
});
