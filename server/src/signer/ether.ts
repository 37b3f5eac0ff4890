import { Transaction } from 'micro-eth-signer';
import { normalizeAddress } from '#domain/addresses';
import { minorToDecimal, decimalToMinor } from '#domain/money';
import { deriveAddress, type Xpubs } from '../modules/chain/derive';
import { eip1559Fees, type EthNode } from '../modules/chain/ethereum';
import { NodeError } from '../modules/chain/rpc';
import type { ChangeAddressResponse, HouseOutputsResponse } from '#domain/contracts/chain';
import type { Payout } from '#domain/contracts/payouts';
import type { EthJournalTx, Journal, JournalEntry } from './journal';
import type { HouseSigner } from './keys';
import type { SignerApi } from './signer';

/**
 * The signer's ether (issue 31). Ether is an account chain: no outputs to choose, one balance per
 * address, and a nonce per account that orders its transactions. So:
 * - payouts are paid from one hot address, the house key's change branch 0 (m/44'/60'/0'/2/0), one
 *   EIP-1559 (type 2) transaction per payout, signed here with micro-eth-signer;
 * - deposits are swept from users' and orders' addresses to the hot address (nothing changes owner:
 *   the watcher sees ether moving between house addresses; its gas is the house's cost). An address
 *   holding less than the sweep's gas reserve (21,000 × the max fee) but at least what the sweep
 *   costs at today's base fee is first funded with that reserve from the hot address; an amount
 *   smaller than its sweep's cost waits (until fees fall or more arrives);
 * - the nonce of each account is the larger of the node's pending count and one past the highest
 *   the journal already used for it (a transaction the node dropped keeps its nonce), so two
 *   transactions never share a nonce unless one replaces the other;
 * - fees: twice the next base fee plus the node's suggested tip (eth_feeHistory,
 *   eth_maxPriorityFeePerGas), never above ETH_MAX_FEE_GWEI; above it the transaction waits;
 * - every transaction is journaled (fsync) before it is broadcast. Killed between the two, or between
 *   the broadcast and the report, the signer finds the journal's transaction on its next run and
 *   sends it again: the same nonce means it can be mined once at most;
 * - a transaction not mined after SIGNER_BUMP_AFTER_MINUTES is replaced with the same nonce and at
 *   least 10 % more on both fee fields (what nodes require of a replacement); one the node no
 *   longer knows (dropped from its pool) is sent again as it was;
 * - a payout the destination would refuse (a contract that reverts on plain transfers) is found by
 *   eth_estimateGas before anything is signed and reported failed: the money goes back to the
 *   customer. One mined with status 0 anyway fails the same way, from the watcher.
 */
export const ETH_TRANSFER_GAS = 21_000n;
/** The most gas a payout to a contract may use (a wallet contract's receive function); more is refused. */
const MAX_PAYOUT_GAS = 100_000n;
const DECIMALS = 18;
/** How long an address found with nothing worth sweeping is left alone while nothing new arrives (fees may have fallen since). */
const RECHECK_MS = 10 * 60_000;

export type EtherDeps = {
  api: SignerApi;
  node: EthNode;
  keys: HouseSigner;
  xpubs: Xpubs;
  journal: Journal;
  /** ETH_MAX_FEE_GWEI in wei per gas. */
  maxFeeWei: bigint;
  bumpAfterMs: number;
  log: (message: string) => void;
  beforeReport?: () => Promise<void>;
  now: () => Date;
};

const quantity = (hex: string) => BigInt(hex);
const hex = (value: bigint) => `0x${value.toString(16)}`;

export function etherSigner(deps: EtherDeps) {
  let chainId: bigint | null = null;
  // What was last said about an address that waits: said again only when its balance changes (the signer polls every few seconds).
  const waiting = new Map<string, bigint>();
  // Each account's mined transaction count as last seen: an account whose journaled nonces are all
  // below it has nothing in flight, and is not asked again (every deposit address ever swept is one).
  const minedCount = new Map<string, bigint>();
  // Deposit addresses found with nothing to sweep, and the outputs they had then.
  const settled = new Map<string, { outputs: string; at: number }>();
  async function inFlight(from: string): Promise<{ mined: bigint; entries: JournalEntry[] }> {
    const entries = deps.journal.ethFrom(from);
    const highest = entries.reduce(
      (max, entry) => (BigInt(entry.eth!.nonce) > max ? BigInt(entry.eth!.nonce) : max),
      -1n,
    );
    const known = minedCount.get(from);
    if (known !== undefined && highest < known) return { mined: known, entries: [] };
    const mined = quantity(await deps.node.call<string>('eth_getTransactionCount', [from, 'latest']));
    minedCount.set(from, mined);
    return { mined, entries: entries.filter((entry) => BigInt(entry.eth!.nonce) >= mined) };
  }

  async function hotAddress(houses: HouseOutputsResponse): Promise<string> {
    // The change branch's first address; the API writes it down (house_addresses) when first asked.
    if (houses.handedOut.change === 0) {
      const fresh = await deps.api.post<ChangeAddressResponse>('/api/ops/chain/change-address', { currency: 'ETH' });
      if (fresh.index !== 0) throw new Error(`the API's first ETH change address has index ${fresh.index}, not 0`);
    }
    return deriveAddress('ETH', deps.xpubs, 0, 'change');
  }

  async function nextNonce(from: string): Promise<bigint> {
    const pending = quantity(await deps.node.call<string>('eth_getTransactionCount', [from, 'pending']));
    const used = deps.journal
      .ethFrom(from)
      .reduce((max, entry) => (BigInt(entry.eth!.nonce) + 1n > max ? BigInt(entry.eth!.nonce) + 1n : max), 0n);
    return pending > used ? pending : used;
  }

  async function fees(): Promise<{
    maxFeePerGas: bigint;
    maxPriorityFeePerGas: bigint;
    baseFee: bigint;
    priorityFee: bigint;
  } | null> {
    const now = await deps.node.fees();
    const bounded = eip1559Fees(now, deps.maxFeeWei);
    // Above the operator's cap the transaction would not be mined: it waits for the fees to fall.
    if (bounded.maxFeePerGas < now.baseFee + bounded.maxPriorityFeePerGas) {
      deps.log(`signer: ETH base fee ${minorToDecimal(now.baseFee, 9)} gwei is above ETH_MAX_FEE_GWEI; ether waits`);
      return null;
    }
    return { ...bounded, ...now };
  }

  function sign(tx: EthJournalTx): { hex: string; txid: string } {
    const prepared = Transaction.prepare({
      type: 'eip1559',
      to: tx.to,
      value: BigInt(tx.value),
      nonce: BigInt(tx.nonce),
      gasLimit: BigInt(tx.gasLimit),
      maxFeePerGas: BigInt(tx.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
      chainId: chainId!,
    });
    const signed = prepared.signBy(deps.keys.privateKey(tx.path.branch, tx.path.index));
    // The key must be the account's: a wrong path would sign for an address that holds nothing.
    if (signed.sender.toLowerCase() !== tx.from.toLowerCase())
      throw new Error(`signer: the key at ${tx.path.branch}/${tx.path.index} is not ${tx.from}`);
    return { hex: signed.toHex(), txid: signed.hash };
  }

  /** Journals, then broadcasts; false when the node refused it outright (never relayed: the journal strikes it). */
  async function journalAndSend(
    tx: EthJournalTx,
    payouts: JournalEntry['payouts'],
    replaces: string | null,
  ): Promise<JournalEntry | null> {
    const signed = sign(tx);
    const entry: JournalEntry = {
      v: 1,
      currency: 'ETH',
      txid: signed.txid,
      hex: signed.hex,
      inputs: [],
      inputPaths: [],
      payouts,
      feeRate: tx.maxFeePerGas,
      change: null,
      replaces,
      at: deps.now().toISOString(),
      eth: tx,
    };
    deps.journal.append(entry);
    try {
      await deps.node.broadcast(signed.hex);
    } catch (error) {
      // Refused outright (insufficient funds, underpriced, a nonce the node rejects): never relayed.
      if (error instanceof NodeError && error.code !== null && !/already known/i.test(error.message)) {
        deps.journal.void('ETH', signed.txid, error.message);
        deps.log(`signer: the ETH node refused ${signed.txid} (${error.message}); nothing was broadcast`);
        return null;
      }
      throw error;
    }
    deps.log(
      `signer: ETH ${tx.kind} ${signed.txid} broadcast (nonce ${tx.nonce}${replaces ? `, replacing ${replaces}` : ''})`,
    );
    return entry;
  }

  async function report(entry: JournalEntry, payout: Pick<Payout, 'id' | 'idempotencyKey'>): Promise<void> {
    const line = entry.payouts.find((p) => p.idempotencyKey === payout.idempotencyKey);
    if (!line) return;
    await deps.api.post(`/api/ops/payouts/${payout.id}/result`, {
      status: 'broadcast',
      txid: entry.txid,
      fee: minorToDecimal(BigInt(line.fee), DECIMALS),
      inputs: [],
    });
  }

  async function ensureChainId() {
    chainId ??= quantity(await deps.node.call<string>('eth_chainId'));
  }

  /** One transaction per payout from the hot address; how many were broadcast. */
  async function pay(payouts: Payout[], houses: HouseOutputsResponse): Promise<number> {
    await ensureChainId();
    const from = await hotAddress(houses);
    let paid = 0;
    for (const payout of payouts) {
      const to = normalizeAddress('ETH', payout.destination!)!;
      const value = decimalToMinor(payout.amount, DECIMALS)!;
      let gas: bigint;
      try {
        // What the destination does with a plain transfer, before anything is signed.
        gas = quantity(await deps.node.call<string>('eth_estimateGas', [{ from, to, value: hex(value) }]));
        if (gas > MAX_PAYOUT_GAS) throw new NodeError(`the destination needs ${gas} gas for a plain transfer`);
      } catch (error) {
        if (!(error instanceof NodeError)) throw error;
        if (/insufficient funds/i.test(error.message)) {
          deps.log(`signer: the ETH hot address holds too little for payout ${payout.id}; it waits`);
          continue;
        }
        deps.log(`signer: payout ${payout.id} refused by its destination (${error.message})`);
        await deps.api.post(`/api/ops/payouts/${payout.id}/result`, {
          status: 'failed',
          reason: `the destination refuses a plain ether transfer (${error.message.slice(0, 200)})`,
        });
        continue;
      }
      const gasLimit = gas === ETH_TRANSFER_GAS ? gas : (gas * 5n) / 4n;
      const fee = await fees();
      if (!fee) return paid;
      const balance = quantity(await deps.node.call<string>('eth_getBalance', [from, 'pending']));
      if (balance < value + gasLimit * fee.maxFeePerGas) {
        deps.log(
          `signer: the ETH hot address holds ${minorToDecimal(balance, DECIMALS)}, payout ${payout.id} needs more; it waits`,
        );
        continue;
      }
      const tx: EthJournalTx = {
        kind: 'payout',
        from,
        path: { branch: 'change', index: 0 },
        nonce: (await nextNonce(from)).toString(),
        to,
        value: value.toString(),
        gasLimit: gasLimit.toString(),
        maxFeePerGas: fee.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fee.maxPriorityFeePerGas.toString(),
      };
      // The fee reported is the most it can cost; the watcher books the real one when it is mined.
      const entry = await journalAndSend(
        tx,
        [
          {
            id: payout.id,
            idempotencyKey: payout.idempotencyKey,
            amount: value.toString(),
            fee: (gasLimit * fee.maxFeePerGas).toString(),
          },
        ],
        null,
      );
      if (!entry) continue;
      await deps.beforeReport?.();
      await report(entry, payout);
      paid++;
    }
    return paid;
  }

  /** Whether an account has a journaled transaction not yet mined (its nonce is at or above the mined count). */
  async function pendingFrom(from: string): Promise<boolean> {
    if (deps.journal.ethFrom(from).length === 0) return false;
    return (await inFlight(from)).entries.length > 0;
  }

  /** Sweeps deposit addresses to the hot address, funding the gas first where needed; how many transactions. */
  async function sweep(houses: HouseOutputsResponse): Promise<number> {
    await ensureChainId();
    const hot = await hotAddress(houses);
    const deposits = new Map<string, { branch: 'users' | 'orders'; index: number; outputs: string[] }>();
    for (const output of houses.outputs) {
      if (output.branch === 'change') continue;
      const known = deposits.get(output.address) ?? { branch: output.branch, index: output.index, outputs: [] };
      known.outputs.push(`${output.txid}:${output.vout}`);
      deposits.set(output.address, known);
    }
    const fundingsInFlight = (await inFlight(hot)).entries.filter((entry) => entry.eth!.kind === 'fund');
    let sent = 0;
    for (const [address, path] of deposits) {
      if (deriveAddress('ETH', deps.xpubs, path.index, path.branch) !== address) continue;
      // Nothing new arrived since this address was last found with nothing to sweep: asked again only now and then.
      const outputs = path.outputs.join(',');
      const seen = settled.get(address);
      if (seen && seen.outputs === outputs && deps.now().getTime() - seen.at < RECHECK_MS) continue;
      // One thing at a time per address: a sweep or a funding still on its way first.
      if (await pendingFrom(address)) continue;
      if (fundingsInFlight.some((entry) => entry.eth!.to === address)) continue;
      const balance = quantity(await deps.node.call<string>('eth_getBalance', [address, 'latest']));
      const nothingToDo = () => settled.set(address, { outputs, at: deps.now().getTime() });
      if (balance === 0n) {
        nothingToDo();
        continue;
      }
      const fee = await fees();
      if (!fee) return sent;
      const reserve = ETH_TRANSFER_GAS * fee.maxFeePerGas;
      const cost = ETH_TRANSFER_GAS * (fee.baseFee + fee.maxPriorityFeePerGas);
      const terms = {
        gasLimit: ETH_TRANSFER_GAS.toString(),
        maxFeePerGas: fee.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fee.maxPriorityFeePerGas.toString(),
      };
      if (balance >= reserve && balance - reserve >= cost) {
        const entry = await journalAndSend(
          {
            kind: 'sweep',
            from: address,
            path,
            nonce: (await nextNonce(address)).toString(),
            to: hot,
            value: (balance - reserve).toString(),
            ...terms,
          },
          [],
          null,
        );
        if (entry) sent++;
      } else if (balance < reserve && balance >= cost) {
        // Too little for the sweep's gas reserve, enough to be worth its cost: the hot address pays the reserve.
        const entry = await journalAndSend(
          {
            kind: 'fund',
            from: hot,
            path: { branch: 'change', index: 0 },
            nonce: (await nextNonce(hot)).toString(),
            to: address,
            value: reserve.toString(),
            ...terms,
          },
          [],
          null,
        );
        if (entry) sent++;
      } else {
        nothingToDo();
        if (waiting.get(address) !== balance) {
          waiting.set(address, balance);
          deps.log(
            `signer: ETH at ${address} (${minorToDecimal(balance, DECIMALS)}) is less than its sweep costs; it waits`,
          );
        }
      }
    }
    return sent;
  }

  /**
   * The journal's transactions not yet mined: one the node dropped is sent again as it was; one
   * waiting longer than SIGNER_BUMP_AFTER_MINUTES is replaced with the same nonce and higher fees
   * (reported for a payout); a payout whose latest transaction was never reported is reported.
   * How many were replaced.
   */
  async function maintain(broadcastPayouts: Payout[]): Promise<number> {
    await ensureChainId();
    let bumped = 0;
    const accounts = [...new Set(deps.journal.ethEntries().map((entry) => entry.eth!.from))];
    for (const from of accounts) {
      const byNonce = new Map<string, JournalEntry>();
      // The latest transaction of each nonce not yet mined (a replacement comes after what it replaces).
      for (const entry of (await inFlight(from)).entries) byNonce.set(entry.eth!.nonce, entry);
      for (const entry of byNonce.values()) {
        const known = await deps.node.call<unknown>('eth_getTransactionByHash', [entry.txid]);
        if (!known) {
          // Dropped from the node's pool (evicted, a restart, underpriced): sent again as it was; one
          // the node no longer takes (its max fee is below today's base fee) is replaced now.
          const resent = await deps.node.broadcast(entry.hex).then(
            () => true,
            (error: Error) => {
              deps.log(`signer: ${entry.txid} not sent again (${error.message}); replaced`);
              return false;
            },
          );
          if (resent) {
            deps.log(`signer: ETH ${entry.txid} was no longer known to the node; sent again`);
            continue;
          }
        } else if (deps.now().getTime() - new Date(entry.at).getTime() < deps.bumpAfterMs) continue;
        const fee = await fees();
        if (!fee) continue;
        const old = entry.eth!;
        const bump = (value: bigint) => (value * 11n + 9n) / 10n + 1n;
        const maxPriorityFeePerGas = [fee.maxPriorityFeePerGas, bump(BigInt(old.maxPriorityFeePerGas))].reduce(
          (a, b) => (a > b ? a : b),
        );
        const maxFeePerGas = [fee.maxFeePerGas, bump(BigInt(old.maxFeePerGas)), maxPriorityFeePerGas].reduce((a, b) =>
          a > b ? a : b,
        );
        if (maxFeePerGas > deps.maxFeeWei) {
          deps.log(`signer: ETH ${entry.txid} would need more than ETH_MAX_FEE_GWEI to be replaced; it waits`);
          continue;
        }
        // A sweep pays its own higher gas out of what it moves; a payout's and a funding's value stay.
        const gasLimit = BigInt(old.gasLimit);
        const value =
          old.kind === 'sweep'
            ? BigInt(old.value) - gasLimit * (maxFeePerGas - BigInt(old.maxFeePerGas))
            : BigInt(old.value);
        if (value <= 0n) continue;
        const payouts = entry.payouts.map((line) => ({ ...line, fee: (gasLimit * maxFeePerGas).toString() }));
        const replaced = await journalAndSend(
          {
            ...old,
            value: value.toString(),
            maxFeePerGas: maxFeePerGas.toString(),
            maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
          },
          payouts,
          entry.txid,
        );
        if (!replaced) continue;
        bumped++;
        for (const line of replaced.payouts) {
          const payout = broadcastPayouts.find((p) => p.idempotencyKey === line.idempotencyKey);
          if (payout) await report(replaced, payout);
        }
      }
    }
    // Killed between a replacement and its report: the latest transaction is reported now.
    for (const payout of broadcastPayouts) {
      const entry = deps.journal.forPayout(payout.idempotencyKey);
      if (entry && payout.txid && !payout.txids.includes(entry.txid)) await report(entry, payout);
    }
    return bumped;
  }

  return { pay, sweep, maintain };
}
