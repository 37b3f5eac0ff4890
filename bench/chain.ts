/**
 * `npm run bench:chain`: the deposit watcher against a real node (litecoind -regtest): 100 blocks
 * of many transactions each (BENCH_CHAIN_TXS per block, 50 by default, each paying four outside
 * addresses), of which BENCH_CHAIN_DEPOSITS per block (2) also pay a user's house address, as on a
 * real chain where few of a block's transactions are the exchange's. Scanned and their deposits
 * credited (one confirmation, so every deposit is booked in the measured run), next to the node's
 * own rate of serving the same blocks (`getblockhash` + `getblock <hash> 2`, read whole over the
 * same HTTP) in the same run. Goal: the watcher at least half as fast as the node (ratio ≥ 0.5).
 * Then the cost of a deposit alone: a block of BENCH_CHAIN_TXS deposits, credited.
 *
 * Runs on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; it creates and drops its own database).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { p2wpkh, Transaction } from '@scure/btc-signer';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { bitcoinLikeNetwork, setChainNetwork } from '#domain/networks';
import { startLitecoind } from '../server/chain/litecoind';
import { openDatabase } from '../server/src/db/client';
import { TEST_XPUBS, deriveAddress } from '../server/src/modules/chain/derive';
import { DEFAULT_WATCHER_SETTINGS, scanChain } from '../server/src/modules/chain/watcher';
import { verifyLedger } from '../server/src/modules/ledger/service';
import { watcherHooks } from '../server/src/workers';
import { record } from './support';
import type { PayoutOutcomes } from '../server/src/modules/payouts/service';

/** The target: the watcher scans at least this share of the blocks per second the node serves. */
const TARGET_RATIO = 0.5;

const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BLOCKS = 100;
const TXS = Number(process.env.BENCH_CHAIN_TXS || 50);
const DEPOSITS = Number(process.env.BENCH_CHAIN_DEPOSITS || 2);
const USERS = 400;
const rates = { current: async () => ({ at: 'now', rates: { LTC: '90' } }) };

async function main() {
  setChainNetwork('regtest');
  const ltc = await startLitecoind();
  const name = `muntly_bench_chain_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  try {
    await database.migrate();
    // Users with an LTC reception address each, in bulk: what the watcher matches outputs against.
    const addresses = Array.from({ length: USERS }, (_, i) => deriveAddress('LTC', TEST_XPUBS, i, 'users'));
    await database.db.execute(sql`
      insert into accounts (issuer, subject, account_key, deposit_limit_eur_minor)
      select 'bench', 'user-' || g, 'BENCH' || g, 10000 from generate_series(0, ${USERS - 1}) g`);
    for (let i = 0; i < USERS; i++) {
      await database.db.execute(sql`
        insert into reception_addresses (owner_id, currency, derivation_index, address)
        select id, 'LTC', ${i}, ${addresses[i]} from accounts where subject = ${`user-${i}`}`);
      await database.db.execute(
        sql`insert into house_addresses (address, currency, branch, derivation_index) values (${addresses[i]}, 'LTC', 'users', ${i})`,
      );
    }

    // Coins for the payer: mature coinbases, then the blocks to measure.
    await ltc.mine(200);
    const outside = await Promise.all(Array.from({ length: 8 }, () => ltc.wallet<string>('getnewaddress')));
    // The watcher starts at the tip before the measured blocks (nothing else is in them).
    const hooks = watcherHooks(rates, {} as PayoutOutcomes);
    const settings = { ...DEFAULT_WATCHER_SETTINGS, rescanBlocks: 0, batch: 1000, confirmations: 1 };
    // The payer signs its own transactions here (a wallet's sendmany is far too slow for thousands):
    // a key of its own, funded, fanned out into one output per transaction to come.
    const payer = secp256k1.utils.randomSecretKey();
    const payerScript = p2wpkh(secp256k1.getPublicKey(payer, true), bitcoinLikeNetwork('LTC'));
    const UNIT = 1_000_000n; // 0.01 LTC per transaction to come
    const needed = BLOCKS * TXS + TXS;
    const coins: { txid: string; vout: number; amount: bigint }[] = [];
    for (let batch = 0; batch * 200 < needed; batch++) {
      const count = Math.min(200, needed - batch * 200);
      const funding = await ltc.wallet<string>('sendtoaddress', [
        payerScript.address!,
        minorToDecimal(UNIT * BigInt(count) + 100_000n, 8),
      ]);
      const raw = await ltc.node.call<{ vout: { value: string; n: string; scriptPubKey: { hex: string } }[] }>(
        'getrawtransaction',
        [funding, true],
      );
      const out = raw.vout.find((o) => o.scriptPubKey.hex === Buffer.from(payerScript.script).toString('hex'))!;
      const fan = new Transaction();
      fan.addInput({
        txid: funding,
        index: Number(out.n),
        witnessUtxo: { script: payerScript.script, amount: decimalToMinor(out.value, 8)! },
      });
      for (let i = 0; i < count; i++) fan.addOutputAddress(payerScript.address!, UNIT, bitcoinLikeNetwork('LTC'));
      fan.sign(payer);
      fan.finalize();
      const fanTxid = await ltc.node.broadcast(fan.hex);
      for (let i = 0; i < count; i++) coins.push({ txid: fanTxid, vout: i, amount: UNIT });
    }
    await ltc.mine(1);
    await scanChain(database.db, ltc.node, hooks, settings);
    const first = (await ltc.node.tip()).height + 1;
    process.stdout.write(`building ${BLOCKS} blocks of ${TXS} transactions…`);
    let deposits = 0;
    /** One transaction of the payer's: a coin to four outside addresses and, if given, a house address. */
    const payerTx = (coin: (typeof coins)[number], house: string[]) => {
      const tx = new Transaction();
      tx.addInput({
        txid: coin.txid,
        index: coin.vout,
        witnessUtxo: { script: payerScript.script, amount: coin.amount },
      });
      for (const address of house) tx.addOutputAddress(address, 100_000n, bitcoinLikeNetwork('LTC'));
      for (let o = 0; o < 4; o++) tx.addOutputAddress(outside[o]!, 100_000n, bitcoinLikeNetwork('LTC'));
      tx.sign(payer);
      tx.finalize();
      return tx.hex;
    };
    let next = 0;
    for (let b = 0; b < BLOCKS; b++) {
      for (let t = 0; t < TXS; t++) {
        const house = t < DEPOSITS ? [addresses[deposits++ % USERS]!] : [];
        await ltc.node.broadcast(payerTx(coins[next++]!, house));
      }
      await ltc.mine(1);
    }
    const last = first + BLOCKS - 1;
    console.log(' done');

    // The node's own rate: the same blocks, hash then block with its transactions, read whole.
    const auth = `Basic ${Buffer.from('muntly:regtest').toString('base64')}`;
    const endpoint = ltc.url.replace('muntly:regtest@', '');
    const raw = async (method: string, params: unknown[]) => {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 1, method, params }),
      });
      return response.text();
    };
    const nodeStart = performance.now();
    for (let h = first; h <= last; h++) {
      const hash = (JSON.parse(await raw('getblockhash', [h])) as { result: string }).result;
      await raw('getblock', [hash, 2]);
    }
    const nodeSeconds = (performance.now() - nodeStart) / 1000;

    const start = performance.now();
    let scanned = 0;
    let credited = 0;
    while (scanned < BLOCKS) {
      const run = await scanChain(database.db, ltc.node, hooks, settings);
      scanned += run.scanned;
      credited += run.credited;
      if (run.scanned === 0) break;
    }
    const watcherSeconds = (performance.now() - start) / 1000;
    const broken = (await verifyLedger(database.db)).filter((check) => !check.ok);
    if (broken.length) throw new Error(`ledger invariants broken: ${broken.map((c) => c.name).join(', ')}`);
    if (credited !== deposits) throw new Error(`credited ${credited} of ${deposits} deposits`);

    // A deposit's own cost: one block of deposits only (two house outputs per transaction).
    for (let t = 0; t < TXS; t++)
      await ltc.node.broadcast(payerTx(coins[next++]!, [addresses[(2 * t) % USERS]!, addresses[(2 * t + 1) % USERS]!]));
    await ltc.mine(1);
    const depositStart = performance.now();
    const depositRun = await scanChain(database.db, ltc.node, hooks, settings);
    const depositSeconds = (performance.now() - depositStart) / 1000;
    if (depositRun.credited !== 2 * TXS) throw new Error(`credited ${depositRun.credited} of ${2 * TXS} deposits`);

    const nodeRate = BLOCKS / nodeSeconds;
    const blockRate = scanned / watcherSeconds;
    const ratio = blockRate / nodeRate;
    console.log(`\nbench:chain — ${os.cpus().length} cores, litecoind -regtest, PostgreSQL`);
    console.log(
      `  ${BLOCKS} blocks, ${TXS} transactions each (${BLOCKS * TXS} in all), ${deposits} of them deposits to ${USERS} users`,
    );
    console.log(`  node serves them:            ${nodeRate.toFixed(1)} blocks/s (getblockhash + getblock 2)`);
    console.log(`  watcher scans and credits:   ${blockRate.toFixed(1)} blocks/s (${credited} deposits credited)`);
    console.log(`  ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO})`);
    console.log(
      `  a block of ${2 * TXS} deposits only: ${(depositRun.credited / depositSeconds).toFixed(0)} deposits credited/s`,
    );
    record([
      {
        benchmark: 'bench:chain',
        figure: `blocks scanned/s (${TXS} txs each, deposits credited)`,
        value: blockRate.toFixed(1),
        reference: `${nodeRate.toFixed(1)} blocks/s served by the node`,
        ratio,
        target: `≥ ${TARGET_RATIO}`,
        met: ratio >= TARGET_RATIO,
      },
      {
        benchmark: 'bench:chain',
        figure: `deposits credited/s (a block of ${2 * TXS} deposits)`,
        value: (depositRun.credited / depositSeconds).toFixed(0),
      },
    ]);
  } finally {
    await database.close().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await ltc.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
