/**
 * @jest-environment node
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Transaction as EthersTransaction, verifyMessage } from 'ethers';
import { setNetworkFee } from '#domain/fees';
import { setChainNetwork } from '#domain/networks';
import { simulatedChain } from '../src/dev/simulated-chain';
import { deriveAddress, TEST_XPUBS } from '../src/modules/chain/derive';
import { ethNode } from '../src/modules/chain/ethereum';
import { refreshNetworkFee } from '../src/modules/chain/fees';
import { confirmingAt } from '../src/modules/chain/service';
import { DEFAULT_WATCHER_SETTINGS, scanChain } from '../src/modules/chain/watcher';
import { publishSnapshot } from '../src/modules/liabilities/service';
import { sharedSignerKey } from '../src/modules/payouts/instruction';
import { Journal, type JournalEntry } from '../src/signer/journal';
import { TEST_MNEMONIC, houseSigners } from '../src/signer/keys';
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
import { REVERTER, deployCode, forwarder, startAnvil, type Anvil } from './anvil';
import type { ControlProof, Reserves } from '#domain/contracts/liabilities';

/**
 * Ether against a real EVM node (issue 31): anvil, the app on PGlite (and PostgreSQL with
 * TEST_DATABASE_URL), the deposit watcher and the signer driven run by run. Three confirmations.
 * Every transaction the signer signed is read back by ethers (an independent implementation):
 * its sender recovered from the signature is the house address the seed derives.
 */
const CONFIRMATIONS = 3;
const ETH = 10n ** 18n;
const GWEI = 10n ** 9n;
const HOT = deriveAddress('ETH', TEST_XPUBS, 0, 'change');

describe.each(databaseKinds())('ETH on a real anvil (%s)', (kind) => {
  let eth: Anvil;
  let t: TestApp;
  let journalFile: string;
  const rates = fixedRates();

  beforeAll(async () => {
    eth = await startAnvil();
    t = await testApp(
      kind,
      {
        CHAIN_NETWORK: 'regtest',
        CHAIN_RPC_URL_ETH: eth.url,
        CONFIRMATIONS_ETH: String(CONFIRMATIONS),
        CHAIN_POLL_MS: '0',
        RECONCILE_INTERVAL_MS: '0',
      },
      { rates },
    );
    journalFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-eth-signer-')), 'signer-journal.jsonl');
  }, 120_000);
  afterAll(async () => {
    setNetworkFee('ETH', null);
    await t?.close();
    await eth?.stop();
    setChainNetwork('mainnet');
  });

  const scan = () =>
    scanChain(t.app.db, eth.node, watcherHooks(rates, t.app.workers.payoutOutcomes), {
      ...DEFAULT_WATCHER_SETTINGS,
      confirmations: CONFIRMATIONS,
    });
  const api = signerApi(() => t);
  const logs: string[] = [];
  const signer = (options: { bumpAfterMs?: number; beforeReport?: () => Promise<void> } = {}) =>
    createSigner({
      api,
      nodes: new Map([['ETH', eth.node]]),
      keys: houseSigners(TEST_MNEMONIC, TEST_XPUBS, ['ETH']),
      xpubs: TEST_XPUBS,
      journal: new Journal(journalFile),
      macKey: sharedSignerKey(t.config),
      bumpAfterMs: options.bumpAfterMs ?? 3_600_000,
      log: (message) => {
        logs.push(message);
        if (process.env.SIGNER_LOG) console.log(message);
      },
      ...(options.beforeReport ? { beforeReport: options.beforeReport } : {}),
    });

  const wei = (decimal: string) => {
    const [whole, fraction = ''] = decimal.split('.');
    return BigInt(whole!) * ETH + BigInt(fraction.padEnd(18, '0'));
  };
  const balance = async (user: TestUser) => (await balanceOf(t, user.headers, 'ETH')) ?? '0.000000000000000000';
  type OutputRow = { txid: string; vout: number; status: string; amount: string };
  const outputsOf = async (txid: string) =>
    (
      (await t.app.db.execute(
        sql`select txid, vout, status, amount::text from chain_outputs where currency = 'ETH' and txid = ${txid} order by vout`,
      )) as unknown as { rows: OutputRow[] }
    ).rows;
  const receipt = (txid: string) =>
    eth.call<{ status: string; from: string; gasUsed: string; effectiveGasPrice: string } | null>(
      'eth_getTransactionReceipt',
      [txid],
    );
  async function deploy(runtime: string): Promise<string> {
    const txid = await eth.send({ data: deployCode(runtime), from: eth.accounts[1] });
    await eth.mine(1);
    return (await eth.call<{ contractAddress: string }>('eth_getTransactionReceipt', [txid])).contractAddress;
  }
  async function userWithDeposit(email: string, amount: string): Promise<TestUser> {
    const user = await testUser(t, email, { address: 'ETH' });
    await eth.send({ to: user.address, value: wei(amount) });
    await eth.mine(CONFIRMATIONS);
    await scan();
    return user;
  }
  async function sendOut(user: TestUser, address: string, amount: string): Promise<string> {
    await bookAddresses(t, user, [{ currency: 'ETH', address }]);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      headers: user.headers,
      payload: { currency: 'ETH', address, amount },
    });
    expect({ status: started.statusCode, body: started.statusCode === 201 ? '' : started.body }).toEqual({
      status: 201,
      body: '',
    });
    const id = started.json().id as string;
    expect((await confirmSendFromMail(t, user, id)).statusCode).toBe(200);
    return id;
  }
  type PayoutRow = {
    id: string;
    status: string;
    txid: string | null;
    txids: string[];
    chain_fee: string | null;
    failure_reason: string | null;
  };
  const payoutOfSend = async (sendId: string) =>
    (
      (await t.app.db.execute(
        sql`select id, status, txid, txids, chain_fee::text, failure_reason from payouts where send_id = ${sendId}`,
      )) as unknown as { rows: PayoutRow[] }
    ).rows[0]!;
  const journal = (file = journalFile) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalEntry)
      .filter((entry) => 'eth' in entry);
  const reconcile = async () =>
    (
      (await t.app.inject({ method: 'POST', url: '/api/ops/chain/reconcile', headers: t.admin })).json().results as {
        currency: string;
        onChain: string;
        expected: string;
        difference: string;
        ok: boolean;
      }[]
    )[0]!;

  it('refuses a node of another network at start-up, with a message naming both', async () => {
    await expect(
      testApp(kind, { CHAIN_NETWORK: 'testnet', CHAIN_RPC_URL_ETH: eth.url, CHAIN_POLL_MS: '0' }),
    ).rejects.toThrow('CHAIN_RPC_URL_ETH is a regtest node, but CHAIN_NETWORK is testnet');
    setChainNetwork('regtest');
  });

  it('the network fee charged follows the node’s base fee and tip (21,000 gas × the max fee), with the operator’s margin', async () => {
    const fee = (await refreshNetworkFee(eth.node, 20))!;
    const { baseFee, priorityFee } = await eth.node.fees();
    expect(fee).toBe((21_000n * (2n * baseFee + priorityFee) * 12_000n + 9_999n) / 10_000n);
  });

  it('a deposit is confirming n of N in wei, credited once at N confirmations', async () => {
    const user = await testUser(t, 'deposit@eth.test', { address: 'ETH' });
    expect(user.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const txid = await eth.send({ to: user.address, value: wei('1.5') + 1n });
    await eth.mine(1);
    await scan();
    expect(await confirmingAt(t.app.db, 'ETH', [user.address])).toEqual([
      { address: user.address, txid: `${txid}:0`, amount: wei('1.5') + 1n, confirmations: 1 },
    ]);
    const addresses = (await t.app.inject({ url: '/api/wallet/addresses', headers: user.headers })).json()
      .addresses as { address: string; incoming: unknown[] }[];
    expect(addresses.find((a) => a.address === user.address)!.incoming).toEqual([
      { txid: `${txid}:0`, amount: '1.500000000000000001', confirmations: 1, required: CONFIRMATIONS },
    ]);
    expect(await balance(user)).toBe('0.000000000000000000');
    await eth.mine(CONFIRMATIONS - 1);
    expect((await scan()).credited).toBe(1);
    expect(await balanceOf(t, user.headers, 'ETH')).toBe('1.500000000000000001');
    // The same blocks again (a second replica, a restart): nothing more.
    await t.app.db.execute(
      sql`delete from chain_blocks where currency = 'ETH' and height > (select max(height) - 3 from chain_blocks where currency = 'ETH')`,
    );
    await scan();
    expect(await balanceOf(t, user.headers, 'ETH')).toBe('1.500000000000000001');
  });

  it('a failed transaction is never credited, even when it moved ether to a deposit address before it reverted', async () => {
    const user = await testUser(t, 'failed@eth.test', { address: 'ETH' });
    const contract = await deploy(forwarder(user.address, true));
    const txid = await eth.send({ to: contract, value: wei('1'), gas: 100_000n });
    await eth.mine(CONFIRMATIONS);
    expect((await receipt(txid))!.status).toBe('0x0');
    await scan();
    expect(await outputsOf(txid)).toEqual([]);
    expect(await balance(user)).toBe('0.000000000000000000');
  });

  it('ether a contract forwards to a deposit address (an internal transfer, found in the node’s traces) is credited as txid:1', async () => {
    const user = await testUser(t, 'internal@eth.test', { address: 'ETH' });
    const contract = await deploy(forwarder(user.address));
    const txid = await eth.send({ to: contract, value: wei('0.7'), gas: 100_000n });
    await eth.mine(CONFIRMATIONS);
    expect((await receipt(txid))!.status).toBe('0x1');
    expect((await scan()).credited).toBe(1);
    expect(eth.node.traces).toBe(true);
    expect(await outputsOf(txid)).toEqual([
      expect.objectContaining({ vout: 1, status: 'credited', amount: wei('0.7').toString() }),
    ]);
    expect(await balanceOf(t, user.headers, 'ETH')).toBe('0.700000000000000000');
  });

  it('ether at a sell order’s address shows confirming n of N on the order’s page, and funds the order at N', async () => {
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'sell',
        currencyFrom: 'ETH',
        currencyTo: 'EUR',
        amount: '0.03',
        email: 'seller@eth.test',
        address: 'DE02120300000000202051',
        beneficiary: 'Ada Lovelace',
      },
    });
    expect({ status: placed.statusCode, body: placed.statusCode === 201 ? '' : placed.body }).toEqual({
      status: 201,
      body: '',
    });
    const { reference, receiving } = placed.json() as { reference: string; receiving: { address: string } };
    expect(receiving.address).toBe(deriveAddress('ETH', TEST_XPUBS, 0, 'orders'));
    await eth.send({ to: receiving.address, value: wei('0.03') });
    await eth.mine(1);
    await scan();
    const lookup = () =>
      t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload: { email: 'seller@eth.test', reference } });
    expect((await lookup()).json().receiving.incoming).toEqual([
      expect.objectContaining({ amount: '0.030000000000000000', confirmations: 1, required: CONFIRMATIONS }),
    ]);
    await eth.mine(CONFIRMATIONS - 1);
    await scan();
    expect((await lookup()).json().receiving.incoming).toBeUndefined();
    const order = (
      (await t.app.db.execute(
        sql`select status, amount_received::text as received from orders where reference = ${reference}`,
      )) as unknown as { rows: { status: string; received: string }[] }
    ).rows[0];
    expect(order).toEqual({ status: 'processing', received: wei('0.03').toString() });
  });

  it('a deposit whose block leaves the chain before N confirmations (anvil_reorg) is never credited', async () => {
    const user = await testUser(t, 'orphan@eth.test', { address: 'ETH' });
    const txid = await eth.send({ to: user.address, value: wei('2') });
    await eth.mine(1);
    await scan();
    // The block is replaced by one without the transaction.
    await eth.call('anvil_reorg', [1, []]);
    await eth.mine(CONFIRMATIONS + 1);
    const scanned = await scan();
    expect(scanned.reorgDepth).toBe(1);
    expect(await outputsOf(txid)).toEqual([expect.objectContaining({ status: 'orphaned' })]);
    expect(await balance(user)).toBe('0.000000000000000000');
  });

  it('a credited deposit whose block leaves the chain after N is booked back, with an operator alert', async () => {
    const user = await testUser(t, 'deep@eth.test', { address: 'ETH' });
    const txid = await eth.send({ to: user.address, value: wei('1') });
    await eth.mine(CONFIRMATIONS);
    await scan();
    expect(await balanceOf(t, user.headers, 'ETH')).toBe('1.000000000000000000');
    await eth.call('anvil_reorg', [CONFIRMATIONS, []]);
    await eth.mine(2);
    const scans = await Promise.all([scan(), scan()]);
    expect(scans.map((s) => s.reorgDepth)).toContain(CONFIRMATIONS);
    expect(await balanceOf(t, user.headers, 'ETH')).toBe('0.000000000000000000');
    const alerts = (await t.app.inject({ url: '/api/ops/chain/alerts', headers: t.admin })).json().alerts as {
      kind: string;
      detail: { txid: string };
    }[];
    expect(alerts).toEqual([
      expect.objectContaining({ kind: 'reorg_reversal', detail: expect.objectContaining({ txid: `${txid}:0` }) }),
    ]);
    await t.app.inject({
      method: 'POST',
      url: `/api/ops/chain/alerts/${(alerts[0] as unknown as { id: string }).id}/resolve`,
      headers: t.admin,
    });
  });

  describe('the signer', () => {
    let alice: TestUser;
    beforeAll(async () => {
      alice = await userWithDeposit('alice@eth.test', '5');
    });

    it('sweeps deposits to the hot address; the gas is the house’s, the ledger moves nothing between owners', async () => {
      const before = await balanceOf(t, alice.headers, 'ETH');
      await signer().run();
      const sweeps = journal().filter((entry) => entry.eth!.kind === 'sweep');
      expect(sweeps.map((entry) => entry.eth!.from)).toEqual(expect.arrayContaining([alice.address]));
      expect(sweeps.every((entry) => entry.eth!.to === HOT)).toBe(true);
      await eth.mine(1);
      await scan();
      expect(await eth.balance(HOT)).toBeGreaterThan(wei('4.99'));
      // What remains at alice's address is the part of the gas reserve the sweep did not burn.
      expect(await eth.balance(alice.address)).toBeLessThan(wei('0.001'));
      expect(await balanceOf(t, alice.headers, 'ETH')).toBe(before);
      // Swept: her deposit is no longer on the list the signer reads (it grows with what waits, not with every deposit).
      const listed = (await t.app.inject({ url: '/api/ops/chain/outputs?currency=ETH', headers: t.admin })).json()
        .outputs as { address: string }[];
      expect(listed.filter((o) => o.address === alice.address)).toEqual([]);
      await eth.mine(CONFIRMATIONS);
      await scan();
      expect(await reconcile()).toEqual(expect.objectContaining({ difference: '0.000000000000000000', ok: true }));
    });

    it('pays a payout in an EIP-1559 transaction from the hot address, confirmed after N; the real gas is booked', async () => {
      const to = eth.accounts[5]!;
      const before = await eth.balance(to);
      const sendId = await sendOut(alice, to, '0.1');
      expect(await payOut(t)).toBe(1);
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 1, refused: 0 }));
      const paid = await payoutOfSend(sendId);
      expect(paid.status).toBe('broadcast');
      await eth.mine(CONFIRMATIONS);
      expect((await scan()).payoutsCompleted).toBe(1);
      const done = await payoutOfSend(sendId);
      expect(done.status).toBe('completed');
      const mined = (await receipt(done.txid!))!;
      expect(mined.status).toBe('0x1');
      expect(BigInt(done.chain_fee!)).toBe(BigInt(mined.gasUsed) * BigInt(mined.effectiveGasPrice));
      expect((await eth.balance(to)) - before).toBe(wei('0.1'));
      expect(await reconcile()).toEqual(expect.objectContaining({ difference: '0.000000000000000000', ok: true }));
    });

    it('a payout to a contract that refuses plain transfers fails cleanly before signing, and the money goes back', async () => {
      const contract = await deploy(REVERTER);
      const before = await balanceOf(t, alice.headers, 'ETH');
      const sendId = await sendOut(alice, contract, '0.05');
      await payOut(t);
      expect(await balanceOf(t, alice.headers, 'ETH')).not.toBe(before);
      const nonce = await eth.call<string>('eth_getTransactionCount', [HOT, 'pending']);
      await signer().run();
      const failed = await payoutOfSend(sendId);
      expect(failed.status).toBe('failed');
      expect(failed.failure_reason).toMatch(/refuses a plain ether transfer/);
      expect(await eth.call<string>('eth_getTransactionCount', [HOT, 'pending'])).toBe(nonce);
      expect(await balanceOf(t, alice.headers, 'ETH')).toBe(before);
    });

    it('a payout whose transaction is mined with status 0 fails through the payout-failed path: the money back, the gas the house’s', async () => {
      // A contract that takes ether until a moment (TIMESTAMP < T), then reverts: the estimate passes, the mined transaction fails.
      const latest = await eth.call<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
      const deadline = Number(BigInt(latest.timestamp)) + 1_000;
      const contract = await deploy(`63${deadline.toString(16).padStart(8, '0')}4210600e57600080fd5b00`);
      const before = await balanceOf(t, alice.headers, 'ETH');
      const sendId = await sendOut(alice, contract, '0.02');
      await payOut(t);
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 1 }));
      const { txid } = await payoutOfSend(sendId);
      await eth.call('evm_setNextBlockTimestamp', [`0x${(deadline + 10).toString(16)}`]);
      await eth.mine(1);
      expect((await receipt(txid!))!.status).toBe('0x0');
      await scan();
      // Failed at the confirmations, when it would have completed (a reorg before then undoes nothing booked).
      expect((await payoutOfSend(sendId)).status).toBe('broadcast');
      expect(await reconcile()).toEqual(expect.objectContaining({ difference: '0.000000000000000000', ok: true }));
      await eth.mine(CONFIRMATIONS - 1);
      await scan();
      const failed = await payoutOfSend(sendId);
      expect(failed.status).toBe('failed');
      expect(failed.failure_reason).toMatch(/failed on chain/);
      expect(await balanceOf(t, alice.headers, 'ETH')).toBe(before);
      expect(await eth.balance(contract)).toBe(0n);
      expect(await reconcile()).toEqual(expect.objectContaining({ difference: '0.000000000000000000', ok: true }));
    });

    it('a transaction not mined through a fee spike is replaced with the same nonce and ≥ 10 % more on both fees, and completes', async () => {
      const to = eth.accounts[6]!;
      const sendId = await sendOut(alice, to, '0.04');
      await payOut(t);
      await signer().run();
      const first = await payoutOfSend(sendId);
      const old = journal().find((entry) => entry.txid === first.txid)!;
      // The base fee jumps above what the transaction offers: the next block leaves it out.
      await eth.call('anvil_setNextBlockBaseFeePerGas', [`0x${(BigInt(old.eth!.maxFeePerGas) * 20n).toString(16)}`]);
      await eth.mine(1);
      expect(await receipt(first.txid!)).toBeNull();
      expect(await signer({ bumpAfterMs: 0 }).run()).toEqual(expect.objectContaining({ bumped: 1 }));
      const after = await payoutOfSend(sendId);
      expect(after.txids).toEqual([first.txid, after.txid]);
      const replacement = journal().find((entry) => entry.txid === after.txid)!;
      expect(replacement.eth!.nonce).toBe(old.eth!.nonce);
      expect(BigInt(replacement.eth!.maxFeePerGas) * 10n).toBeGreaterThanOrEqual(BigInt(old.eth!.maxFeePerGas) * 11n);
      expect(BigInt(replacement.eth!.maxPriorityFeePerGas) * 10n).toBeGreaterThanOrEqual(
        BigInt(old.eth!.maxPriorityFeePerGas) * 11n,
      );
      await eth.mine(CONFIRMATIONS);
      await scan();
      expect((await receipt(after.txid!))!.status).toBe('0x1');
      expect(await receipt(first.txid!)).toBeNull();
      expect((await payoutOfSend(sendId)).status).toBe('completed');
    });

    it('a transaction the node dropped (anvil_dropTransaction) is sent again as it was', async () => {
      const to = eth.accounts[7]!;
      const before = await eth.balance(to);
      const sendId = await sendOut(alice, to, '0.03');
      await payOut(t);
      await signer().run();
      const { txid } = await payoutOfSend(sendId);
      await eth.call('anvil_dropTransaction', [txid]);
      expect(await eth.call('eth_getTransactionByHash', [txid])).toBeNull();
      await signer().run();
      expect(await eth.call('eth_getTransactionByHash', [txid])).not.toBeNull();
      await eth.mine(CONFIRMATIONS);
      await scan();
      expect(await payoutOfSend(sendId)).toEqual(expect.objectContaining({ status: 'completed', txid }));
      expect((await eth.balance(to)) - before).toBe(wei('0.03'));
    });

    it('killed between broadcasting and reporting, the signer reports the journal’s transaction after its restart and pays once', async () => {
      const to = eth.accounts[8]!;
      const before = await eth.balance(to);
      const sendId = await sendOut(alice, to, '0.02');
      await payOut(t);
      await expect(
        signer({
          beforeReport: async () => {
            throw new Error('killed');
          },
        }).run(),
      ).rejects.toThrow('killed');
      expect((await payoutOfSend(sendId)).status).toBe('submitted');
      const signed = journal().at(-1)!;
      // Mined, and its block scanned, before the signer is back.
      await eth.mine(1);
      await scan();
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 0, reported: 1 }));
      expect((await payoutOfSend(sendId)).txid).toBe(signed.txid);
      // The database comes back from a backup taken before the report: still the same transaction.
      await t.app.db.execute(
        sql`update payouts set status = 'submitted', txid = null, txids = '{}', chain_fee = null, confirmed_height = null where send_id = ${sendId}`,
      );
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 0, reported: 1 }));
      await eth.mine(CONFIRMATIONS);
      await scan();
      expect((await payoutOfSend(sendId)).status).toBe('completed');
      expect((await eth.balance(to)) - before).toBe(wei('0.02'));
      expect(journal().filter((entry) => entry.payouts.some((p) => p.id === signed.payouts[0]!.id))).toHaveLength(1);
    });

    it('killed between its journal and the broadcast, the signer sends the journaled transaction after its restart, once', async () => {
      const to = eth.accounts[9]!;
      const before = await eth.balance(to);
      const sendId = await sendOut(alice, to, '0.01');
      await payOut(t);
      const node = eth.node;
      const dying = { ...node, broadcast: async () => Promise.reject(new Error('killed')) } as typeof node;
      await expect(
        createSigner({
          api,
          nodes: new Map([['ETH', dying]]),
          keys: houseSigners(TEST_MNEMONIC, TEST_XPUBS, ['ETH']),
          xpubs: TEST_XPUBS,
          journal: new Journal(journalFile),
          macKey: sharedSignerKey(t.config),
          bumpAfterMs: 3_600_000,
          log: () => undefined,
        }).run(),
      ).rejects.toThrow('killed');
      const signed = journal().at(-1)!;
      expect(await eth.call('eth_getTransactionByHash', [signed.txid])).toBeNull();
      expect(await signer().run()).toEqual(expect.objectContaining({ paid: 0, reported: 1 }));
      expect(await eth.call('eth_getTransactionByHash', [signed.txid])).not.toBeNull();
      await eth.mine(CONFIRMATIONS);
      await scan();
      expect(await payoutOfSend(sendId)).toEqual(expect.objectContaining({ status: 'completed', txid: signed.txid }));
      expect((await eth.balance(to)) - before).toBe(wei('0.01'));
    });

    it('the signer as its own process (npm run signer), SIGKILLed between broadcasting and reporting, pays once after its restart', async () => {
      const to = eth.accounts[4]!;
      const before = await eth.balance(to);
      const sendId = await sendOut(alice, to, '0.01');
      await payOut(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const env = {
        ...process.env,
        ENV_FILE: path.join(__dirname, '../../__tests__/support/empty.env'),
        CHAIN_NETWORK: 'regtest',
        CHAIN_RPC_URL_ETH: eth.url,
        OPS_URL: `http://127.0.0.1:${port}`,
        OPS_TOKEN: t.admin.authorization!.replace('Bearer ', ''),
        // The server's: the key it shares with the signer is kept there. The process keeps its journal there too.
        DATA_DIR: t.config.DATA_DIR,
        SIGNER_POLL_MS: '200',
      };
      const signerProcess = (extra: Record<string, string>) =>
        spawn(process.execPath, ['--import', 'tsx', 'server/src/signer/main.ts'], {
          cwd: path.join(__dirname, '../..'),
          env: { ...env, ...extra },
          stdio: 'ignore',
        });
      const dying = signerProcess({ SIGNER_DIE_BEFORE_REPORT: '1' });
      expect(await new Promise<number | null>((resolve) => dying.once('exit', resolve))).toBe(137);
      expect((await payoutOfSend(sendId)).status).toBe('submitted');
      const processJournal = () => journal(path.join(t.config.DATA_DIR, 'signer-journal.jsonl'));
      const signed = processJournal().at(-1)!;
      const restarted = signerProcess({});
      try {
        for (let i = 0; i < 100 && (await payoutOfSend(sendId)).status !== 'broadcast'; i++)
          await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        restarted.kill('SIGTERM');
        await new Promise((resolve) => restarted.once('exit', resolve));
      }
      expect(await payoutOfSend(sendId)).toEqual(expect.objectContaining({ status: 'broadcast', txid: signed.txid }));
      await eth.mine(CONFIRMATIONS);
      await scan();
      expect((await payoutOfSend(sendId)).status).toBe('completed');
      expect((await eth.balance(to)) - before).toBe(wei('0.01'));
      expect(
        processJournal().filter((entry) => entry.payouts.some((p) => p.id === signed.payouts[0]!.id)),
      ).toHaveLength(1);
      for (const entry of processJournal()) expect(EthersTransaction.from(entry.hex).from).toBe(entry.eth!.from);
    });

    it('an address holding less than its sweep’s gas reserve is funded from the hot address first, then swept', async () => {
      const bob = await userWithDeposit('bob@eth.test', '0.002');
      expect(await balanceOf(t, bob.headers, 'ETH')).toBe('0.002000000000000000');
      // 50 gwei: the reserve (21,000 × (2 × 50 + 1) gwei) is more than 0.002, the sweep's cost (21,000 × 51 gwei) less.
      await eth.call('anvil_setNextBlockBaseFeePerGas', [`0x${(50n * GWEI).toString(16)}`]);
      await signer().run();
      const fund = journal().find((entry) => entry.eth!.kind === 'fund' && entry.eth!.to === bob.address)!;
      expect(fund.eth!.from).toBe(HOT);
      await eth.mine(1);
      await signer().run();
      const sweep = journal().find((entry) => entry.eth!.kind === 'sweep' && entry.eth!.from === bob.address)!;
      expect(BigInt(sweep.eth!.value)).toBeGreaterThanOrEqual(wei('0.002'));
      await eth.mine(CONFIRMATIONS);
      await scan();
      expect((await receipt(sweep.txid))!.status).toBe('0x1');
      expect(await balanceOf(t, bob.headers, 'ETH')).toBe('0.002000000000000000');
      expect(await reconcile()).toEqual(expect.objectContaining({ difference: '0.000000000000000000', ok: true }));
    });

    it('every transaction the signer signed is EIP-1559, from the address the seed derives, as ethers reads it', async () => {
      const entries = journal();
      expect(entries.length).toBeGreaterThan(5);
      for (const entry of entries) {
        const tx = EthersTransaction.from(entry.hex);
        expect({ type: tx.type, from: tx.from, hash: tx.hash, nonce: tx.nonce, chainId: tx.chainId }).toEqual({
          type: 2,
          from: entry.eth!.from,
          hash: entry.txid,
          nonce: Number(entry.eth!.nonce),
          chainId: 31337n,
        });
        expect(entry.eth!.from).toBe(deriveAddress('ETH', TEST_XPUBS, entry.eth!.path.index, entry.eth!.path.branch));
      }
      // One nonce, one transaction, but for replacements of it; and the node mined exactly one of each nonce's.
      await eth.mine(1);
      const byNonce = new Map<string, JournalEntry[]>();
      for (const entry of entries)
        byNonce.set(`${entry.eth!.from}:${entry.eth!.nonce}`, [
          ...(byNonce.get(`${entry.eth!.from}:${entry.eth!.nonce}`) ?? []),
          entry,
        ]);
      for (const group of byNonce.values()) {
        group.slice(1).forEach((entry, i) => expect(entry.replaces).toBe(group[i]!.txid));
        const mined = [];
        for (const entry of group) if (await receipt(entry.txid)) mined.push(entry.txid);
        expect(mined).toHaveLength(1);
      }
    });

    it('a snapshot of the watcher’s view lists the hot address, and sign-reserves proves control of it as ethers checks it', async () => {
      await eth.mine(CONFIRMATIONS);
      await scan();
      // The reserves as a deployment with real nodes reads them (the watcher's tables), not the simulated chain's balances.
      const published = (await publishSnapshot(
        t.app.db,
        { chain: { ...simulatedChain(), balances: async () => null }, xpubs: TEST_XPUBS },
        { actor: 'operator' },
      ))!;
      const file = (await t.app.inject({ url: `/proof/${published.snapshotId}.json` })).json() as {
        reserves: Reserves;
      };
      const listed = file.reserves.currencies.find((c) => c.currency === 'ETH')!.addresses!;
      expect(listed).toEqual([expect.objectContaining({ address: HOT, role: 'change' })]);
      // The operator's command, as its own process against the API over HTTP: `npm run signer -- sign-reserves <id>`.
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const command = spawn(
        process.execPath,
        ['--import', 'tsx', 'server/src/signer/main.ts', 'sign-reserves', String(published.snapshotId)],
        {
          cwd: path.join(__dirname, '../..'),
          env: {
            ...process.env,
            ENV_FILE: path.join(__dirname, '../../__tests__/support/empty.env'),
            CHAIN_NETWORK: 'regtest',
            OPS_URL: `http://127.0.0.1:${port}`,
            OPS_TOKEN: t.admin.authorization!.replace('Bearer ', ''),
            DATA_DIR: t.config.DATA_DIR,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      command.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      command.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      expect(await new Promise<number | null>((resolve) => command.once('exit', resolve))).toBe(0);
      // The XRP account and the hot address; counts only, no signature.
      expect(output.trim()).toBe(
        `signer: snapshot ${published.snapshotId}: 2 signed, 0 refused; 2 of 2 house address(es) proven`,
      );
      const { proofs } = (await t.app.inject({ url: `/api/liabilities/${published.snapshotId}/control` })).json() as {
        proofs: ControlProof[];
      };
      const hot = proofs.find((p) => p.address === HOT)!;
      expect(hot.message).toContain(published.digest!);
      expect(verifyMessage(hot.message, hot.signature)).toBe(HOT);
    });

    it('reconciles: the balances of the house’s addresses are what the ledger says; ether behind Muntly’s back is one alert', async () => {
      await eth.mine(1);
      await scan();
      expect(await reconcile()).toEqual(
        expect.objectContaining({ currency: 'ETH', difference: '0.000000000000000000', ok: true }),
      );
      await eth.send({ to: HOT, value: wei('0.1') });
      await eth.mine(1);
      await scan();
      expect(await reconcile()).toEqual(expect.objectContaining({ difference: '0.100000000000000000', ok: false }));
      const alerts = (await t.app.inject({ url: '/api/ops/chain/alerts', headers: t.admin })).json().alerts as {
        kind: string;
      }[];
      expect(alerts.filter((a) => a.kind === 'reconciliation')).toHaveLength(1);
    });

    it('a node without call traces is found out once and warned about; a contract’s transfer is then not credited, and reconciliation shows it', async () => {
      const user = await testUser(t, 'no-traces@eth.test', { address: 'ETH' });
      const contract = await deploy(forwarder(user.address));
      await scan();
      const before = BigInt((await reconcile()).difference.replace('.', ''));
      const warnings: string[] = [];
      // The same node, answering debug_traceBlockByHash as a node without the debug namespace does.
      const noTraces = ethNode(eth.url, {
        warn: (message) => warnings.push(message),
        fetch: async (input, init) => {
          const body = JSON.parse(String(init!.body)) as { id: number; method: string };
          if (body.method === 'debug_traceBlockByHash')
            return new Response(
              JSON.stringify({
                jsonrpc: '2.0',
                id: body.id,
                error: { code: -32601, message: 'the method debug_traceBlockByHash does not exist/is not available' },
              }),
            );
          return fetch(input, init);
        },
      });
      await eth.send({ to: contract, value: wei('0.3'), gas: 100_000n });
      await eth.send({ to: user.address, value: wei('0.01') });
      await eth.mine(CONFIRMATIONS);
      await scanChain(t.app.db, noTraces, watcherHooks(rates, t.app.workers.payoutOutcomes), {
        ...DEFAULT_WATCHER_SETTINGS,
        confirmations: CONFIRMATIONS,
      });
      expect(noTraces.traces).toBe(false);
      expect(warnings).toHaveLength(1);
      // The plain transfer is credited; the contract's is not seen.
      expect(await balanceOf(t, user.headers, 'ETH')).toBe('0.010000000000000000');
      expect(BigInt((await reconcile()).difference.replace('.', '')) - before).toBe(wei('0.3'));
    });
  });
});
