/**
 * @jest-environment node
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Address } from '@scure/btc-signer';
import { Verifier } from 'bip322-js';
import { sql } from 'drizzle-orm';
import { controlMessage } from '#domain/control';
import { setNetworkFee } from '#domain/fees';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { setChainNetwork, bitcoinLikeNetwork } from '#domain/networks';
import { simulatedChain } from '../src/dev/simulated-chain';
import { deriveAddress, TEST_XPUBS } from '../src/modules/chain/derive';
import { refreshNetworkFee } from '../src/modules/chain/fees';
import { confirmingAt } from '../src/modules/chain/service';
import { DEFAULT_WATCHER_SETTINGS, scanChain } from '../src/modules/chain/watcher';
import { publishSnapshot } from '../src/modules/liabilities/service';
import { sharedSignerKey } from '../src/modules/payouts/instruction';
import { Journal } from '../src/signer/journal';
import { TEST_MNEMONIC, houseSigners } from '../src/signer/keys';
import { seedControlKeys, signReserves } from '../src/signer/reserves';
import { createSigner } from '../src/signer/signer';
import { watcherHooks } from '../src/workers';
import {
  balanceOf,
  bookAddresses,
  confirmSendFromMail,
  databaseKinds,
  fixedRates,
  payOut,
  signerApi,
  testApp,
  testUser,
  type TestApp,
  type TestUser,
} from '../test/helpers';
import { startLitecoind, type Litecoind } from './litecoind';
import type { ControlProof, Reserves } from '#domain/contracts/liabilities';

// An independent library (bitcore, not the @scure/btc-signer the signer uses) checks every signature.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bitcore = require('bitcore-lib-ltc') as any;

/**
 * The chain side against a real node (issue 30): litecoind -regtest, the app on PGlite and on
 * PostgreSQL, the deposit watcher and the signer as the workers and `npm run signer` run them
 * (driven here run by run). Three confirmations, so reorgs before and after them are short.
 */
const CONFIRMATIONS = 3;

describe.each(databaseKinds())('LTC on a real litecoind -regtest (%s)', (kind) => {
  let ltc: Litecoind;
  let t: TestApp;
  let journalFile: string;
  const rates = fixedRates();

  beforeAll(async () => {
    ltc = await startLitecoind();
    t = await testApp(
      kind,
      {
        CHAIN_NETWORK: 'regtest',
        CHAIN_RPC_URL_LTC: ltc.url,
        CONFIRMATIONS_LTC: String(CONFIRMATIONS),
        CHAIN_POLL_MS: '0',
        RECONCILE_INTERVAL_MS: '0',
      },
      { rates },
    );
    journalFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-signer-')), 'signer-journal.jsonl');
  }, 120_000);
  afterAll(async () => {
    setNetworkFee('LTC', null);
    await t?.close();
    await ltc?.stop();
    setChainNetwork('mainnet');
  });

  const scan = () =>
    scanChain(t.app.db, ltc.node, watcherHooks(rates, t.app.workers.payoutOutcomes), {
      ...DEFAULT_WATCHER_SETTINGS,
      confirmations: CONFIRMATIONS,
    });
  const api = signerApi(() => t);
  const signer = (options: { bumpAfterMs?: number; beforeReport?: () => Promise<void> } = {}) =>
    createSigner({
      api,
      nodes: new Map([['LTC', ltc.node]]),
      keys: houseSigners(TEST_MNEMONIC, TEST_XPUBS, ['LTC']),
      xpubs: TEST_XPUBS,
      journal: new Journal(journalFile),
      macKey: sharedSignerKey(t.config),
      bumpAfterMs: options.bumpAfterMs ?? 3_600_000,
      log: (message) => process.env.SIGNER_LOG && console.log(message),
      ...(options.beforeReport ? { beforeReport: options.beforeReport } : {}),
    });

  const outsideAddress = () => ltc.wallet<string>('getnewaddress');
  // Replaceable (BIP125), so that after a reorg the payer can spend its inputs again.
  const pay = (address: string, amount: string) =>
    ltc.wallet<string>('sendtoaddress', [address, amount, '', '', false, true]);
  const balance = async (user: TestUser) => (await balanceOf(t, user.headers, 'LTC')) ?? '0.00000000';
  type OutputRow = { status: string; unmatched_reason: string | null; credited_to: string | null };
  const output = async (txid: string, vout: number) =>
    (
      (await t.app.db.execute(
        sql`select status, unmatched_reason, credited_to from chain_outputs where txid = ${txid} and vout = ${vout}`,
      )) as unknown as { rows: OutputRow[] }
    ).rows[0];
  const voutTo = async (txid: string, address: string) => {
    const tx = await ltc.node.call<{ vout: { n: string; scriptPubKey: { addresses?: string[] } }[] }>(
      'getrawtransaction',
      [txid, true],
    );
    return Number(tx.vout.find((o) => o.scriptPubKey.addresses?.[0] === address)!.n);
  };
  /** After a reorg put a deposit back in the mempool: the payer spends its inputs again, to themselves, with a higher fee (BIP125). */
  async function doubleSpend(txid: string) {
    const tx = await ltc.node.call<{ vin: { txid: string; vout: string }[] }>('getrawtransaction', [txid, true]);
    let total = 0n;
    for (const input of tx.vin) {
      const previous = await ltc.node.call<{ vout: { value: string }[] }>('getrawtransaction', [input.txid, true]);
      total += decimalToMinor(previous.vout[Number(input.vout)]!.value, 8)!;
    }
    const raw = await ltc.wallet<string>('createrawtransaction', [
      tx.vin.map((i) => ({ txid: i.txid, vout: Number(i.vout) })),
      { [await outsideAddress()]: minorToDecimal(total - 1_000_000n, 8) },
    ]);
    const signed = await ltc.wallet<{ hex: string }>('signrawtransactionwithwallet', [raw]);
    return ltc.node.broadcast(signed.hex);
  }
  async function userWithDeposit(email: string, amount: string): Promise<TestUser> {
    const user = await testUser(t, email, { address: 'LTC' });
    await pay(user.address, amount);
    await ltc.mine(CONFIRMATIONS);
    await scan();
    return user;
  }
  async function sendOut(user: TestUser, address: string, amount: string): Promise<string> {
    await bookAddresses(t, user, [{ currency: 'LTC', address }]);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      headers: user.headers,
      payload: { currency: 'LTC', address, amount },
    });
    expect(started.statusCode).toBe(201);
    const id = started.json().id as string;
    expect((await confirmSendFromMail(t, user, id)).statusCode).toBe(200);
    return id;
  }
  type PayoutRow = { id: string; status: string; txid: string | null; txids: string[]; chain_fee: string | null };
  const payoutOfSend = async (sendId: string) =>
    (
      (await t.app.db.execute(
        sql`select id, status, txid, txids, chain_fee::text from payouts where send_id = ${sendId}`,
      )) as unknown as { rows: PayoutRow[] }
    ).rows[0]!;

  /** Checks a transaction of the signer's with the node (decoderawtransaction, testmempoolaccept is done before broadcasting) and with bitcore. */
  async function checkedByOthers(txid: string) {
    const hex = await ltc.node.call<string>('getrawtransaction', [txid, false]);
    const decoded = await ltc.node.call<{
      vin: { txid: string; vout: string; sequence: string }[];
      vout: { value: string; scriptPubKey: { addresses?: string[] } }[];
    }>('decoderawtransaction', [hex]);
    const tx = new bitcore.Transaction(hex);
    const interpreter = new bitcore.Script.Interpreter();
    const flags =
      bitcore.Script.Interpreter.SCRIPT_VERIFY_P2SH |
      bitcore.Script.Interpreter.SCRIPT_VERIFY_WITNESS |
      bitcore.Script.Interpreter.SCRIPT_VERIFY_STRICTENC;
    for (let i = 0; i < decoded.vin.length; i++) {
      const spent = await ltc.node.call<{ vout: { value: string; scriptPubKey: { hex: string } }[] }>(
        'getrawtransaction',
        [decoded.vin[i]!.txid, true],
      );
      const previous = spent.vout[Number(decoded.vin[i]!.vout)]!;
      const ok = interpreter.verify(
        tx.inputs[i].script,
        new bitcore.Script(previous.scriptPubKey.hex),
        tx,
        i,
        flags,
        tx.inputs[i].getWitnesses(),
        Number(decimalToMinor(previous.value, 8)),
      );
      expect({ input: i, ok, error: interpreter.errstr }).toEqual({ input: i, ok: true, error: '' });
      // Replaceable by fee (BIP125).
      expect(Number(decoded.vin[i]!.sequence)).toBeLessThan(0xfffffffe);
    }
    return decoded;
  }

  it('refuses a node of another network at start-up, with a message naming both', async () => {
    await expect(
      testApp(kind, { CHAIN_NETWORK: 'mainnet', CHAIN_RPC_URL_LTC: ltc.url, CHAIN_POLL_MS: '0' }),
    ).rejects.toThrow('CHAIN_RPC_URL_LTC is a regtest node, but CHAIN_NETWORK is mainnet');
    setChainNetwork('regtest');
  });

  it('the network fee a quote states and a send charges follows the node’s estimate, with the operator’s margin', async () => {
    // regtest has no fee history: the estimate falls to the floor, 1 litoshi per vbyte × 141 vbytes + 20 %, rounded up.
    expect(await refreshNetworkFee(ltc.node, 20)).toBe(170n);
    const quoted = await t.app.inject({
      method: 'POST',
      url: '/api/quotes',
      payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'LTC', amount: '50' },
    });
    expect(quoted.json().networkFee).toBe('0.00000170');
  });

  it('a deposit is confirming n of N, credited once at N confirmations, whatever the watcher sees twice', async () => {
    const user = await testUser(t, 'deposit@chain.test', { address: 'LTC' });
    expect(user.address).toMatch(/^rltc1/);
    const txid = await pay(user.address, '1.5');
    await ltc.mine(1);
    await scan();
    expect(await confirmingAt(t.app.db, 'LTC', [user.address])).toEqual([
      {
        address: user.address,
        txid: `${txid}:${await voutTo(txid, user.address)}`,
        amount: 150_000_000n,
        confirmations: 1,
      },
    ]);
    expect(await balance(user)).toBe('0.00000000');
    // The wallet's Receive page shows it on its way.
    const addresses = (await t.app.inject({ url: '/api/wallet/addresses', headers: user.headers })).json()
      .addresses as { address: string; incoming: unknown[] }[];
    expect(addresses.find((a) => a.address === user.address)!.incoming).toEqual([
      {
        txid: expect.stringMatching(/^[0-9a-f]{64}:\d$/),
        amount: '1.50000000',
        confirmations: 1,
        required: CONFIRMATIONS,
      },
    ]);
    await ltc.mine(CONFIRMATIONS - 1);
    const scanned = await scan();
    expect(scanned.credited).toBe(1);
    expect(await balanceOf(t, user.headers, 'LTC')).toBe('1.50000000');
    // The same blocks again (a second replica, a restart): nothing more.
    await t.app.db.execute(
      sql`delete from chain_blocks where currency = 'LTC' and height > (select max(height) - 3 from chain_blocks where currency = 'LTC')`,
    );
    await scan();
    expect(await balanceOf(t, user.headers, 'LTC')).toBe('1.50000000');
    expect((await output(txid, await voutTo(txid, user.address)))!.status).toBe('credited');
  });

  it('two outputs of one transaction are two deposits', async () => {
    const a = await testUser(t, 'two-a@chain.test', { address: 'LTC' });
    const b = await testUser(t, 'two-b@chain.test', { address: 'LTC' });
    await ltc.wallet('sendmany', ['', { [a.address]: '0.4', [b.address]: '0.6' }]);
    await ltc.mine(CONFIRMATIONS);
    expect((await scan()).credited).toBe(2);
    expect(await balanceOf(t, a.headers, 'LTC')).toBe('0.40000000');
    expect(await balanceOf(t, b.headers, 'LTC')).toBe('0.60000000');
  });

  it('dust waits in the unmatched chain queue, never credited by itself; an operator assigns it once', async () => {
    const user = await testUser(t, 'dust@chain.test', { address: 'LTC' });
    const txid = await pay(user.address, '0.0005');
    await ltc.mine(CONFIRMATIONS);
    expect((await scan()).unmatched).toBe(1);
    expect(await balance(user)).toBe('0.00000000');
    const queue = await t.app.inject({ url: '/api/ops/chain/unmatched', headers: t.admin });
    expect(queue.json().outputs).toEqual([
      expect.objectContaining({ txid, amount: '0.00050000', unmatchedReason: 'dust', status: 'unmatched' }),
    ]);
    const vout = await voutTo(txid, user.address);
    const assign = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/ops/chain/unmatched/assign',
        headers: t.admin,
        payload: { currency: 'LTC', txid, vout, email: user.email },
      });
    expect((await assign()).statusCode).toBe(200);
    expect((await assign()).statusCode).toBe(404);
    expect(await balanceOf(t, user.headers, 'LTC')).toBe('0.00050000');
  });

  it('coins at a sell order’s address fund the order after N confirmations; a second payment to it waits in the queue', async () => {
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'sell',
        currencyFrom: 'LTC',
        currencyTo: 'EUR',
        amount: '1',
        email: 'seller@chain.test',
        address: 'DE02120300000000202051',
        beneficiary: 'Ada Lovelace',
      },
    });
    expect(placed.statusCode).toBe(201);
    const { reference, receiving } = placed.json() as { reference: string; receiving: { address: string } };
    const receivingAddress = receiving.address;
    expect(receivingAddress).toMatch(/^rltc1/);
    await pay(receivingAddress, '1');
    await ltc.mine(1);
    await scan();
    // The order's page shows the coins on their way, confirmation by confirmation.
    const lookup = () =>
      t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload: { email: 'seller@chain.test', reference } });
    expect((await lookup()).json().receiving.incoming).toEqual([
      expect.objectContaining({ amount: '1.00000000', confirmations: 1, required: CONFIRMATIONS }),
    ]);
    await ltc.mine(CONFIRMATIONS - 1);
    await scan();
    expect((await lookup()).json().receiving.incoming).toBeUndefined();
    const order = (
      (await t.app.db.execute(
        sql`select status, amount_received::text as received from orders where reference = ${reference}`,
      )) as unknown as { rows: { status: string; received: string }[] }
    ).rows[0];
    expect(order).toEqual({ status: 'processing', received: '100000000' });
    const again = await pay(receivingAddress, '0.5');
    await ltc.mine(CONFIRMATIONS);
    expect((await scan()).unmatched).toBe(1);
    expect((await output(again, await voutTo(again, receivingAddress)))!.unmatched_reason).toBe('not_expected');
  });

  it('a deposit whose block leaves the chain before N confirmations is never credited', async () => {
    const user = await testUser(t, 'orphan@chain.test', { address: 'LTC' });
    const txid = await pay(user.address, '2');
    const [block] = await ltc.mine(1);
    await scan();
    await ltc.node.call('invalidateblock', [block]);
    await doubleSpend(txid);
    await ltc.mine(CONFIRMATIONS + 1);
    const scanned = await scan();
    expect(scanned.reorgDepth).toBe(1);
    expect((await output(txid, 0)) ?? (await output(txid, 1))).toEqual(expect.objectContaining({ status: 'orphaned' }));
    expect(await balance(user)).toBe('0.00000000');
  });

  it('a credited deposit whose block leaves the chain after N is booked back, with an operator alert, once whatever the replicas', async () => {
    const user = await testUser(t, 'deep@chain.test', { address: 'LTC' });
    const txid = await pay(user.address, '1');
    const [block] = await ltc.mine(CONFIRMATIONS);
    await scan();
    expect(await balanceOf(t, user.headers, 'LTC')).toBe('1.00000000');
    await ltc.node.call('invalidateblock', [block]);
    await doubleSpend(txid);
    await ltc.mine(CONFIRMATIONS + 2);
    // Two replicas' watchers see the reorg at the same time: one books it back, the other finds it done.
    const scans = await Promise.all([scan(), scan()]);
    expect(scans.map((s) => s.reorgDepth)).toContain(CONFIRMATIONS);
    expect(await balanceOf(t, user.headers, 'LTC')).toBe('0.00000000');
    const alerts = (await t.app.inject({ url: '/api/ops/chain/alerts', headers: t.admin })).json().alerts as {
      kind: string;
      detail: { txid: string };
    }[];
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'reorg_reversal',
        detail: expect.objectContaining({ txid: `${txid}:${await voutTo(txid, user.address)}` }),
      }),
    ]);
    // The console's first page counts it (and the unmatched output of the order above).
    const queues = (await t.app.inject({ url: '/api/ops/queues', headers: t.admin })).json() as {
      chainAlerts: number;
      chainUnmatched: number;
    };
    expect(queues).toEqual(expect.objectContaining({ chainAlerts: 1, chainUnmatched: 1 }));
  });

  describe('payouts by the signer', () => {
    let alice: TestUser;
    beforeAll(async () => {
      alice = await userWithDeposit('alice@chain.test', '5');
    });

    it('pays the due payouts in one transaction the node and bitcore accept, with change to a fresh house address; confirmed after N', async () => {
      const [to1, to2] = [await outsideAddress(), await outsideAddress()];
      const sends = [await sendOut(alice, to1, '0.7'), await sendOut(alice, to2, '0.3')];
      expect(await payOut(t)).toBe(2);
      expect((await payoutOfSend(sends[0]!)).status).toBe('submitted');
      expect(await signer().run()).toEqual({ paid: 2, reported: 0, refused: 0, bumped: 0 });
      const [first, second] = [await payoutOfSend(sends[0]!), await payoutOfSend(sends[1]!)];
      expect(first.status).toBe('broadcast');
      expect(second.txid).toBe(first.txid);
      const decoded = await checkedByOthers(first.txid!);
      const paidTo = decoded.vout.map((o) => [o.scriptPubKey.addresses?.[0], o.value]);
      expect(paidTo).toEqual(
        expect.arrayContaining([
          [to1, '0.70000000'],
          [to2, '0.30000000'],
        ]),
      );
      expect(decoded.vout).toHaveLength(3);
      await ltc.mine(CONFIRMATIONS - 1);
      await scan();
      expect((await payoutOfSend(sends[0]!)).status).toBe('broadcast');
      await ltc.mine(1);
      expect((await scan()).payoutsCompleted).toBe(2);
      expect((await payoutOfSend(sends[0]!)).status).toBe('completed');
      const send = await t.app.inject({ url: `/api/wallet/sends/${sends[0]}`, headers: alice.headers });
      expect(send.json().status).toBe('completed');
      expect(await ltc.wallet('getreceivedbyaddress', [to1])).toBe('0.70000000');
    });

    it('refuses an instruction changed in the database (its MAC), and pays it once it is the API’s again', async () => {
      const to = await outsideAddress();
      const sendId = await sendOut(alice, to, '0.2');
      await payOut(t);
      const thief = await outsideAddress();
      await t.app.db.execute(sql`update payouts set destination = ${thief} where send_id = ${sendId}`);
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 0, refused: 1 }));
      await t.app.db.execute(sql`update payouts set destination = ${to} where send_id = ${sendId}`);
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 1, refused: 0 }));
      await ltc.mine(CONFIRMATIONS);
      await scan();
      expect(await ltc.wallet('getreceivedbyaddress', [thief])).toBe('0.00000000');
      expect(await ltc.wallet('getreceivedbyaddress', [to])).toBe('0.20000000');
    });

    it('killed between broadcasting and reporting, or handed a payout again by a restored database, the signer reports what it signed and never pays twice', async () => {
      const to = await outsideAddress();
      const sendId = await sendOut(alice, to, '0.15');
      await payOut(t);
      await expect(
        signer({
          beforeReport: async () => {
            throw new Error('killed');
          },
        }).run(),
      ).rejects.toThrow('killed');
      expect((await payoutOfSend(sendId)).status).toBe('submitted');
      const mempool = await ltc.node.call<string[]>('getrawmempool');
      expect(mempool).toHaveLength(1);
      // Mined, and its block scanned, before the signer is back to report it.
      await ltc.mine(1);
      await scan();
      // A new process, the same journal.
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 0, reported: 1 }));
      expect((await payoutOfSend(sendId)).txid).toBe(mempool[0]);
      // The database comes back from a backup taken before the report.
      await t.app.db.execute(
        sql`update payouts set status = 'submitted', txid = null, txids = '{}', chain_fee = null, confirmed_height = null where send_id = ${sendId}`,
      );
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 0, reported: 1 }));
      // Nothing new was signed; the one transaction is confirmed from the block it was mined in.
      expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([]);
      await ltc.mine(CONFIRMATIONS - 1);
      await scan();
      expect((await payoutOfSend(sendId)).status).toBe('completed');
      expect(await ltc.wallet('getreceivedbyaddress', [to])).toBe('0.15000000');
    });

    it('the signer as its own process (npm run signer), SIGKILLed between broadcasting and reporting, pays once after its restart', async () => {
      const to = await outsideAddress();
      const sendId = await sendOut(alice, to, '0.05');
      await payOut(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const token = t.admin.authorization!.replace('Bearer ', '');
      const env = {
        ...process.env,
        ENV_FILE: path.join(__dirname, '../../__tests__/support/empty.env'),
        CHAIN_NETWORK: 'regtest',
        CHAIN_RPC_URL_LTC: ltc.url,
        OPS_URL: `http://127.0.0.1:${port}`,
        OPS_TOKEN: token,
        DATA_DIR: t.config.DATA_DIR,
        SIGNER_POLL_MS: '200',
      };
      const signerProcess = (extra: Record<string, string>) =>
        spawn(process.execPath, ['--import', 'tsx', 'server/src/signer/main.ts'], {
          cwd: path.join(__dirname, '../..'),
          env: { ...env, ...extra },
          stdio: 'ignore',
        });
      // It dies right after the broadcast (exit 137, as a SIGKILL leaves it): the report never went.
      const dying = signerProcess({ SIGNER_DIE_BEFORE_REPORT: '1' });
      const code = await new Promise<number | null>((resolve) => dying.once('exit', resolve));
      expect(code).toBe(137);
      const mempool = await ltc.node.call<string[]>('getrawmempool');
      expect(mempool).toHaveLength(1);
      expect((await payoutOfSend(sendId)).status).toBe('submitted');
      // Restarted: it reports the transaction its journal holds, and signs nothing new.
      const restarted = signerProcess({});
      try {
        for (let i = 0; i < 100 && (await payoutOfSend(sendId)).status !== 'broadcast'; i++)
          await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        restarted.kill('SIGTERM');
      }
      expect(await payoutOfSend(sendId)).toEqual(expect.objectContaining({ status: 'broadcast', txid: mempool[0] }));
      expect(await ltc.node.call<string[]>('getrawmempool')).toEqual(mempool);
      await ltc.mine(CONFIRMATIONS);
      await scan();
      expect(await ltc.wallet('getreceivedbyaddress', [to])).toBe('0.05000000');
    });

    it('replaces a payout stuck unconfirmed by fee, keeps every txid, and completes it with the one mined', async () => {
      const to = await outsideAddress();
      const sendId = await sendOut(alice, to, '0.25');
      await payOut(t);
      await signer().run();
      const before = await payoutOfSend(sendId);
      expect(await signer({ bumpAfterMs: 0 }).run()).toEqual(expect.objectContaining({ bumped: 1 }));
      const after = await payoutOfSend(sendId);
      expect(after.txids).toEqual([before.txid, after.txid]);
      expect(after.txid).not.toBe(before.txid);
      expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([after.txid]);
      expect(BigInt(after.chain_fee!)).toBeGreaterThan(BigInt(before.chain_fee!));
      await checkedByOthers(after.txid!);
      await ltc.mine(CONFIRMATIONS);
      await scan();
      expect((await payoutOfSend(sendId)).status).toBe('completed');
      expect(await ltc.wallet('getreceivedbyaddress', [to])).toBe('0.25000000');
      // The history shows both to the operator.
      const listed = await t.app.inject({ url: '/api/ops/payouts?status=completed', headers: t.admin });
      expect(listed.json().payouts.find((p: { id: string }) => p.id === after.id).txids).toEqual([
        before.txid,
        after.txid,
      ]);
    });

    it('sends an unmatched output back to the address its sender names, less the network fee, paid by the signer; once', async () => {
      const queue = (await t.app.inject({ url: '/api/ops/chain/unmatched', headers: t.admin })).json() as {
        outputs: { txid: string; vout: number; address: string; amount: string; currency: string }[];
      };
      const queued = queue.outputs.find((o) => o.currency === 'LTC' && o.amount === '0.50000000')!;
      const key = { currency: 'LTC', txid: queued.txid, vout: queued.vout };
      const back = (destination: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/ops/chain/unmatched/return',
          headers: t.admin,
          payload: { ...key, destination },
        });
      // Never to the house itself (here the order's own receiving address), nor to what is no address of the network.
      expect((await back(queued.address)).json().error).toEqual(
        expect.objectContaining({ code: 'invalid_address', field: 'destination' }),
      );
      expect((await back('ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9')).json().error).toEqual(
        expect.objectContaining({ code: 'invalid_address' }),
      );
      // A return that fails (the signer or an operator reports it) puts the coins back in the queue.
      const first = (await back(await outsideAddress())).json() as { payout: { id: string } };
      expect(await payOut(t)).toBe(1);
      const failed = await t.app.inject({
        method: 'POST',
        url: `/api/ops/payouts/${first.payout.id}/result`,
        headers: t.admin,
        payload: { status: 'failed', reason: 'the sender named a wrong address' },
      });
      expect(failed.statusCode).toBe(200);
      expect((await output(key.txid, key.vout))!.status).toBe('unmatched');
      const to = await outsideAddress();
      const returned = await back(to);
      expect(returned.statusCode).toBe(200);
      const { payout, output: left } = returned.json() as {
        payout: { id: string; amount: string; networkFee: string; status: string };
        output: { status: string };
      };
      expect(left.status).toBe('returned');
      expect(decimalToMinor(payout.amount, 8)! + decimalToMinor(payout.networkFee, 8)!).toBe(50_000_000n);
      // It left the queue: a second return (or an assignment) finds nothing.
      expect((await back(await outsideAddress())).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/api/ops/chain/unmatched', headers: t.admin })).json().outputs).toEqual([]);
      expect(await payOut(t)).toBe(1);
      expect(await signer().run()).toEqual({ paid: 1, reported: 0, refused: 0, bumped: 0 });
      const paid = (
        (await t.app.db.execute(sql`select status, txid, purpose from payouts where id = ${payout.id}`)) as unknown as {
          rows: { status: string; txid: string; purpose: string }[];
        }
      ).rows[0]!;
      expect(paid).toEqual(expect.objectContaining({ status: 'broadcast', purpose: 'chain_return' }));
      await checkedByOthers(paid.txid);
      await ltc.mine(CONFIRMATIONS);
      await scan();
      expect(
        (
          (await t.app.db.execute(sql`select status from payouts where id = ${payout.id}`)) as unknown as {
            rows: { status: string }[];
          }
        ).rows[0]!.status,
      ).toBe('completed');
      expect(await ltc.wallet('getreceivedbyaddress', [to])).toBe(payout.amount);
    });

    it('reconciles: the house’s coins on chain, as the node counts them, are what the ledger says', async () => {
      await ltc.mine(1);
      await scan();
      const reconciled = await t.app.inject({ method: 'POST', url: '/api/ops/chain/reconcile', headers: t.admin });
      expect(reconciled.body).toContain('results');
      const [ltcResult] = reconciled.json().results as {
        currency: string;
        onChain: string;
        expected: string;
        difference: string;
        ok: boolean;
      }[];
      expect(ltcResult).toEqual(expect.objectContaining({ currency: 'LTC', difference: '0.00000000', ok: true }));
      expect(ltcResult!.onChain).toBe(ltcResult!.expected);
    });

    it('a snapshot states what the node counts, lists the change addresses (never a deposit address), and sign-reserves proves each as bip322-js checks it', async () => {
      await ltc.mine(1);
      await scan();
      // The reserves as a deployment with real nodes reads them: the watcher's view, at the block it has read.
      const published = (await publishSnapshot(
        t.app.db,
        { chain: { ...simulatedChain(), balances: async () => null }, xpubs: TEST_XPUBS },
        { actor: 'operator' },
      ))!;
      const file = (await t.app.inject({ url: `/proof/${published.snapshotId}.json` })).json() as {
        reserves: Reserves;
      };
      const reserve = file.reserves.currencies.find((c) => c.currency === 'LTC')!;
      expect(reserve.height).toBe(Number(await ltc.node.call<string>('getblockcount', [])));
      const reconciled = (
        await t.app.inject({ method: 'POST', url: '/api/ops/chain/reconcile', headers: t.admin })
      ).json().results as { currency: string; onChain: string }[];
      expect(reserve.held).toBe(reconciled.find((r) => r.currency === 'LTC')!.onChain);
      // The payouts' change is at the house's change addresses: listed; customers' addresses: counted only.
      const listed = reserve.addresses!;
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((a) => a.role === 'change')).toBe(true);
      const deposits = (
        (await t.app.db.execute(sql`select address from reception_addresses where currency = 'LTC'`)) as unknown as {
          rows: { address: string }[];
        }
      ).rows.map((r) => r.address);
      const text = JSON.stringify(file);
      for (const address of deposits) expect(text).not.toContain(address);
      expect(reserve.depositAddresses!.count).toBeGreaterThan(0);
      const held = (list: { balance: string | null }[]) =>
        list.reduce((sum, a) => sum + decimalToMinor(a.balance!, 8)!, 0n);
      expect(held(listed) + decimalToMinor(reserve.depositAddresses!.balance!, 8)!).toBe(
        decimalToMinor(reserve.held!, 8),
      );
      // The operator's command: keys from the signer's own seed, proofs checked by the API and stored.
      const lines: string[] = [];
      const result = await signReserves({
        api: signerApi(() => t),
        keys: seedControlKeys(TEST_MNEMONIC, TEST_XPUBS),
        snapshotId: published.snapshotId,
        log: (line) => lines.push(line),
      });
      expect(result).toMatchObject({ refused: 0, controlled: result.listed });
      const { proofs } = (await t.app.inject({ url: `/api/liabilities/${published.snapshotId}/control` })).json() as {
        proofs: ControlProof[];
      };
      for (const { address } of listed) {
        const proof = proofs.find((p) => p.address === address)!;
        expect([proof.scheme, proof.message]).toEqual([
          'bip322-simple',
          controlMessage({ snapshotId: published.snapshotId, digest: published.digest!, currency: 'LTC', address }),
        ]);
        // bip322-js knows Bitcoin's addresses only: the same witness program written as one (a BIP-322 signature does not depend on the network).
        const { hash } = Address(bitcoinLikeNetwork('LTC', 'regtest')).decode(address) as { hash: Uint8Array };
        expect(
          Verifier.verifySignature(
            Address(bitcoinLikeNetwork('BTC', 'regtest')).encode({ type: 'wpkh', hash }),
            proof.message,
            proof.signature,
          ),
        ).toBe(true);
      }
    });

    it('a difference is one alert, whatever the replicas and the runs that find it again', async () => {
      // Coins paid to a house change address behind Muntly's back: on chain, in no ledger.
      await pay(deriveAddress('LTC', TEST_XPUBS, 0, 'change'), '0.1');
      await ltc.mine(1);
      const reconcile = async () =>
        (
          (await t.app.inject({ method: 'POST', url: '/api/ops/chain/reconcile', headers: t.admin })).json()
            .results as { difference: string }[]
        )[0]!;
      const runs = await Promise.all([reconcile(), reconcile()]);
      runs.push(await reconcile());
      expect(runs.map((r) => r.difference)).toEqual(['0.10000000', '0.10000000', '0.10000000']);
      const alerts = (await t.app.inject({ url: '/api/ops/chain/alerts', headers: t.admin })).json().alerts as {
        kind: string;
        detail: { difference: string };
      }[];
      expect(alerts.filter((a) => a.kind === 'reconciliation')).toEqual([
        expect.objectContaining({ detail: expect.objectContaining({ difference: '0.10000000' }) }),
      ]);
    });
  });
});
