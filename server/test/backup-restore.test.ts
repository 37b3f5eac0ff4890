/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalJWKSet } from 'jose';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { localIdpAccess } from '../src/dev/idp-access';
import { balanceOf, databaseKinds, fixedRates, opsCliOutput, testApp, testUser, type TestApp } from './helpers';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';

/**
 * Backups and the restore drill (issue 34). `npm run ops -- backup` takes the embedded database
 * (PGlite) as a tarball while the server runs and serves requests; `npm run ops -- restore` puts
 * it into a data directory with the server stopped. The drill: money moves and audited actions
 * before the backup, more after it; the restored database holds exactly what was there at the
 * backup, `ledger:verify` and `audit:verify` pass on it, and the audit chain goes on from its last
 * row (a new audited action after the restore verifies). With PostgreSQL the API refuses and points
 * to PostgreSQL's own tools (docs/backups.md).
 */
const rates = fixedRates();
const auditRows = async (app: FastifyInstance, headers: Record<string, string>) =>
  (await app.inject({ url: '/api/ops/audit?limit=200', headers })).json().entries as {
    id: string;
    action: string;
    target: string | null;
  }[];

describe('backup and restore of the embedded database (pglite)', () => {
  let t: TestApp;
  let url: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-backup-'));
  beforeAll(async () => {
    t = await testApp('pglite', {}, { rates });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores a backup taken while the server worked: the ledger and the audit chain verify, and the chain goes on', async () => {
    const kept = await testUser(t, 'kept@muntly.test', { deposit: '0.5' });
    const accountKey = (await t.app.inject({ url: '/api/ops/users?email=kept%40muntly.test', headers: t.admin })).json()
      .users[0].accountKey as string;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/ops/accounts/${accountKey}/freeze`,
          headers: t.admin,
          payload: { reason: 'a report' },
        })
      ).statusCode,
    ).toBe(200);

    // The backup, while deposits keep arriving: it holds each of them whole or not at all.
    const file = path.join(dir, 'muntly.tar.gz');
    const later = await testUser(t, 'later@muntly.test');
    const during = Array.from({ length: 6 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/ops/chain-deposit',
        headers: t.admin,
        payload: { currency: 'BTC', address: later.address!, amount: '0.01', txid: `${'d'.repeat(63)}${i}` },
      }),
    );
    const [printed] = await Promise.all([
      opsCliOutput(url, t.admin, (ops) => ops(['backup', '--out', file])),
      ...during,
    ]);
    expect(printed.at(-1)).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ bytes\\. Restore it with the server stopped: npm run ops -- restore `,
      ),
    );
    expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip
    // After the backup: another audited action, which the restore takes back.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/ops/accounts/${accountKey}/unfreeze`,
          headers: t.admin,
          payload: { reason: 'owner called' },
        })
      ).statusCode,
    ).toBe(200);
    const before = await auditRows(t.app, t.admin);

    // The restore, into a data directory of its own, by the CLI, with no server answering.
    const dataDir = path.join(dir, 'restored');
    fs.mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'pgdata', 'old'), 'the data it replaces');
    // The signer's journal lives in DATA_DIR too: it must never go back in time with the database.
    fs.writeFileSync(path.join(dataDir, 'signer-journal.jsonl'), '{"v":1,"txid":"after the backup"}\n');
    const saved = { DATA_DIR: process.env.DATA_DIR, OPS_URL: process.env.OPS_URL };
    process.env.DATA_DIR = dataDir;
    let restoredOutput: string[];
    try {
      restoredOutput = await opsCliOutput('http://127.0.0.1:9', t.admin, (ops) => ops(['restore', file]));
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(restoredOutput.at(-1)).toMatch(
      /^Restored .* The data it replaced is in .*pgdata\.before-restore-.*\. Start the server, then run ledger:verify and audit:verify\.$/,
    );
    const aside = fs.readdirSync(dataDir).find((name) => name.startsWith('pgdata.before-restore-'))!;
    expect(fs.readFileSync(path.join(dataDir, aside, 'old'), 'utf8')).toBe('the data it replaces');
    expect(fs.readFileSync(path.join(dataDir, 'signer-journal.jsonl'), 'utf8')).toBe(
      '{"v":1,"txid":"after the backup"}\n',
    );

    const database = await openDatabase({ dataDir });
    await database.migrate();
    const config = { ...t.config };
    const restored = await buildApp(config, {
      database,
      jwks: createLocalJWKSet(t.keys.publicJwks),
      localIdp: localIdpAccess({
        keys: t.keys,
        issuer: config.authIssuer,
        audience: config.authAudience,
        clientId: config.authClientId,
      }),
      rates,
    });
    try {
      // ledger:verify and audit:verify hold on what came back.
      expect((await restored.inject({ url: '/api/ops/ledger/verify', headers: t.admin })).json().ok).toBe(true);
      expect((await restored.inject({ url: '/api/ops/audit/verify', headers: t.admin })).json()).toMatchObject({
        ok: true,
      });
      // It is the database as it was at the backup: the freeze and the backup's own row are there, the unfreeze after it is not.
      const rows = await auditRows(restored, t.admin);
      expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['account.freeze', 'database.backup']));
      expect(rows.map((r) => r.action)).not.toContain('account.unfreeze');
      expect(rows.length).toBeLessThan(before.length);
      expect(await balanceOf({ app: restored }, kept.headers, 'BTC')).toBe('0.50000000');
      // The deposits racing the backup: each is there whole or not at all (the ledger verified), never half.
      const laterBalance = await balanceOf({ app: restored }, later.headers, 'BTC');
      expect([
        '0.00000000',
        '0.01000000',
        '0.02000000',
        '0.03000000',
        '0.04000000',
        '0.05000000',
        '0.06000000',
        undefined,
      ]).toContain(laterBalance);
      // The chain goes on: a new audited action after the restore, and the whole chain verifies.
      expect(
        (
          await restored.inject({
            method: 'POST',
            url: `/api/ops/accounts/${accountKey}/unfreeze`,
            headers: t.admin,
            payload: { reason: 'after the restore' },
          })
        ).statusCode,
      ).toBe(200);
      const verified = (await restored.inject({ url: '/api/ops/audit/verify', headers: t.admin })).json();
      expect(verified).toMatchObject({ ok: true, rows: rows.length + 1 });
      expect((await auditRows(restored, t.admin))[0]).toMatchObject({ action: 'account.unfreeze', target: accountKey });
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore while a server answers, and without a file', async () => {
    const errors: string[] = [];
    await opsCliOutput(url, t.admin, async (ops) => {
      await ops(['restore', path.join(dir, 'muntly.tar.gz')]).catch((e: Error) => errors.push(e.message));
      await ops(['restore']).catch((e: Error) => errors.push(e.message));
    });
    expect(errors).toEqual([
      `A server answers at ${url}: stop it first (PGlite belongs to one process).`,
      'Usage: restore <backup file> (with the server stopped)',
    ]);
  });
});

// With PostgreSQL the API refuses (on PGlite the suite above is the case).
describe.each(databaseKinds())('backup refused on PostgreSQL (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
  });
  afterAll(() => t.close());

  it('is refused with the way to do it: PostgreSQL’s own tools', async () => {
    if (kind === 'pglite') {
      expect(t.database.backup).toBeDefined();
      return;
    }
    const answer = await t.app.inject({ method: 'POST', url: '/api/ops/backup', headers: t.admin });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error).toMatchObject({ code: 'backup_not_embedded' });
    expect(answer.json().error.message).toContain('pg_basebackup');
  });
});
