import { Transaction } from '@scure/btc-signer';
import { normalizeAddress } from '#domain/addresses';
import { boundedFeeRate, SIGNER_LIMITS, type HouseBranch, type NodeCurrency, type UtxoCurrency } from '#domain/chain';
import { knownDecimals } from '#domain/currencies';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { deriveAddress, type Xpubs } from '../modules/chain/derive';
import { isEthNode } from '../modules/chain/ethereum';
import { NodeError } from '../modules/chain/rpc';
import { instructionMacValid } from '../modules/payouts/instruction';
import { coinRules, type PayTo, type SignedTx } from './coins';
import { etherSigner } from './ether';
import type { ChangeAddressResponse, HouseOutput, HouseOutputsResponse } from '#domain/contracts/chain';
import type { Payout, PayoutsResponse } from '#domain/contracts/payouts';
import type { CoinNode } from '../modules/chain/rpc';
import type { Journal, JournalEntry } from './journal';
import type { HouseSigner } from './keys';

/**
 * The signer (issue 30; `npm run signer`): a process of its own that holds the house's private
 * keys, which the API never does. Each run, per currency with a node:
 * 1. payouts the journal already paid (the signer died before reporting, or the database came back
 *    from an older backup) are reported with the journal's transaction, broadcast again;
 * 2. every other submitted chain payout is checked against the signer's own policy: its MAC under
 *    the key only the API and the signer share, a valid address of the network that is not the
 *    house's own, the per-payout and the daily limit of the currency;
 * 3. the payouts that pass are paid in one transaction (PSBT, signed here): house outputs chosen
 *    largest first, each checked with the node (unspent, the amount and script the API said, a key
 *    this seed derives), the fee rate from the node's estimate between a floor and a cap, change to
 *    a fresh house change address. The node must accept it (testmempoolaccept); it is written to the
 *    journal, broadcast, and reported (txid, each payout's share of the fee, the inputs spent);
 * 4. a transaction unconfirmed for SIGNER_BUMP_AFTER_MINUTES is replaced by fee (BIP125: same inputs
 *    and payouts, a higher fee out of its change), and the new txid reported.
 * Each coin's scripts, sizes and signatures are in coins.ts (P2WPKH for BTC and LTC, legacy P2PKH
 * for DOGE, SIGHASH_FORKID for BCH, which is never replaced by fee).
 * Ether (issue 31) shares steps 1 and 2 (the journal's payouts reported again, the same policy);
 * paying, sweeping, nonces and replacement are an account chain's, in ether.ts.
 */
export type SignerApi = {
  get<T>(route: string): Promise<T>;
  post<T>(route: string, body: unknown): Promise<T>;
};

export type SignerDeps = {
  api: SignerApi;
  nodes: Map<NodeCurrency, CoinNode>;
  keys: Map<NodeCurrency, HouseSigner>;
  xpubs: Xpubs;
  journal: Journal;
  macKey: Uint8Array;
  bumpAfterMs: number;
  /** ETH_MAX_FEE_GWEI in wei per gas (default 200 gwei). */
  ethMaxFeeWei?: bigint;
  log: (message: string) => void;
  /** Tests and the crash suite: runs between the broadcast and the report (a kill there). */
  beforeReport?: () => Promise<void>;
  now?: () => Date;
};

export type SignerRun = { reported: number; paid: number; refused: number; bumped: number };

/** sendrawtransaction's answers for a transaction the node refused: it was never relayed. */
const REJECTED = new Set([-25, -26]);

export function createSigner(deps: SignerDeps) {
  const now = deps.now ?? (() => new Date());
  let ether: ReturnType<typeof etherSigner> | null = null;
  const etherOf = (node: CoinNode) => {
    if (!isEthNode(node)) throw new Error('CHAIN_RPC_URL_ETH is not an Ethereum node');
    ether ??= etherSigner({
      api: deps.api,
      node,
      keys: deps.keys.get('ETH')!,
      xpubs: deps.xpubs,
      journal: deps.journal,
      maxFeeWei: deps.ethMaxFeeWei ?? 200_000_000_000n,
      bumpAfterMs: deps.bumpAfterMs,
      log: deps.log,
      ...(deps.beforeReport ? { beforeReport: deps.beforeReport } : {}),
      now,
    });
    return ether;
  };
  const houseAddressCache = new Map<string, { users: number; orders: number; change: number; set: Set<string> }>();

  async function run(): Promise<SignerRun> {
    const result: SignerRun = { reported: 0, paid: 0, refused: 0, bumped: 0 };
    const { payouts } = await deps.api.get<PayoutsResponse>('/api/ops/payouts?status=submitted&rail=chain&limit=500');
    for (const [currency, node] of deps.nodes) {
      const mine = payouts.filter((payout) => payout.currency === currency);
      const fresh: Payout[] = [];
      for (const payout of mine) {
        const entry = deps.journal.forPayout(payout.idempotencyKey);
        if (entry) {
          await rebroadcast(node, entry);
          await report(entry, [payout]);
          result.reported++;
        } else fresh.push(payout);
      }
      // The payouts the signer's own policy lets through (each refusal logged and counted).
      const allowed = (payouts: Payout[], houses: HouseOutputsResponse) =>
        payouts.filter((payout) => {
          const refusal = refusalOf(currency, payout, houses);
          if (refusal) {
            deps.log(`signer: payout ${payout.id} refused: ${refusal}`);
            result.refused++;
          }
          return !refusal;
        });
      if (currency === 'ETH') {
        // Ether is an account chain: its own payouts, sweeps and nonces (ether.ts).
        const ether = etherOf(node);
        const houses = await deps.api.get<HouseOutputsResponse>('/api/ops/chain/outputs?currency=ETH');
        const due = allowed(fresh, houses);
        if (due.length > 0) result.paid += await ether.pay(due, houses);
        const broadcast = await deps.api.get<PayoutsResponse>('/api/ops/payouts?status=broadcast&rail=chain&limit=500');
        result.bumped += await ether.maintain(broadcast.payouts.filter((p) => p.currency === 'ETH'));
        await ether.sweep(houses);
        continue;
      }
      if (fresh.length > 0) {
        const houses = await deps.api.get<HouseOutputsResponse>(`/api/ops/chain/outputs?currency=${currency}`);
        const due = allowed(fresh, houses);
        if (due.length > 0 && (await pay(currency, node, due, houses))) result.paid += due.length;
      }
      result.bumped += await bumpStuck(currency, node);
    }
    return result;
  }

  /** Why the signer will not pay this payout (null: it will). */
  function refusalOf(currency: NodeCurrency, payout: Payout, houses: HouseOutputsResponse): string | null {
    const decimals = knownDecimals(currency);
    const amount = decimalToMinor(payout.amount, decimals);
    const networkFee = decimalToMinor(payout.networkFee, decimals);
    if (amount === null || networkFee === null || amount <= 0n) return 'no valid amount';
    const macFields = {
      id: payout.id,
      currency: payout.currency,
      destination: payout.destination,
      amount,
      networkFee,
      idempotencyKey: payout.idempotencyKey,
    };
    if (!instructionMacValid(deps.macKey, macFields, payout.instructionMac))
      return 'the instruction is not authenticated by the shared key';
    const destination = payout.destination ? normalizeAddress(currency, payout.destination) : null;
    if (!destination) return 'the destination is not an address of this network';
    if (houseAddresses(currency, houses).has(destination)) return 'the destination is a house address';
    const limits = SIGNER_LIMITS[currency];
    if (amount > limits.perPayout)
      return `above the per-payout limit of ${minorToDecimal(limits.perPayout, decimals)} ${currency}`;
    const dayStart = new Date(now().getTime() - 86_400_000);
    if (deps.journal.paidSince(currency, dayStart) + amount > limits.daily)
      return `above the daily limit of ${minorToDecimal(limits.daily, decimals)} ${currency}`;
    return null;
  }

  /** Every address the house handed out (and a margin), derived here: a payout to one of them is refused. */
  function houseAddresses(currency: NodeCurrency, houses: HouseOutputsResponse): Set<string> {
    const cached = houseAddressCache.get(currency) ?? { users: 0, orders: 0, change: 0, set: new Set<string>() };
    for (const branch of ['users', 'orders', 'change'] as const) {
      const upTo = houses.handedOut[branch] + 20;
      for (let index = cached[branch]; index < upTo; index++)
        cached.set.add(deriveAddress(currency, deps.xpubs, index, branch));
      cached[branch] = Math.max(cached[branch], upTo);
    }
    houseAddressCache.set(currency, cached);
    return cached.set;
  }

  /** The output checked with the node and with the seed: null when it cannot be spent here. */
  async function verified(
    currency: UtxoCurrency,
    node: CoinNode,
    output: HouseOutput,
  ): Promise<{ output: HouseOutput; amount: bigint; script: Uint8Array; branch: HouseBranch; index: number } | null> {
    const keys = deps.keys.get(currency)!;
    const script = coinRules(currency).houseScript(keys.publicKey(output.branch, output.index));
    const onChain = await node.txOut(output.txid, output.vout);
    const amount = decimalToMinor(output.amount, 8);
    if (!onChain || onChain.amount !== amount || onChain.scriptHex !== Buffer.from(script).toString('hex')) {
      deps.log(`signer: house output ${output.txid}:${output.vout} is not what the API says on chain; skipped`);
      return null;
    }
    return { output, amount, script, branch: output.branch, index: output.index };
  }

  async function pay(
    currency: UtxoCurrency,
    node: CoinNode,
    payouts: Payout[],
    houses: HouseOutputsResponse,
  ): Promise<boolean> {
    const rules = coinRules(currency);
    const feeRate = boundedFeeRate(currency, await node.feeRate(6).catch(() => null));
    const spent = deps.journal.spentInputs(currency);
    const candidates = houses.outputs
      .filter((o) => !spent.has(`${o.txid}:${o.vout}`))
      .sort((a, b) => Number(decimalToMinor(b.amount, 8)! - decimalToMinor(a.amount, 8)!));
    const targets = payouts.map((payout) => ({
      payout,
      script: rules.payScript(normalizeAddress(currency, payout.destination!)!),
      amount: decimalToMinor(payout.amount, 8)!,
    }));
    const paying = targets.reduce((sum, t) => sum + t.amount, 0n);
    // The size with a change output: without one (what would be left is dust) the rest goes to the fee.
    const sizeOf = (inputs: number) => rules.sizeOf(inputs, targets.length + 1);

    const selected: NonNullable<Awaited<ReturnType<typeof verified>>>[] = [];
    let total = 0n;
    for (const candidate of candidates) {
      if (total >= paying + feeRate * sizeOf(selected.length)) break;
      const checked = await verified(currency, node, candidate);
      if (!checked) continue;
      selected.push(checked);
      total += checked.amount;
    }
    const fee = feeRate * sizeOf(selected.length);
    if (total < paying + fee) {
      deps.log(
        `signer: ${currency} house outputs hold ${minorToDecimal(total, 8)}, ${minorToDecimal(paying + fee, 8)} is due; the payouts wait`,
      );
      return false;
    }
    let change: { address: string; amount: bigint; index: number } | null = null;
    if (total - paying - fee >= rules.changeDust) {
      const fresh = await deps.api.post<ChangeAddressResponse>('/api/ops/chain/change-address', { currency });
      // The API names the address; the seed must derive it, or the change would go to someone else.
      if (deriveAddress(currency, deps.xpubs, fresh.index, 'change') !== fresh.address)
        throw new Error(`the API's change address ${fresh.address} is not the house's change ${fresh.index}`);
      change = { address: fresh.address, amount: total - paying - fee, index: fresh.index };
    }

    const keys = deps.keys.get(currency)!;
    const outputs: PayTo[] = targets.map(({ script, amount }) => ({ script, amount }));
    if (change) outputs.push({ script: rules.payScript(change.address), amount: change.amount });
    const tx = rules.sign(
      selected.map((input) => ({
        txid: input.output.txid,
        vout: input.output.vout,
        amount: input.amount,
        privateKey: keys.privateKey(input.branch, input.index),
        publicKey: keys.publicKey(input.branch, input.index),
      })),
      outputs,
    );
    return broadcastNew(currency, node, tx, {
      targets,
      inputs: selected.map((s) => `${s.output.txid}:${s.output.vout}`),
      inputPaths: selected.map((s) => ({ branch: s.branch, index: s.index, amount: s.amount.toString() })),
      feeRate,
      change: change ? { vout: targets.length, amount: change.amount.toString(), address: change.address } : null,
      replaces: null,
    });
  }

  async function broadcastNew(
    currency: NodeCurrency,
    node: CoinNode,
    tx: SignedTx,
    plan: {
      targets: { payout: Payout; amount: bigint }[];
      inputs: string[];
      inputPaths: JournalEntry['inputPaths'];
      feeRate: bigint;
      change: JournalEntry['change'];
      replaces: string | null;
    },
  ): Promise<boolean> {
    const accepted = await node.mempoolAccept(tx.hex);
    if (accepted && !accepted.allowed) {
      deps.log(
        `signer: the ${currency} node would not accept the transaction (${accepted.reason ?? 'no reason given'}); nothing was broadcast`,
      );
      return false;
    }
    // The fee, shared out: each payout an equal part, the first the remainder.
    const share = tx.fee / BigInt(plan.targets.length);
    const entry: JournalEntry = {
      v: 1,
      currency,
      txid: tx.txid,
      hex: tx.hex,
      inputs: plan.inputs,
      inputPaths: plan.inputPaths,
      payouts: plan.targets.map((t, i) => ({
        id: t.payout.id,
        idempotencyKey: t.payout.idempotencyKey,
        amount: t.amount.toString(),
        fee: (i === 0 ? tx.fee - share * BigInt(plan.targets.length - 1) : share).toString(),
      })),
      feeRate: plan.feeRate.toString(),
      change: plan.change,
      replaces: plan.replaces,
      at: now().toISOString(),
    };
    deps.journal.append(entry);
    try {
      await node.broadcast(tx.hex);
    } catch (error) {
      // A node without testmempoolaccept (Dogecoin 1.14) refuses here instead: the transaction was
      // never relayed, so the journal forgets it and the payouts wait for the next run.
      if (error instanceof NodeError && error.code !== null && REJECTED.has(error.code)) {
        deps.journal.void(currency, tx.txid, error.message);
        deps.log(`signer: the ${currency} node refused ${tx.txid} (${error.message}); nothing was broadcast`);
        return false;
      }
      throw error;
    }
    deps.log(
      `signer: ${currency} ${entry.txid} broadcast, paying ${entry.payouts.length} payout(s)${plan.replaces ? `, replacing ${plan.replaces}` : ''}`,
    );
    await deps.beforeReport?.();
    await report(
      entry,
      plan.targets.map((t) => t.payout),
    );
    return true;
  }

  async function rebroadcast(node: CoinNode, entry: JournalEntry): Promise<void> {
    try {
      await node.broadcast(entry.hex);
    } catch (error) {
      // Already in the mempool or a block, or replaced: the report still names what paid it.
      deps.log(`signer: ${entry.txid} not broadcast again (${(error as Error).message})`);
    }
  }

  async function report(entry: JournalEntry, payouts: Pick<Payout, 'id' | 'idempotencyKey'>[]): Promise<void> {
    for (const payout of payouts) {
      const line = entry.payouts.find((p) => p.idempotencyKey === payout.idempotencyKey);
      if (!line) continue;
      await deps.api.post(`/api/ops/payouts/${payout.id}/result`, {
        status: 'broadcast',
        txid: entry.txid,
        fee: minorToDecimal(BigInt(line.fee), knownDecimals(entry.currency)),
        inputs: entry.inputs,
      });
    }
  }

  /** Replaces by fee what stays unconfirmed too long (BIP125): the same inputs and payouts, the higher fee out of the change. */
  async function bumpStuck(currency: UtxoCurrency, node: CoinNode): Promise<number> {
    const rules = coinRules(currency);
    if (!rules.replaceable) return 0;
    const { payouts } = await deps.api.get<PayoutsResponse>('/api/ops/payouts?status=broadcast&rail=chain&limit=500');
    const txids = [...new Set(payouts.filter((p) => p.currency === currency && p.txid).map((p) => p.txid!))];
    let bumped = 0;
    for (const txid of txids) {
      const entry = deps.journal.byTxid(txid);
      if (!entry || now().getTime() - new Date(entry.at).getTime() < deps.bumpAfterMs) continue;
      const inMempool = await node.call('getmempoolentry', [txid]).then(
        () => true,
        () => false,
      );
      if (!inMempool || !entry.change) continue;
      const old = Transaction.fromRaw(Buffer.from(entry.hex, 'hex'), {
        allowUnknownOutputs: true,
        allowLegacyWitnessUtxo: true,
      });
      const oldRate = BigInt(entry.feeRate);
      const estimate = boundedFeeRate(currency, await node.feeRate(2).catch(() => null));
      const rate = [estimate, (oldRate * 3n + 1n) / 2n, oldRate + 1n].reduce((a, b) => (a > b ? a : b));
      const oldFee = entry.payouts.reduce((sum, p) => sum + BigInt(p.fee), 0n);
      const newFee = rate * BigInt(old.vsize);
      const changeAmount = BigInt(entry.change.amount) - (newFee - oldFee);
      if (changeAmount < rules.changeDust) {
        deps.log(`signer: ${txid} cannot be replaced by fee from its change; it waits`);
        continue;
      }
      const keys = deps.keys.get(currency)!;
      const inputs = entry.inputPaths.map((path, i) => {
        const [inputTxid, vout] = entry.inputs[i]!.split(':');
        return {
          txid: inputTxid!,
          vout: Number(vout),
          amount: BigInt(path.amount),
          privateKey: keys.privateKey(path.branch, path.index),
          publicKey: keys.publicKey(path.branch, path.index),
        };
      });
      const outputs: PayTo[] = entry.payouts.map((_, i) => ({
        script: old.getOutput(i).script!,
        amount: old.getOutput(i).amount!,
      }));
      outputs.push({ script: rules.payScript(entry.change.address), amount: changeAmount });
      const targets = entry.payouts.map((line) => ({
        payout: { id: line.id, idempotencyKey: line.idempotencyKey } as Payout,
        amount: BigInt(line.amount),
      }));
      const replaced = await broadcastNew(currency, node, rules.sign(inputs, outputs), {
        targets,
        inputs: entry.inputs,
        inputPaths: entry.inputPaths,
        feeRate: rate,
        change: { ...entry.change, amount: changeAmount.toString() },
        replaces: txid,
      });
      if (replaced) bumped++;
    }
    return bumped;
  }

  return { run };
}
