/**
 * `npm run test:crash` (issue 9): on PostgreSQL, two API replicas (CRASH_REPLICAS, default 2)
 * serve a load of orders, bank payments, internal transfers, external sends and faucet entries
 * (8-second rounds), spread over both,
 * while one of them is killed with SIGKILL at random moments (CRASH_KILLS times, default 10) and
 * restarted; their workers compete for the same orders and sends all along. Clients retry whatever was not acknowledged with
 * the same Idempotency-Key, as a real client would. Then:
 * - the ledger invariants hold (ledger:verify);
 * - every request the client saw acknowledged is in the database;
 * - no retried request moved money twice (balances equal exactly what the acknowledged sends and
 *   deposits say);
 * - no order or send is stuck: funded orders and confirmed sends all reach a final state;
 * - every payout (order deliveries, external sends) was paid exactly once: one ledger payout per
 *   payout, one broadcast per idempotency key with the txid the payout booked, nothing left in the
 *   clearing account. Every other kill is aimed at the payout worker: it waits until a payout has
 *   been handed to the (simulated) chain but its result not yet booked (PAYOUT_BOOKING_DELAY_MS
 *   widens that moment), then SIGKILLs every replica; the payout must be taken again after its
 *   lease and booked once, with the same key;
 * - every finished faucet round with players paid exactly one reward, the others none.
 * Exits 1 with the list of problems otherwise. Uses BENCH_DATABASE_URL or TEST_DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, freshBtcAddress, root, waitFor } from '../bench/support';
import { loadConfig } from '../server/src/config';
import { mintAccessToken, readIdpKeys } from '../server/src/dev/keys';
import { sendCodeHash } from '../server/src/modules/wallet/sends';
import { adminUrl, CODE, KILLS, sleep, sql } from './support';

const CLIENTS = Number(process.env.CRASH_CLIENTS || 6);
const REPLICAS = Number(process.env.CRASH_REPLICAS || 2);
// A payout address of its own for each customer: orders to one address count as one customer's
// weekly volume, which an anonymous customer may not take past 1,000 EUR.
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

async function main() {
  const name = `muntly_crash_${Date.now()}`;
  await sql(adminUrl, `create database ${name}`);
  const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-crash-'));
  fs.mkdirSync(path.join(dataDir, 'public'));
  fs.writeFileSync(path.join(dataDir, 'public', 'index.html'), '<!doctype html><title>Muntly</title>');
  const ports = await Promise.all(Array.from({ length: REPLICAS }, () => freePort()));
  const idpPort = await freePort();
  const env = {
    ...process.env,
    LOG_LEVEL: 'error',
    HOST: 'localhost',
    IDP_PORT: String(idpPort),
    DATA_DIR: dataDir,
    PUBLIC_DIR: path.join(dataDir, 'public'),
    DATABASE_URL: dbUrl,
    ORDER_WORKER_INTERVAL_MS: '200',
    PAYOUT_WORKER_INTERVAL_MS: '200',
    PAYOUT_LEASE_MS: '1500',
    PAYOUT_BOOKING_DELAY_MS: '150',
    // Its users are verified moments before they send: without this, four eyes would hold every send.
    PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS: '0',
    LOOKUP_LIMIT_PER_MINUTE: '100000',
    ORDER_LIMIT_PER_CLIENT_PER_HOUR: '100000',
    FAUCET_ROUND_SECONDS: '8',
    FAUCET_BUDGET_EUR: '100.00',
    // Alice's address book needs no waiting here: the hold has its own suite (account-protection).
    ADDRESS_HOLD_HOURS: '0',
  };
  const bases = ports.map((port) => `http://localhost:${port}`);
  const servers: (ChildProcess | null)[] = ports.map(() => null);
  const start = async (replica: number) => {
    // The server itself, not a tsx wrapper process: SIGKILL must hit the process holding the port.
    servers[replica] = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      env: { ...env, PORT: String(ports[replica]) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor(`${bases[replica]}/api/ready`, 120_000);
  };
  for (let replica = 0; replica < REPLICAS; replica++) await start(replica);

  const config = loadConfig(env);
  // Wallet users log in with a second factor, as a user who sends this much in a day must.
  const token = (subject: string, scope: string, email?: string) =>
    mintAccessToken(readIdpKeys(dataDir), {
      issuer: config.authIssuer,
      audience: config.authAudience,
      subject,
      scope,
      ...(email ? { email, amr: ['pwd', 'otp'] } : {}),
    });
  const admin = `Bearer ${await token('crash-operator', 'use:muntly admin:muntly')}`;

  /** One HTTP call; throws on connection errors and 5xx (the server is down or restarting). */
  async function call(
    method: string,
    url: string,
    auth: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    // Like a load balancer: any replica; a dead one fails the call and the client retries.
    const response = await fetch(`${bases[Math.floor(Math.random() * REPLICAS)]}${url}`, {
      method,
      headers: {
        ...(auth ? { authorization: auth } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status >= 500) throw new Error(`${method} ${url}: ${response.status}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  /** A real client: retries until the server answers (same request, same Idempotency-Key). */
  async function until(
    method: string,
    url: string,
    auth: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    for (;;) {
      try {
        return await call(method, url, auth, body, headers);
      } catch {
        await sleep(100 + Math.random() * 200);
      }
    }
  }

  // Two wallet users: Alice holds 1 BTC and sends; Bob receives internal transfers.
  const users = [] as { auth: string; address: string; email: string }[];
  for (const who of ['alice', 'bob']) {
    const email = `${who}@crash.test`;
    const auth = `Bearer ${await token(`auth0|${who}`, 'openid profile email use:muntly', email)}`;
    await until('GET', '/api/me', auth);
    await until('POST', '/api/ops/verification/verify', admin, { email, kind: 'bank' });
    await until('POST', '/api/ops/verification/verify', admin, { email, kind: 'mobile' });
    await until('POST', '/api/ops/verification/verify', admin, { email, kind: 'id' });
    const address = (await until('POST', '/api/wallet/addresses', auth, { currency: 'BTC' })).body.address as string;
    users.push({ auth, address, email });
  }
  const [alice, bob] = users as [(typeof users)[0], (typeof users)[0]];
  await until('POST', '/api/ops/chain-deposit', admin, {
    currency: 'BTC',
    address: alice.address,
    amount: '1',
    txid: 'crash-funding',
  });
  // Alice sends only to her address book (allow-list mode): the outside address and Bob's.
  for (const address of [EXTERNAL, bob.address]) {
    // A retry of an addition that went through answers address_already_in_book.
    const added = await until('POST', '/api/wallet/address-book', alice.auth, {
      currency: 'BTC',
      address,
      ownWallet: false,
    });
    if (added.status !== 201 && (added.body.error as { code?: string } | undefined)?.code !== 'address_already_in_book')
      throw new Error(`alice's address book: ${added.status}`);
  }

  // What the clients saw acknowledged.
  const acked = {
    orders: new Map<string, string>(),
    payments: new Set<string>(),
    sends: new Map<string, { internal: boolean }>(),
  };
  let running = true;

  async function orderFlow() {
    const key = randomUUID();
    const placed = await until(
      'POST',
      '/api/orders',
      null,
      {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '20',
        email: `c-${key}@crash.test`,
        address: freshBtcAddress(),
      },
      { 'idempotency-key': key },
    );
    if (placed.status !== 201 && placed.status !== 200)
      throw new Error(`order refused: ${JSON.stringify(placed.body)}`);
    acked.orders.set(key, placed.body.reference as string);
    if (Math.random() < 0.7) {
      const paid = await until('POST', '/api/ops/payment-received', admin, {
        reason: placed.body.shortReference,
        amount: '20',
        txid: `pay-${key}`,
      });
      if (paid.status !== 200) throw new Error(`payment refused: ${JSON.stringify(paid.body)}`);
      acked.payments.add(placed.body.reference as string);
    }
  }

  // A send's code is in the email that announced it; the email names the amount and the address,
  // not the send's id, so the code is the one whose hash the send stores (as a user would type it).
  async function codeFor(sendId: string): Promise<string> {
    const [send] = await sql<{ code_hash: string }>(dbUrl, 'select code_hash from wallet_sends where id = $1', [
      sendId,
    ]);
    for (;;) {
      const { body } = await until('GET', `/api/ops/outbox?to=${encodeURIComponent(alice.email)}`, admin);
      for (const m of body.messages as { body: string }[]) {
        const code = CODE.exec(m.body)?.[0];
        if (code && sendCodeHash(sendId, code) === send!.code_hash) return code;
      }
      await sleep(100);
    }
  }

  async function sendFlow(internal: boolean) {
    const key = randomUUID();
    const started = await until(
      'POST',
      '/api/wallet/sends',
      alice.auth,
      { currency: 'BTC', address: internal ? bob.address : EXTERNAL, amount: '0.0001' },
      { 'idempotency-key': key },
    );
    if (started.status !== 201 && started.status !== 200)
      throw new Error(`send refused: ${JSON.stringify(started.body)}`);
    const id = started.body.id as string;
    const code = await codeFor(id);
    const confirmed = await until('POST', `/api/wallet/sends/${id}/confirm`, alice.auth, { code });
    // A confirmation whose answer was lost is seen as "no longer waiting" on the retry.
    if (
      confirmed.status === 200 ||
      (confirmed.body.error as { code?: string } | undefined)?.code === 'send_not_pending'
    ) {
      const state = await until('GET', `/api/wallet/sends/${id}`, alice.auth);
      if (state.body.status === 'processing' || state.body.status === 'completed') acked.sends.set(id, { internal });
      else throw new Error(`send ${id} ended ${String(state.body.status)}`);
    } else throw new Error(`confirm refused: ${JSON.stringify(confirmed.body)}`);
  }

  // Both users try to enter every round while registrations are open (refusals are expected).
  let faucetEntries = 0;
  async function faucetFlow() {
    for (const user of [alice, bob]) {
      const entered = await until('POST', '/api/faucet/entries', user.auth, { address: user.address });
      if (entered.status === 201) faucetEntries++;
    }
  }

  const problems: string[] = [];
  const faucetPlayer = (async () => {
    while (running) {
      await faucetFlow().catch((error: Error) => problems.push(error.message));
      await sleep(1000);
    }
  })();
  const clients = Array.from({ length: CLIENTS }, async (_, i) => {
    while (running) {
      try {
        const pick = (i + Math.floor(Math.random() * 3)) % 3;
        await (pick === 0 ? orderFlow() : sendFlow(pick === 1));
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  });

  const kill = async (replica: number) => {
    const exited = new Promise((resolve) => servers[replica]!.once('exit', resolve));
    servers[replica]!.kill('SIGKILL');
    await exited;
    // The old process must be gone before the new one starts (a restart must not find it alive).
    if (
      await fetch(`${bases[replica]}/api/health`).then(
        () => true,
        () => false,
      )
    )
      throw new Error('the killed server still answers');
  };
  let aimedKills = 0;
  for (let round = 1; round <= KILLS; round++) {
    await sleep(1000 + Math.random() * 2500);
    if (round % 2 === 0) {
      // Aimed at the payout worker: a payout handed to the chain, its result not booked yet.
      const until = Date.now() + 10_000;
      let caught = false;
      while (!caught && Date.now() < until) {
        caught =
          (await sql<{ n: number }>(dbUrl, `select count(*)::int as n from payouts where status = 'submitting'`))[0]!
            .n > 0;
        if (!caught) await sleep(10);
      }
      await Promise.all(servers.map((_, replica) => kill(replica)));
      if (caught) aimedKills++;
      await sleep(Math.random() * 500);
      for (let replica = 0; replica < REPLICAS; replica++) await start(replica);
      console.log(
        `kill ${round}/${KILLS}: every replica, ${caught ? 'with a payout between the chain and its booking' : 'no payout was in flight'}; restarted`,
      );
    } else {
      const victim = Math.floor(Math.random() * REPLICAS);
      await kill(victim);
      await sleep(Math.random() * 500);
      await start(victim);
      console.log(
        `kill ${round}/${KILLS}: replica ${victim} restarted; acknowledged so far: ${acked.orders.size} orders, ${acked.payments.size} payments, ${acked.sends.size} sends`,
      );
    }
  }
  running = false;
  await Promise.all([...clients, faucetPlayer]);

  // Let the workers finish what was funded or confirmed (a payout taken by a killed worker waits
  // for its lease, 1.5 s, before another takes it).
  const deadline = Date.now() + 60_000;
  let stuck: { kind: string; n: number }[] = [];
  while (Date.now() < deadline) {
    stuck = await sql<{ kind: string; n: number }>(
      dbUrl,
      `select 'order' as kind, count(*)::int as n from orders where status = 'processing'
       union all select 'send', count(*)::int from wallet_sends where status = 'processing'
       union all select 'payout', count(*)::int from payouts where status not in ('completed', 'failed')`,
    );
    if (stuck.every((s) => s.n === 0)) break;
    await sleep(500);
  }
  for (const s of stuck) if (s.n > 0) problems.push(`${s.n} ${s.kind}(s) stuck in processing`);

  const rounds = await sql<{ id: number; players: number; credits: number }>(
    dbUrl,
    `select r.id, (select count(*)::int from faucet_entries e where e.round_id = r.id) as players,
            (select count(*)::int from ledger_transfers t where t.id = 'faucet:' || r.id) as credits
     from faucet_rounds r where r.finished_at is not null`,
  );
  for (const r of rounds) {
    if (r.credits !== (r.players > 0 ? 1 : 0))
      problems.push(`faucet round ${r.id}: ${r.players} players, ${r.credits} credits`);
  }
  const paidRounds = rounds.filter((r) => r.credits === 1).length;

  // Every payout paid once: one ledger payout each, one broadcast per key with the booked txid.
  const payoutRows = await sql<{
    id: string;
    status: string;
    attempts: number;
    txid: string | null;
    booked: number;
    broadcasts: number;
    broadcast_txid_ok: boolean;
    asked_again: number;
  }>(
    dbUrl,
    `select p.id, p.status, p.attempts, p.txid,
            (select count(*)::int from ledger_transfers t where t.id = 'payout:' || p.id) as booked,
            (select count(*)::int from outbox o where o.channel = 'chain' and o.body like '%idempotency key ' || p.idempotency_key) as broadcasts,
            coalesce((select bool_and(o.body like 'txid ' || p.txid || '%') from outbox o where o.channel = 'chain' and o.body like '%idempotency key ' || p.idempotency_key), false) as broadcast_txid_ok,
            coalesce((select max(o.attempts) from outbox o where o.channel = 'chain' and o.body like '%idempotency key ' || p.idempotency_key), 0) as asked_again
     from payouts p`,
  );
  for (const p of payoutRows) {
    if (p.status !== 'completed') problems.push(`payout ${p.id} ended ${p.status}`);
    else if (p.booked !== 1 || p.broadcasts !== 1 || !p.broadcast_txid_ok)
      problems.push(
        `payout ${p.id}: ${p.booked} ledger payouts, ${p.broadcasts} broadcasts, txid ${p.broadcast_txid_ok ? 'matches' : 'differs'}`,
      );
  }
  const retaken = payoutRows.filter((p) => p.attempts > 1).length;
  const askedAgain = payoutRows.filter((p) => p.asked_again > 0).length;
  if (aimedKills > 0 && retaken === 0)
    problems.push(`${aimedKills} kills landed between a payout's two steps, yet no payout was taken again`);
  const clearing = await sql<{ currency: string; balance: string }>(
    dbUrl,
    `select currency, sum(balance)::text as balance from ledger_accounts where system_code = 'payouts' group by currency having sum(balance) <> 0`,
  );
  for (const c of clearing)
    problems.push(`payouts clearing account ${c.currency} holds ${c.balance} with every payout final`);

  const verify = await until('GET', '/api/ops/ledger/verify', admin);
  if (!verify.body.ok) problems.push(`ledger invariants: ${JSON.stringify(verify.body.checks)}`);

  const orderRows = await sql<{ idempotency_key: string; reference: string; status: string }>(
    dbUrl,
    'select idempotency_key, reference, status from orders where idempotency_key is not null',
  );
  const byKey = new Map(orderRows.map((r) => [r.idempotency_key, r]));
  for (const [key, reference] of acked.orders)
    if (byKey.get(key)?.reference !== reference) problems.push(`acknowledged order ${reference} missing`);
  for (const reference of acked.payments) {
    const row = orderRows.find((r) => r.reference === reference);
    if (!row || !row.status.startsWith('completed'))
      problems.push(`paid order ${reference} not completed (${row?.status})`);
  }
  const paymentsBooked = await sql<{ n: number }>(
    dbUrl,
    `select count(*)::int as n from ledger_transfers where id like 'bank-payment:pay-%'`,
  );
  if (paymentsBooked[0]!.n !== acked.payments.size)
    problems.push(`bank payments booked ${paymentsBooked[0]!.n}, acknowledged ${acked.payments.size}`);

  const sendRows = await sql<{ id: string; status: string; recipient_id: string | null }>(
    dbUrl,
    `select id, status, recipient_id from wallet_sends where status <> 'awaiting_code'`,
  );
  const confirmedIds = new Set(sendRows.map((r) => r.id));
  for (const id of acked.sends.keys()) if (!confirmedIds.has(id)) problems.push(`acknowledged send ${id} missing`);
  // Money moved exactly once per confirmed send: Alice paid 0.0001 BTC per send plus the network
  // fee of the external ones; Bob got 0.0001 per internal one.
  const internal = sendRows.filter((r) => r.recipient_id).length;
  const external = sendRows.length - internal;
  const balances = await sql<{ email: string; balance: string }>(
    dbUrl,
    // An account's balance is the sum of its row and its sub-accounts (migration 0043).
    `select a.email, sum(l.balance)::text as balance from ledger_accounts l join accounts a on a.id = l.owner_id where l.currency = 'BTC' group by a.email`,
  );
  const balanceOf = (email: string) => BigInt(balances.find((b) => b.email === email)?.balance ?? '0');
  const expectedAlice = 100_000_000n - BigInt(sendRows.length) * 10_000n - BigInt(external) * 2_000n;
  // Faucet rewards (BTC) came on top of the sends: count them in.
  const rewards = await sql<{ email: string; total: string }>(
    dbUrl,
    `select a.email, coalesce(sum(t.amount), 0)::text as total from ledger_transfers t
     join ledger_accounts l on l.id = t.credit_account_id join accounts a on a.id = l.owner_id
     where t.code = 'faucet' and t.currency = 'BTC' group by a.email`,
  );
  const rewardOf = (email: string) => BigInt(rewards.find((r) => r.email === email)?.total ?? '0');
  if (balanceOf(alice.email) - rewardOf(alice.email) !== expectedAlice)
    problems.push(
      `alice has ${balanceOf(alice.email)} sat, expected ${expectedAlice} + rewards ${rewardOf(alice.email)}`,
    );
  if (balanceOf(bob.email) - rewardOf(bob.email) !== BigInt(internal) * 10_000n)
    problems.push(`bob has ${balanceOf(bob.email)} sat, expected ${BigInt(internal) * 10_000n} + rewards`);

  await Promise.all(
    servers.map((server) => {
      const stopped = new Promise((resolve) => server!.once('exit', resolve));
      server!.kill('SIGTERM');
      return stopped;
    }),
  );
  await sql(adminUrl, `drop database if exists ${name} with (force)`);
  console.log(
    `\ntest:crash — ${REPLICAS} replicas, ${KILLS} SIGKILLs (${aimedKills} between a payout's two steps); acknowledged ${acked.orders.size} orders (${acked.payments.size} paid), ${acked.sends.size} sends (${internal} internal, ${external} external confirmed), ${faucetEntries} faucet entries over ${rounds.length} finished rounds (${paidRounds} paid); ${payoutRows.length} payouts, ${retaken} taken again after a kill (${askedAgain} asked of the chain twice with the same key), each paid once`,
  );
  if (problems.length) {
    console.error(`FAILED:\n  ${[...new Set(problems)].slice(0, 30).join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    'ok: ledger invariants hold, every acknowledged request is there, nothing moved or paid twice, nothing stuck',
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
