/**
 * @jest-environment node
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FEE_RATE_LIMITS, type NodeCurrency } from '#domain/chain';
import { decimalToMinor } from '#domain/money';
import { setChainNetwork } from '#domain/networks';
import { deriveAddress, TEST_XPUBS } from '../src/modules/chain/derive';
import { NodeError, type CoinNode } from '../src/modules/chain/rpc';
import { instructionMac } from '../src/modules/payouts/instruction';
import { Journal } from '../src/signer/journal';
import { houseSigners, TEST_MNEMONIC } from '../src/signer/keys';
import { createSigner } from '../src/signer/signer';
import type { HouseOutput } from '#domain/contracts/chain';
import type { Payout } from '#domain/contracts/payouts';

// Libraries made for each coin, which the signer does not use, check every transaction it signs.
/* eslint-disable @typescript-eslint/no-require-imports */
const doge = require('bitcore-lib-doge') as any;
const cash = require('bitcore-lib-cash') as any;
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Dogecoin and Bitcoin Cash have no node on this machine (issue 30: litecoind covers LTC), so the
 * signer runs here against a node that answers as Dogecoin Core 1.14 and Bitcoin Cash Node do
 * (no testmempoolaccept on Dogecoin), and every transaction it broadcasts is taken apart and its
 * signatures verified by bitcore-lib-doge and bitcore-lib-cash.
 */
setChainNetwork('mainnet');
const keys = houseSigners(TEST_MNEMONIC, TEST_XPUBS, ['DOGE', 'BCH']);
const macKey = randomBytes(32);

type House = HouseOutput & { script: string };

function fakeNode(
  currency: NodeCurrency,
  house: House[],
  options: { testMempoolAccept: boolean; feeRate: bigint | null },
) {
  const broadcast: string[] = [];
  const state = { refuseNext: false, mempool: new Set<string>() };
  const node: CoinNode = {
    currency,
    network: async () => 'mainnet',
    tip: async () => ({ height: 100, hash: '00'.repeat(32) }),
    blockHash: async () => null,
    block: async () => {
      throw new Error('not in this test');
    },
    async broadcast(hex) {
      if (state.refuseNext) {
        state.refuseNext = false;
        throw new NodeError(`${currency} node: mandatory-script-verify-flag-failed`, -26);
      }
      broadcast.push(hex);
      return 'ok';
    },
    mempoolAccept: async () => (options.testMempoolAccept ? { allowed: true, reason: null } : null),
    feeRate: async () => options.feeRate,
    txOut: async (txid, vout) => {
      const output = house.find((o) => o.txid === txid && o.vout === vout);
      return output ? { amount: decimalToMinor(output.amount, 8)!, scriptHex: output.script, confirmations: 50 } : null;
    },
    scanTotal: async () => null,
    async call<T>(method: string): Promise<T> {
      if (method === 'getmempoolentry') return {} as T;
      throw new NodeError(`Method not found`, -32601);
    },
  };
  return { node, broadcast, state };
}

/** A house output at users/index, paid by a made-up transaction, with the script bitcore writes for its address. */
function houseOutput(currency: 'DOGE' | 'BCH', index: number, amount: string): House {
  const address = deriveAddress(currency, TEST_XPUBS, index, 'users');
  const script =
    currency === 'DOGE'
      ? doge.Script.buildPublicKeyHashOut(doge.Address.fromString(address))
      : cash.Script.buildPublicKeyHashOut(cash.Address.fromString(address));
  return {
    txid: randomBytes(32).toString('hex'),
    vout: index % 3,
    address,
    amount,
    branch: 'users',
    index,
    script: script.toHex(),
  };
}

function payout(currency: string, destination: string, amount: string, networkFee: string): Payout {
  const id = randomUUID();
  const idempotencyKey = `payout:${id}`;
  const mac = instructionMac(macKey, {
    id,
    currency,
    destination,
    amount: decimalToMinor(amount, 8)!,
    networkFee: decimalToMinor(networkFee, 8)!,
    idempotencyKey,
  });
  return {
    id,
    rail: 'chain',
    purpose: 'send',
    status: 'submitted',
    currency,
    destination,
    reference: null,
    amount,
    networkFee,
    idempotencyKey,
    attempts: 0,
    txid: null,
    txids: [],
    chainFee: null,
    instructionMac: mac,
    failureReason: null,
    createdAt: new Date().toISOString(),
    submittedAt: new Date().toISOString(),
    completedAt: null,
    bankExportId: null,
    eurValue: null,
    triggeredBy: null,
    approval: null,
  } as Payout;
}

function setup(
  currency: 'DOGE' | 'BCH',
  house: House[],
  payouts: Payout[],
  options: { testMempoolAccept: boolean; feeRate: bigint | null },
) {
  const { node, broadcast, state } = fakeNode(currency, house, options);
  const reports: { id: string; body: { status: string; txid: string; fee: string; inputs: string[] } }[] = [];
  let changeIndex = 0;
  const api = {
    async get<T>(route: string): Promise<T> {
      if (route.startsWith('/api/ops/payouts?status=submitted'))
        return { payouts: payouts.filter((p) => p.status === 'submitted') } as T;
      if (route.startsWith('/api/ops/payouts?status=broadcast'))
        return { payouts: payouts.filter((p) => p.status === 'broadcast') } as T;
      if (route.startsWith('/api/ops/chain/outputs'))
        return {
          outputs: house.filter((o) => !reports.some((r) => r.body.inputs.includes(`${o.txid}:${o.vout}`))),
          handedOut: { users: 10, orders: 0, change: changeIndex },
        } as T;
      throw new Error(`unexpected GET ${route}`);
    },
    async post<T>(route: string, body: unknown): Promise<T> {
      if (route === '/api/ops/chain/change-address') {
        const index = changeIndex++;
        return { address: deriveAddress(currency, TEST_XPUBS, index, 'change'), index } as T;
      }
      const id = /\/api\/ops\/payouts\/([^/]+)\/result/.exec(route)?.[1];
      if (!id) throw new Error(`unexpected POST ${route}`);
      reports.push({ id, body: body as (typeof reports)[number]['body'] });
      const paid = payouts.find((p) => p.id === id)!;
      paid.status = 'broadcast';
      paid.txid = (body as { txid: string }).txid;
      return {} as T;
    },
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-signer-'));
  const journal = new Journal(path.join(dir, 'journal.jsonl'));
  let clock = Date.parse('2026-11-27T12:00:00Z');
  const signer = createSigner({
    api,
    nodes: new Map([[currency, node]]),
    keys,
    xpubs: TEST_XPUBS,
    journal,
    macKey,
    bumpAfterMs: 3_600_000,
    log: () => undefined,
    now: () => new Date(clock),
  });
  return { signer, broadcast, reports, state, journal, advance: (ms: number) => (clock += ms) };
}

/** Every input's signature verified by the coin's own library, against the output it spends. */
function verifyWith(lib: 'doge' | 'cash', hex: string, house: House[]) {
  const bitcore = lib === 'doge' ? doge : cash;
  const tx = new bitcore.Transaction(hex);
  const Interpreter = bitcore.Script.Interpreter;
  const spent: House[] = tx.inputs.map((input: { prevTxId: Buffer; outputIndex: number }) =>
    house.find((o) => o.txid === input.prevTxId.toString('hex') && o.vout === input.outputIndex)!,
  );
  const results = tx.inputs.map((input: { script: unknown }, i: number) => {
    const interpreter = new Interpreter();
    const script = new bitcore.Script(spent[i]!.script);
    const amount = decimalToMinor(spent[i]!.amount, 8)!;
    const ok =
      lib === 'doge'
        ? interpreter.verify(
            input.script,
            script,
            tx,
            i,
            Interpreter.SCRIPT_VERIFY_P2SH | Interpreter.SCRIPT_VERIFY_STRICTENC | Interpreter.SCRIPT_VERIFY_LOW_S,
          )
        : // (bitcore-lib-cash's SCRIPT_VERIFY_LOW_S strips the hash type twice: low S is checked below instead.)
          interpreter.verify(
            input.script,
            script,
            tx,
            i,
            Interpreter.SCRIPT_ENABLE_SIGHASH_FORKID | Interpreter.SCRIPT_VERIFY_STRICTENC,
            new bitcore.crypto.BN(amount.toString()),
          );
    const lowS = bitcore.crypto.Signature.fromTxFormat(
      (input.script as { chunks: { buf: Buffer }[] }).chunks[0]!.buf,
    ).hasLowS();
    return { input: i, ok: ok && lowS, error: interpreter.errstr ?? '' };
  });
  return { tx, spent, results };
}

const outputsOf = (lib: 'doge' | 'cash', tx: { outputs: { script: unknown; satoshis: number }[] }) =>
  tx.outputs.map((output) => {
    const address = (lib === 'doge' ? doge : cash).Address.fromScript(output.script, 'livenet');
    return [lib === 'doge' ? address.toString() : address.toCashAddress(), BigInt(output.satoshis)];
  });

describe('Dogecoin: legacy P2PKH, checked by bitcore-lib-doge', () => {
  const outsider = () => new doge.PrivateKey().toAddress('livenet').toString();

  it('pays two payouts in one transaction whose signatures bitcore-lib-doge verifies, with change to a fresh house address', async () => {
    const house = [houseOutput('DOGE', 0, '500'), houseOutput('DOGE', 4, '300')];
    const [to1, to2] = [outsider(), outsider()];
    const payouts = [payout('DOGE', to1, '420', '2'), payout('DOGE', to2, '150', '2')];
    const run = setup('DOGE', house, payouts, { testMempoolAccept: false, feeRate: 2_000n });
    expect(await run.signer.run()).toEqual({ paid: 2, reported: 0, refused: 0, bumped: 0 });
    expect(run.broadcast).toHaveLength(1);
    const { tx, results } = verifyWith('doge', run.broadcast[0]!, house);
    expect(results).toEqual([
      { input: 0, ok: true, error: '' },
      { input: 1, ok: true, error: '' },
    ]);
    const change = deriveAddress('DOGE', TEST_XPUBS, 0, 'change');
    const fee = 800_00000000n - 570_00000000n - BigInt(tx.outputs[2].satoshis);
    expect(outputsOf('doge', tx)).toEqual([
      [to1, 420_00000000n],
      [to2, 150_00000000n],
      [change, 800_00000000n - 570_00000000n - fee],
    ]);
    // The fee is the node's rate (koinu per byte) on the legacy size, above Dogecoin's relay floor.
    const size = run.broadcast[0]!.length / 2;
    expect(fee).toBeGreaterThanOrEqual(2_000n * BigInt(size));
    expect(fee).toBeLessThan(2_000n * BigInt(size + 10));
    expect(2_000n).toBeGreaterThanOrEqual(FEE_RATE_LIMITS.DOGE.floor);
    // Legacy: no witness, opt-in replace-by-fee, and the reports name the transaction bitcore hashed.
    expect(tx.hasWitnesses()).toBe(false);
    expect(tx.inputs.every((input: { sequenceNumber: number }) => input.sequenceNumber < 0xfffffffe)).toBe(true);
    expect(run.reports.map((r) => r.body.txid)).toEqual([tx.hash, tx.hash]);
    expect(run.reports.reduce((sum, r) => sum + decimalToMinor(r.body.fee, 8)!, 0n)).toBe(fee);
  });

  it('after the API’s database is restored to before a payout was broadcast, the journal reports its transaction again and pays nothing twice (issue 34)', async () => {
    const house = [houseOutput('DOGE', 5, '200'), houseOutput('DOGE', 6, '90')];
    const paid = payout('DOGE', outsider(), '120', '2');
    const payouts = [paid];
    const run = setup('DOGE', house, payouts, { testMempoolAccept: false, feeRate: 2_000n });
    expect(await run.signer.run()).toEqual({ paid: 1, reported: 0, refused: 0, bumped: 0 });
    const [signed] = run.broadcast;
    const txid = run.reports[0]!.body.txid;
    // The database goes back to a backup taken before: the payout is `submitted` again, with no
    // txid, and the output it spent is unspent again as far as the API knows. Meanwhile a new
    // payout was made after the restore.
    Object.assign(paid, { status: 'submitted', txid: null });
    run.reports.length = 0;
    const fresh = payout('DOGE', outsider(), '40', '2');
    payouts.push(fresh);
    expect(await run.signer.run()).toEqual({ paid: 1, reported: 1, refused: 0, bumped: 0 });
    // The restored payout: reported with the transaction that paid it, that same transaction sent again (a no-op on the network).
    expect(run.reports.filter((r) => r.id === paid.id).map((r) => r.body.txid)).toEqual([txid]);
    expect(run.broadcast[1]).toBe(signed);
    // The new one: a new transaction that spends none of what the first one spent.
    const second = verifyWith('doge', run.broadcast[2]!, house);
    const inputsOf = (hex: string) =>
      new doge.Transaction(hex).inputs.map(
        (i: { prevTxId: Buffer; outputIndex: number }) => `${i.prevTxId.toString('hex')}:${i.outputIndex}`,
      );
    expect(inputsOf(run.broadcast[2]!).some((input: string) => inputsOf(signed!).includes(input))).toBe(false);
    expect(second.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    expect(run.broadcast).toHaveLength(3);
    expect(new Journal(run.journal.file).forPayout(paid.idempotencyKey)!.txid).toBe(txid);
  });

  it('a transaction a node without testmempoolaccept refuses is struck from the journal, and the payouts are paid by the next run', async () => {
    const house = [houseOutput('DOGE', 1, '100')];
    const to = outsider();
    const payouts = [payout('DOGE', to, '40', '2')];
    const run = setup('DOGE', house, payouts, { testMempoolAccept: false, feeRate: null });
    run.state.refuseNext = true;
    expect(await run.signer.run()).toEqual({ paid: 0, reported: 0, refused: 0, bumped: 0 });
    expect(run.reports).toEqual([]);
    expect(run.journal.spentInputs('DOGE').size).toBe(0);
    // A restarted signer reads the void from the file too.
    expect(new Journal(run.journal.file).forPayout(payouts[0]!.idempotencyKey)).toBeUndefined();
    expect(await run.signer.run()).toEqual({ paid: 1, reported: 0, refused: 0, bumped: 0 });
    expect(run.broadcast).toHaveLength(1);
    const { tx, results } = verifyWith('doge', run.broadcast[0]!, house);
    expect(results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    // No estimate: Dogecoin's floor of 0.01 DOGE per kB.
    const fee =
      100_00000000n - tx.outputs.reduce((sum: bigint, o: { satoshis: number }) => sum + BigInt(o.satoshis), 0n);
    expect(fee).toBeGreaterThanOrEqual(FEE_RATE_LIMITS.DOGE.floor * BigInt(run.broadcast[0]!.length / 2));
  });

  it('replaces a transaction stuck past the bump time by one paying more, signed again and verified', async () => {
    const house = [houseOutput('DOGE', 2, '1000')];
    const to = outsider();
    const payouts = [payout('DOGE', to, '250', '2')];
    const run = setup('DOGE', house, payouts, { testMempoolAccept: false, feeRate: 1_000n });
    await run.signer.run();
    run.advance(2 * 3_600_000);
    expect(await run.signer.run()).toEqual({ paid: 0, reported: 0, refused: 0, bumped: 1 });
    expect(run.broadcast).toHaveLength(2);
    const [first, second] = run.broadcast.map((hex) => verifyWith('doge', hex, house));
    expect(second!.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    const feeOf = (tx: { outputs: { satoshis: number }[] }) =>
      1000_00000000n - tx.outputs.reduce((sum, o) => sum + BigInt(o.satoshis), 0n);
    expect(feeOf(second!.tx)).toBeGreaterThan(feeOf(first!.tx));
    // The same input and the same payment; only the change paid the higher fee.
    expect(second!.tx.inputs[0].prevTxId.toString('hex')).toBe(house[0]!.txid);
    expect(outputsOf('doge', second!.tx)[0]).toEqual([to, 250_00000000n]);
    expect(run.reports.at(-1)!.body.txid).toBe(second!.tx.hash);
  });
});

describe('Bitcoin Cash: SIGHASH_FORKID, checked by bitcore-lib-cash', () => {
  const outsider = () => new cash.PrivateKey().toAddress('livenet').toCashAddress();

  it('pays to CashAddr destinations in a transaction whose FORKID signatures bitcore-lib-cash verifies', async () => {
    const house = [houseOutput('BCH', 0, '0.5'), houseOutput('BCH', 7, '0.25')];
    const [to1, to2] = [outsider(), outsider()];
    const payouts = [payout('BCH', to1, '0.6', '0.0001'), payout('BCH', to2, '0.1', '0.0001')];
    const run = setup('BCH', house, payouts, { testMempoolAccept: true, feeRate: 3n });
    expect(await run.signer.run()).toEqual({ paid: 2, reported: 0, refused: 0, bumped: 0 });
    const { tx, results } = verifyWith('cash', run.broadcast[0]!, house);
    expect(results).toEqual([
      { input: 0, ok: true, error: '' },
      { input: 1, ok: true, error: '' },
    ]);
    // Every signature carries the fork id's hash type (0x41).
    for (const input of tx.inputs) expect(input.script.chunks[0].buf.at(-1)).toBe(0x41);
    const outputs = outputsOf('cash', tx);
    expect(outputs.slice(0, 2)).toEqual([
      [to1, 60_000_000n],
      [to2, 10_000_000n],
    ]);
    expect(outputs[2]![0]).toBe(deriveAddress('BCH', TEST_XPUBS, 0, 'change'));
    const fee = 75_000_000n - tx.outputs.reduce((sum: bigint, o: { satoshis: number }) => sum + BigInt(o.satoshis), 0n);
    expect(fee).toBeGreaterThanOrEqual(3n * BigInt(run.broadcast[0]!.length / 2));
    expect(run.reports.map((r) => r.body.txid)).toEqual([tx.hash, tx.hash]);
  });

  it('the signatures commit to the amounts spent: verified against another amount they fail', async () => {
    const house = [houseOutput('BCH', 3, '0.02')];
    const run = setup('BCH', house, [payout('BCH', outsider(), '0.01', '0.0001')], {
      testMempoolAccept: true,
      feeRate: 1n,
    });
    await run.signer.run();
    const tx = new cash.Transaction(run.broadcast[0]!);
    const verify = (satoshis: string) => {
      const interpreter = new cash.Script.Interpreter();
      const ok = interpreter.verify(
        tx.inputs[0].script,
        new cash.Script(house[0]!.script),
        tx,
        0,
        cash.Script.Interpreter.SCRIPT_ENABLE_SIGHASH_FORKID,
        new cash.crypto.BN(satoshis),
      );
      return ok ? 'valid' : interpreter.errstr;
    };
    expect(verify('2000000')).toBe('valid');
    expect(verify('2000001')).toBe('SCRIPT_ERR_EVAL_FALSE_IN_STACK');
  });

  it('is final (no replace-by-fee on Bitcoin Cash) and never bumped', async () => {
    const house = [houseOutput('BCH', 5, '1')];
    const run = setup('BCH', house, [payout('BCH', outsider(), '0.3', '0.0001')], {
      testMempoolAccept: true,
      feeRate: 1n,
    });
    await run.signer.run();
    const tx = new cash.Transaction(run.broadcast[0]!);
    expect(tx.inputs[0].sequenceNumber).toBe(0xffffffff);
    run.advance(24 * 3_600_000);
    expect((await run.signer.run()).bumped).toBe(0);
    expect(run.broadcast).toHaveLength(1);
  });

  it('refuses a payout whose destination is a house address, in its legacy spelling too', async () => {
    const house = [houseOutput('BCH', 6, '1')];
    const own = cash.Address.fromString(deriveAddress('BCH', TEST_XPUBS, 2, 'users')).toLegacyAddress();
    const run = setup('BCH', house, [payout('BCH', own, '0.3', '0.0001')], { testMempoolAccept: true, feeRate: 1n });
    expect(await run.signer.run()).toEqual({ paid: 0, reported: 0, refused: 1, bumped: 0 });
    expect(run.broadcast).toEqual([]);
  });
});
