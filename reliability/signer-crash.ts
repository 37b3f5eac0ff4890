/**
 * `npm run test:crash`, second part (issue 30): the signer killed while it pays, against a real
 * `litecoind -regtest`. The server (on PostgreSQL, its deposit watcher and payout worker running
 * as `npm start` runs them) and the signer (`npm run signer`, its own process) pay a stream of
 * sends, each to an address of its own in the node's wallet, while the signer is killed
 * CRASH_KILLS times (default 10) and restarted: every other time exactly between its broadcast and
 * its report (SIGNER_DIE_BEFORE_REPORT, the worst moment), the others with SIGKILL at a random
 * moment. Blocks are mined all along. Then:
 * - every send is completed, its payout with a txid the node has mined;
 * - each address received exactly its send's amount, as the node's own wallet counts it: nothing
 *   was paid twice, nothing lost;
 * - the ledger invariants hold and the reconciliation finds the house's coins on chain equal to the
 *   ledger.
 * Needs `litecoind` (Debian's package; .ci/run installs it). Uses BENCH_DATABASE_URL or
 * TEST_DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decimalToMinor } from '#domain/money';
import { freePort, root, waitFor } from '../bench/support';
import { startLitecoind } from '../server/chain/litecoind';
import { loadConfig } from '../server/src/config';
import { mintAccessToken, readIdpKeys } from '../server/src/dev/keys';
import { sendCodeHash } from '../server/src/modules/wallet/sends';
import { adminUrl, CODE, KILLS, sleep, sql } from './support';

const SENDS_PER_ROUND = 3;

async function main() {
  const ltc = await startLitecoind();
  const name = `muntly_signer_crash_${Date.now()}`;
  await sql(adminUrl, `create database ${name}`);
  const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-signer-crash-'));
  fs.mkdirSync(path.join(dataDir, 'public'));
  fs.writeFileSync(path.join(dataDir, 'public', 'index.html'), '<!doctype html><title>Muntly</title>');
  const [port, idpPort] = [await freePort(), await freePort()];
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ENV_FILE: path.join(root, '__tests__/support/empty.env'),
    LOG_LEVEL: 'error',
    HOST: 'localhost',
    PORT: String(port),
    IDP_PORT: String(idpPort),
    DATA_DIR: dataDir,
    PUBLIC_DIR: path.join(dataDir, 'public'),
    DATABASE_URL: dbUrl,
    CHAIN_NETWORK: 'regtest',
    CHAIN_RPC_URL_LTC: ltc.url,
    CONFIRMATIONS_LTC: '1',
    CHAIN_POLL_MS: '200',
    PAYOUT_WORKER_INTERVAL_MS: '200',
    SIGNER_POLL_MS: '200',
    // Its user is verified moments before sending, to addresses added moments before.
    PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS: '0',
    ADDRESS_HOLD_HOURS: '0',
  };
  const base = `http://localhost:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`${base}/api/ready`, 120_000);

  const config = loadConfig(env);
  const token = (subject: string, scope: string, email?: string) =>
    mintAccessToken(readIdpKeys(dataDir), {
      issuer: config.authIssuer,
      audience: config.authAudience,
      subject,
      scope,
      ...(email ? { email, amr: ['pwd', 'otp'] } : {}),
    });
  const admin = `Bearer ${await token('crash-operator', 'use:muntly admin:muntly')}`;
  async function call(method: string, url: string, auth: string, body?: unknown) {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  // Alice, verified, with 20 LTC deposited on chain and credited by the watcher.
  const email = 'alice@signer-crash.test';
  const alice = `Bearer ${await token('auth0|alice', 'openid profile email use:muntly', email)}`;
  await call('GET', '/api/me', alice);
  for (const kind of ['bank', 'mobile', 'id'])
    await call('POST', '/api/ops/verification/verify', admin, { email, kind });
  const reception = (await call('POST', '/api/wallet/addresses', alice, { currency: 'LTC' })).address as string;
  await ltc.wallet('sendtoaddress', [reception, '20']);
  await ltc.mine(1);
  const balance = async () =>
    ((await call('GET', '/api/wallet/balances', alice)).balances as { currency: string; balance: string }[]).find(
      (b) => b.currency === 'LTC',
    )?.balance;
  for (let i = 0; (await balance()) !== '20.00000000'; i++) {
    if (i > 300) throw new Error(`the deposit was not credited (balance ${await balance()})`);
    await sleep(100);
  }

  /** A send of `amount` to a fresh address of the node's wallet, confirmed with its emailed code. */
  const sent: { id: string; to: string; amount: string }[] = [];
  async function send(amount: string) {
    const to = await ltc.wallet<string>('getnewaddress');
    await call('POST', '/api/wallet/address-book', alice, { currency: 'LTC', address: to, ownWallet: false });
    const { id } = (await call('POST', '/api/wallet/sends', alice, { currency: 'LTC', address: to, amount })) as {
      id: string;
    };
    const [row] = await sql<{ code_hash: string }>(dbUrl, 'select code_hash from wallet_sends where id = $1', [id]);
    const { messages } = (await call('GET', `/api/ops/outbox?to=${encodeURIComponent(email)}`, admin)) as {
      messages: { body: string }[];
    };
    const code = messages.map((m) => CODE.exec(m.body)?.[0]).find((c) => c && sendCodeHash(id, c) === row!.code_hash);
    if (!code) throw new Error(`no code mailed for send ${id}`);
    await call('POST', `/api/wallet/sends/${id}/confirm`, alice, { code });
    sent.push({ id, to, amount });
  }

  const signerEnv = { ...env, OPS_URL: base };
  let signer: ChildProcess | null = null;
  const startSigner = (extra: Record<string, string> = {}) => {
    signer = spawn(process.execPath, ['--import', 'tsx', 'server/src/signer/main.ts'], {
      cwd: root,
      env: { ...signerEnv, ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return signer;
  };
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
    );

  let aimed = 0;
  let random = 0;
  for (let round = 1; round <= KILLS; round++) {
    for (let i = 0; i < SENDS_PER_ROUND; i++) await send(`0.${String(round).padStart(2, '0')}${i + 1}`);
    if (round % 2 === 1) {
      // The worst moment: broadcast, not yet reported. It exits as SIGKILL leaves a process.
      const dying = startSigner({ SIGNER_DIE_BEFORE_REPORT: '1' });
      const code = await Promise.race([exited(dying), sleep(60_000).then(() => 'timeout')]);
      if (code === 137) aimed++;
      else dying.kill('SIGKILL');
    } else {
      const child = startSigner();
      await sleep(300 + Math.random() * 2500);
      child.kill('SIGKILL');
      await exited(child);
      random++;
    }
    await ltc.mine(1);
    console.log(
      `signer kill ${round}/${KILLS}: ${round % 2 === 1 ? 'between broadcast and report' : 'SIGKILL at a random moment'}; ${sent.length} sends so far`,
    );
  }

  // A signer that runs to the end, and blocks until every payout is confirmed.
  const last = startSigner();
  const problems: string[] = [];
  const deadline = Date.now() + 120_000;
  let open: { status: string; n: number }[] = [];
  while (Date.now() < deadline) {
    open = await sql<{ status: string; n: number }>(
      dbUrl,
      `select status, count(*)::int as n from payouts where status <> 'completed' group by status`,
    );
    if (open.length === 0) break;
    await ltc.mine(1);
    await sleep(500);
  }
  last.kill('SIGTERM');
  await exited(last);
  for (const o of open) problems.push(`${o.n} payout(s) still ${o.status}`);

  // Paid once: each address received exactly its send's amount, as the node's wallet counts it.
  let paidTwice = 0;
  for (const s of sent) {
    const received = await ltc.wallet<string>('getreceivedbyaddress', [s.to, 1]);
    if (decimalToMinor(received, 8) !== decimalToMinor(s.amount, 8)) {
      problems.push(`${s.to} received ${received} LTC for a send of ${s.amount}`);
      if (decimalToMinor(received, 8)! > decimalToMinor(s.amount, 8)!) paidTwice++;
    }
  }
  const sends = await sql<{ status: string; n: number }>(
    dbUrl,
    `select status, count(*)::int as n from wallet_sends group by status`,
  );
  for (const s of sends) if (s.status !== 'completed') problems.push(`${s.n} send(s) ${s.status}`);
  const verify = await call('GET', '/api/ops/ledger/verify', admin);
  if (!verify.ok) problems.push(`ledger invariants: ${JSON.stringify(verify.checks)}`);
  // The watcher has seen every block the loop above mined before it reconciles.
  await sleep(1000);
  const { results } = (await call('POST', '/api/ops/chain/reconcile', admin)) as {
    results: { ok: boolean; difference: string }[];
  };
  if (!results[0]?.ok) problems.push(`reconciliation: ${JSON.stringify(results)}`);

  const stopped = exited(server);
  server.kill('SIGTERM');
  await stopped;
  await ltc.stop();
  await sql(adminUrl, `drop database if exists ${name} with (force)`);
  console.log(
    `\ntest:crash (signer) — litecoind -regtest, ${KILLS} signer kills (${aimed} between a broadcast and its report, ${random} at a random moment); ${sent.length} sends, each paid ${paidTwice ? 'NOT once' : 'once'}`,
  );
  if (problems.length) {
    console.error(`FAILED:\n  ${problems.slice(0, 30).join('\n  ')}`);
    process.exit(1);
  }
  if (aimed === 0) {
    console.error('FAILED: no kill landed between a broadcast and its report');
    process.exit(1);
  }
  console.log('ok: every send paid exactly once on chain, the ledger holds, and the chain agrees with it');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
