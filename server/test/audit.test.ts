/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { rows } from '../src/db/raw';
import { idpUsersRepository } from '../src/dev/users';
import { canonicalJson, recordAudit, verifyAudit } from '../src/modules/audit/service';
import {
  bearer,
  bookAddresses,
  confirmSendFromMail,
  databaseKinds,
  databaseMigratedTo,
  freshBtcAddress,
  mailedSendCode,
  opsCliOutput,
  payOut,
  signToken,
  testApp,
  testUser,
  type TestApp,
} from './helpers';
import type { AuditEntry } from '#domain/contracts/audit';
import type { Database } from '../src/db/client';
import type { AddressInfo } from 'node:net';

/**
 * The audit trail (issue 18): every operator action and every read of personal data leaves one
 * row with who, when, what and the state before and after; the database refuses to change or
 * remove rows; the rows are chained by hash, and `audit:verify` finds the first row that was
 * tampered with behind the database's back.
 */
jest.setTimeout(120_000);

const EXTERNAL_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const rates = { current: async () => ({ at: 'now', rates: { BTC: '80000', ETH: '3000' } }) };

describe.each(databaseKinds())('audit trail (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // An external signer: a payout waits for its result, which an operator reports.
    t = await testApp(kind, { CHAIN_PAYOUTS: 'signer' }, { rates });
  });
  afterAll(() => t?.close());

  const ops = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.admin, ...(payload ? { payload } : {}) });
  /** The newest rows of one action, as the operator lists them. */
  const audited = async (action: string, query = ''): Promise<AuditEntry[]> => {
    const res = await ops('GET', `/api/ops/audit?action=${action}${query}`);
    expect(res.statusCode).toBe(200);
    return res.json().entries;
  };
  const latest = async (action: string) => (await audited(action))[0];
  const verified = async () => (await ops('GET', '/api/ops/audit/verify')).json();

  it('writes a row for each operator action, with the state before and after, and the chain holds', async () => {
    const user = await testUser(t, `audited-${kind}@muntly.test`, { verified: [], address: false });

    // Verification: enable, the customer's request, verify; each names the account by its key.
    expect((await ops('POST', '/api/ops/verification/enable', { email: user.email, kind: 'mobile' })).statusCode).toBe(
      200,
    );
    expect(await latest('verification.enable')).toMatchObject({
      actor: 'operator',
      target: user.accountKey,
      before: { kind: 'mobile', phase: 'not_enabled' },
      after: { kind: 'mobile', phase: 'step_1' },
    });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/identity/address/request', headers: user.headers })).statusCode,
    ).toBeLessThan(300);
    expect(await latest('verification.request')).toMatchObject({
      actor: `account:${user.accountKey}`,
      target: user.accountKey,
      before: { kind: 'address', requested: false },
      after: { kind: 'address', requested: true },
    });
    expect((await ops('POST', '/api/ops/verification/verify', { email: user.email, kind: 'bank' })).statusCode).toBe(
      200,
    );
    expect(await latest('verification.verify')).toMatchObject({
      target: user.accountKey,
      before: { kind: 'bank', phase: 'not_enabled' },
      after: { kind: 'bank', phase: 'verified' },
    });

    // Reads of identity data and of lists with personal data in them: who read what, not the data.
    expect((await ops('GET', `/api/ops/identity?email=${encodeURIComponent(user.email)}`)).statusCode).toBe(200);
    expect(await latest('identity.read')).toMatchObject({
      actor: 'operator',
      target: user.accountKey,
      before: null,
      after: null,
    });
    for (const [url, view] of [
      ['/api/ops/users', 'users'],
      ['/api/ops/verification-requests', 'verification-requests'],
      ['/api/ops/outbox', 'outbox'],
    ] as const) {
      const res = await ops('GET', url);
      expect(res.statusCode).toBe(200);
      const shown = Object.values(res.json() as Record<string, unknown[]>)[0]!.length;
      expect(await latest('personal.read')).toMatchObject({
        actor: 'operator',
        target: null,
        after: { view, rows: shown },
      });
    }

    // Money: a wallet deposit, a buy paid by bank, then marked as paid from a business account.
    const address = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/addresses',
        headers: user.headers,
        payload: { currency: 'BTC' },
      })
    ).json().address;
    expect(
      (await ops('POST', '/api/ops/chain-deposit', { currency: 'BTC', address, amount: '0.01', txid: 'a'.repeat(64) }))
        .statusCode,
    ).toBe(200);
    expect(await latest('chain.deposit')).toMatchObject({
      target: user.accountKey,
      after: { currency: 'BTC', amount: '0.01000000', txid: 'a'.repeat(64), credited: true },
    });
    const order = (
      await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        payload: {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '50',
          email: user.email,
          address: freshBtcAddress(),
        },
      })
    ).json();
    expect(
      (await ops('POST', '/api/ops/payment-received', { reason: order.shortReference, amount: '50', txid: 'bank-1' }))
        .statusCode,
    ).toBe(200);
    expect(await latest('payment.received')).toMatchObject({
      target: order.reference,
      before: { type: 'buy', status: 'new', amountReceived: null },
      after: {
        type: 'buy',
        status: 'processing',
        amountReceived: '50.00',
        currency: 'EUR',
        credited: true,
        txid: 'bank-1',
      },
    });
    // The bank reports it again: nothing is booked twice, and the trail says so.
    await ops('POST', '/api/ops/payment-received', { reason: order.shortReference, amount: '50', txid: 'bank-1' });
    expect(await latest('payment.received')).toMatchObject({
      target: order.reference,
      after: { status: 'processing', credited: false },
    });
    expect((await ops('POST', '/api/ops/orders/business-payment', { reference: order.reference })).statusCode).toBe(
      200,
    );
    expect(await latest('payment.business')).toMatchObject({
      target: order.reference,
      before: { fromBusinessAccount: false, businessHold: false },
      after: { fromBusinessAccount: true, businessHold: true },
    });

    // A payout the signer executes: listing payouts shows destinations (personal data); the result is booked.
    await bookAddresses(t, user, [EXTERNAL_BTC]);
    const started = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/sends',
        headers: user.headers,
        payload: { currency: 'BTC', address: EXTERNAL_BTC, amount: '0.001' },
      })
    ).json();
    expect((await confirmSendFromMail(t, user, started.id)).statusCode).toBe(200);
    expect(await payOut(t)).toBe(1);
    const [payout] = (await ops('GET', '/api/ops/payouts?status=submitted')).json().payouts;
    expect(await latest('personal.read')).toMatchObject({ after: { view: 'payouts', rows: 1 } });
    expect(
      (await ops('POST', `/api/ops/payouts/${payout.id}/result`, { status: 'completed', txid: 'b'.repeat(64) }))
        .statusCode,
    ).toBe(200);
    expect(await latest('payout.result')).toMatchObject({
      target: payout.id,
      before: { status: 'submitted' },
      after: { status: 'completed', txid: 'b'.repeat(64), booked: true },
    });

    // The faucet and the retention job.
    const before = (await ops('GET', '/api/ops/faucet')).json().budgetEur as string;
    await ops('POST', '/api/ops/faucet/pause');
    expect(await latest('faucet.pause')).toMatchObject({
      before: { paused: false, budgetEur: before },
      after: { paused: true, budgetEur: before },
    });
    await ops('POST', '/api/ops/faucet/resume');
    expect(await latest('faucet.resume')).toMatchObject({ before: { paused: true }, after: { paused: false } });
    await ops('POST', '/api/ops/faucet/fund', { eur: '5' });
    expect(await latest('faucet.fund')).toMatchObject({
      before: { budgetEur: before },
      after: { budgetEur: (Number(before) + 5).toFixed(2) },
    });
    expect((await ops('POST', '/api/ops/retention')).statusCode).toBe(200);
    expect(await latest('retention.run')).toMatchObject({
      actor: 'operator',
      after: { identityDataDeleted: 0, messagesDeleted: 0 },
    });

    // Local mode: giving admin rights and issuing a login token, each naming the user by id.
    const boss = (await idpUsersRepository.create(t.app.db, {
      email: `boss-${kind}@muntly.test`,
      name: 'Boss',
      password: 'long-password-1',
    }))!;
    expect((await ops('POST', '/api/ops/grant-admin', { email: boss.email })).statusCode).toBe(200);
    expect(await latest('admin.grant')).toMatchObject({
      target: boss.id,
      before: { admin: false },
      after: { admin: true },
    });
    const issued = (await ops('POST', '/api/ops/dev-token', { email: boss.email })).json();
    expect(await latest('dev.token')).toMatchObject({ target: boss.id, after: { admin: true } });

    // No row carries an email, a token or a one-time code; the chain holds.
    const all = (await ops('GET', '/api/ops/audit?limit=500')).json().entries as AuditEntry[];
    const text = JSON.stringify(all);
    expect(text).not.toContain('@');
    expect(text).not.toContain(issued.accessToken);
    expect(text).not.toContain(await mailedSendCode(t, user.email, started.id));
    expect(await verified()).toMatchObject({
      ok: true,
      rows: all.length,
      lastId: all[0]!.id,
      lastHash: all[0]!.hash,
      broken: null,
    });
  });

  it('lists with filters and pages, newest first', async () => {
    const funds = await audited('faucet.fund');
    const group = await audited('faucet.');
    expect(group.map((e) => e.action).sort()).toEqual(['faucet.fund', 'faucet.pause', 'faucet.resume']);
    expect((await audited('faucet.', '&actor=operator')).length).toBe(3);
    expect((await audited('faucet.', '&actor=someone-else')).length).toBe(0);
    const { target } = (await audited('verification.verify'))[0]!;
    expect(
      (await ops('GET', `/api/ops/audit?target=${target}`))
        .json()
        .entries.every((e: AuditEntry) => e.target === target),
    ).toBe(true);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect((await audited('faucet.fund', `&from=${day(-1)}&to=${day(1)}`)).length).toBe(funds.length);
    expect((await audited('faucet.fund', `&from=${day(1)}`)).length).toBe(0);
    expect((await audited('faucet.fund', '&to=2000-01-01')).length).toBe(0);

    const first = (await ops('GET', '/api/ops/audit?limit=2')).json();
    expect(first.entries).toHaveLength(2);
    expect(first.entries[0].id).toBeGreaterThan(first.entries[1].id);
    const second = (await ops('GET', `/api/ops/audit?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.entries[0].id).toBe(first.entries[1].id - 1);

    const bad = await ops('GET', '/api/ops/audit?from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'validation_failed', field: 'from' });
  });

  it('exports CSV in chain order, every cell a spreadsheet could run neutralised', async () => {
    // An operator whose identifier looks like a formula (a subject is whatever the provider says).
    const formula = '=HYPERLINK("https://evil.example","x")';
    const evil = bearer(await signToken(t.keys, { sub: formula, scope: 'use:muntly admin:muntly' }));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/ops/faucet/fund', headers: evil, payload: { eur: '1' } }))
        .statusCode,
    ).toBe(200);

    const res = await ops('GET', '/api/ops/audit.csv?action=faucet.');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('muntly-audit.csv');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,action,target,before,after,prev_hash,hash');
    expect(lines).toHaveLength(1 + (await audited('faucet.')).length);
    const ids = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // The cell starts with an apostrophe: a spreadsheet shows it as text.
    expect(lines.at(-1)).toContain(`,"'=HYPERLINK(""https://evil.example"",""x"")",faucet.fund,`);
    // before and after are the canonical JSON the hash covers.
    expect(lines.at(-1)).toMatch(/,"\{""paused"": false, ""budgetEur"": ""[\d.]+""\}",/);
  });

  it('refuses the trail to anyone without admin:muntly', async () => {
    const customer = bearer(await signToken(t.keys, { sub: 'customer' }));
    for (const url of ['/api/ops/audit', '/api/ops/audit.csv', '/api/ops/audit/verify']) {
      const refused = await t.app.inject({ url, headers: customer });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('insufficient_scope');
      expect((await t.app.inject({ url })).statusCode).toBe(401);
    }
  });

  it('chains concurrent actions one after the other: the chain never forks', async () => {
    const user = await testUser(t, `race-${kind}@muntly.test`, { verified: [], address: false });
    const { lastId } = await verified();
    const N = 24;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 3 === 0
          ? ops('POST', '/api/ops/faucet/fund', { eur: '0.01' })
          : i % 3 === 1
            ? ops('GET', `/api/ops/identity?email=${encodeURIComponent(user.email)}`)
            : ops('POST', '/api/ops/verification/enable', { email: user.email, kind: 'id' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    // And the service itself, from many transactions at once.
    await Promise.all(
      Array.from({ length: N }, (_, i) =>
        t.app.db.transaction((tx) => recordAudit(tx, { actor: `racer-${i}`, action: 'faucet.fund', after: { i } })),
      ),
    );
    const result = await verified();
    expect(result).toMatchObject({ ok: true, rows: lastId + 2 * N, broken: null });
    // One enable changed the phase; every other found it changed already.
    const enables = (await audited('verification.enable', `&target=${user.accountKey}`)).map((e) => e.before!.phase);
    expect(enables.filter((phase) => phase === 'not_enabled')).toHaveLength(1);
  });

  it('the hash is what PostgreSQL computes from the row: any auditor can recompute it with psql', async () => {
    const recomputed = await rows<{ id: number; ok: boolean }>(
      t.app.db,
      sql`select id, hash = encode(sha256(convert_to(jsonb_build_array(prev_hash, id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), actor, action, target, before, after)::text, 'UTF8')), 'hex') as ok from audit_log`,
    );
    expect(recomputed.length).toBeGreaterThan(40);
    expect(recomputed.filter((row) => !row.ok)).toEqual([]);
    // The canonical JSON is PostgreSQL's text of jsonb, for keys and strings of every kind.
    const samples = [
      { b: 1, a: [true, null, 'x'], aa: { 'z\u00e9': '\u00fc"\\\n\t\u0001', é: -7, ab: '' } },
      [],
      {},
      'π ≈ 3',
      { '10': 1, '9': 2, é: 3, z: 4 },
    ];
    for (const sample of samples) {
      const [pg] = await rows<{ text: string }>(t.app.db, sql`select (${JSON.stringify(sample)})::jsonb::text as text`);
      expect(canonicalJson(sample)).toBe(pg!.text);
    }
  });

  it('the database refuses to change, delete or truncate rows, and to move the head but forward', async () => {
    const refused = async (statement: ReturnType<typeof sql>) => expect(t.app.db.execute(statement)).rejects.toThrow();
    await refused(sql`update audit_log set actor = 'someone-else' where id = 1`);
    await refused(sql`delete from audit_log where id = 1`);
    await refused(sql`truncate audit_log`);
    await refused(sql`update audit_head set last_id = last_id - 1`);
    await refused(sql`delete from audit_head`);
    await refused(sql`truncate audit_head`);
    // A second first row, or a second row after the same row (a fork), is refused too.
    const [row] = await rows<{ prev_hash: string }>(t.app.db, sql`select prev_hash from audit_log where id = 5`);
    await refused(
      sql`insert into audit_log (id, at, actor, action, hash) values (100000, now(), 'x', 'x', ${'0'.repeat(64)})`,
    );
    await refused(
      sql`insert into audit_log (id, at, actor, action, prev_hash, hash) values (100000, now(), 'x', 'x', ${row!.prev_hash}, ${'0'.repeat(64)})`,
    );
    expect(await verified()).toMatchObject({ ok: true });
  });

  it('audit:verify finds a row changed behind the triggers, names it and exits 1', async () => {
    const target = (await audited('verification.verify'))[0]!;
    // As a superuser could: switch the trigger off, "correct" a row, switch it on again.
    await t.app.db.execute(sql`alter table audit_log disable trigger audit_log_no_change`);
    await t.app.db.execute(
      sql`update audit_log set after = '{"kind": "bank", "phase": "not_enabled"}' where id = ${target.id}`,
    );
    await t.app.db.execute(sql`alter table audit_log enable trigger audit_log_no_change`);

    expect(await verified()).toMatchObject({
      ok: false,
      rows: target.id - 1,
      broken: { id: target.id, reason: 'hash' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    let failure: unknown;
    await opsCliOutput(url, t.admin, (run) => run(['audit:verify']).catch((error: unknown) => void (failure = error)));
    expect(failure).toMatchObject({
      exitCode: 1,
      message: expect.stringContaining(`BROKEN at row #${target.id} (hash)`),
    });

    // Recomputing that row's hash too moves the break to the next row, which names the old hash.
    await t.app.db.execute(sql`alter table audit_log disable trigger audit_log_no_change`);
    await t.app.db.execute(
      sql`update audit_log set hash = encode(sha256(convert_to(jsonb_build_array(prev_hash, id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), actor, action, target, before, after)::text, 'UTF8')), 'hex') where id = ${target.id}`,
    );
    await t.app.db.execute(sql`alter table audit_log enable trigger audit_log_no_change`);
    expect((await verifyAudit(t.app.db)).broken).toMatchObject({ id: target.id + 1, reason: 'prev_hash' });
  });
});

describe.each(databaseKinds())('audit trail: rows removed or added behind the service (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
    for (let i = 0; i < 5; i++)
      await t.app.inject({ method: 'POST', url: '/api/ops/faucet/fund', headers: t.admin, payload: { eur: '1' } });
  });
  afterAll(() => t?.close());

  it('a row inserted with a wrong hash through a path that bypasses the service is named', async () => {
    const { lastId, lastHash } = (await verifyAudit(t.app.db)) as { lastId: number; lastHash: string };
    await t.app.db.transaction(async (tx) => {
      await tx.execute(
        sql`insert into audit_log (id, at, actor, action, prev_hash, hash) values (${lastId + 1}, now(), 'intruder', 'faucet.fund', ${lastHash}, ${'f'.repeat(64)})`,
      );
      await tx.execute(sql`update audit_head set last_id = last_id + 1, last_hash = ${'f'.repeat(64)}`);
    });
    expect((await verifyAudit(t.app.db)).broken).toMatchObject({ id: lastId + 1, reason: 'hash' });
  });

  it('a row deleted from the middle is a gap', async () => {
    await t.app.db.execute(sql`alter table audit_log disable trigger audit_log_no_change`);
    await t.app.db.execute(sql`delete from audit_log where id = 3`);
    await t.app.db.execute(sql`alter table audit_log enable trigger audit_log_no_change`);
    expect((await verifyAudit(t.app.db)).broken).toMatchObject({
      id: 4,
      reason: 'gap',
      message: 'Row 3 is missing before row 4.',
    });
  });
});

describe.each(databaseKinds())('migration 0021 carries the old audit rows into the chain (%s)', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  afterAll(() => drop?.());

  it('keeps every operator row, names accounts by key, leaves the benchmark filler, and the chain holds', async () => {
    ({ database, drop } = await databaseMigratedTo(kind, '0020_verification_requests', 'muntly_audit'));
    const db = database.db;
    const [account] = await rows<{ id: string }>(
      db,
      sql`insert into accounts (issuer, subject, account_key, email, deposit_limit_eur_minor) values ('http://localhost:4001/', 'u1', 'KEYONE', 'old@muntly.test', 100000) returning id`,
    );
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes, 0, 123)).toISOString();
    await db.execute(sql`insert into audit_log (actor, action, account_id, detail, created_at) values
      ('http://localhost:4001/ops-cli', 'verification.enable', ${account!.id}, '{"kind": "bank"}', ${at(1)}),
      (${`account:${account!.id}`}, 'verification.request', ${account!.id}, '{"kind": "id"}', ${at(2)}),
      ('bench', 'bench.insert', null, null, ${at(3)}),
      ('http://localhost:4001/ops-cli', 'faucet.fund', null, '{"eur": "12.50"}', ${at(4)}),
      ('http://localhost:4001/ops-cli', 'identity.read', ${account!.id}, null, ${at(0)})`);

    await database.migrate();
    const carried = await rows<{
      id: number;
      actor: string;
      action: string;
      target: string | null;
      after: unknown;
      at: Date;
    }>(db, sql`select id, actor, action, target, after, at from audit_log order by id`);
    expect(
      carried.map(({ id, actor, action, target, after }) => ({ id: Number(id), actor, action, target, after })),
    ).toEqual([
      { id: 1, actor: 'http://localhost:4001/ops-cli', action: 'identity.read', target: 'KEYONE', after: null },
      {
        id: 2,
        actor: 'http://localhost:4001/ops-cli',
        action: 'verification.enable',
        target: 'KEYONE',
        after: { kind: 'bank' },
      },
      { id: 3, actor: 'account:KEYONE', action: 'verification.request', target: 'KEYONE', after: { kind: 'id' } },
      { id: 4, actor: 'http://localhost:4001/ops-cli', action: 'faucet.fund', target: null, after: { eur: '12.50' } },
    ]);
    expect(new Date(carried[0]!.at).toISOString()).toBe(at(0));
    expect(await verifyAudit(db)).toMatchObject({ ok: true, rows: 4, lastId: 4 });
    // The chain goes on from there.
    await db.transaction((tx) =>
      recordAudit(tx, { actor: 'ops-cli', action: 'faucet.pause', before: { paused: false }, after: { paused: true } }),
    );
    expect(await verifyAudit(db)).toMatchObject({ ok: true, rows: 5 });
  });
});
