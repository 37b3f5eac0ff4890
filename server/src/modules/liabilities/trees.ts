import { hash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { buildTree, packLeaves, packLevels, type Digest, type OwnerAmount } from '../../../../domain/liabilities';

/**
 * Building the trees of a snapshot, the costly part of publishing one (a million SHA-256 for
 * 100,000 owners of a currency): each currency's tree is independent of the others, so on a large
 * ledger they are built in worker threads, one per core, while the main thread stores the ones
 * already built. A small ledger (the tests, a young deployment) is built in the main thread: a
 * worker's start costs more than its tree.
 */

/** Node's SHA-256: the same bytes as the browser's @noble/hashes, faster. */
export const nodeDigest: Digest = (data) => hash('sha256', data, 'buffer');

/** Leaves above which the trees are built in worker threads. */
export const WORKER_THRESHOLD = 100_000;

export type TreeInput = { currency: string; owners: OwnerAmount[] };
/** A built tree as the database stores it, and each owner's places (by position in the input's owners). */
export type BuiltTreeBytes = {
  currency: string;
  leafCount: number;
  rootHash: Uint8Array;
  total: bigint;
  nodes: Uint8Array;
  leaves: Uint8Array;
  directory: Uint8Array;
  paddingSeed: Uint8Array;
  /** For each owner (the input's order), their leaves' places. */
  placesOf: number[][];
};

function build(input: TreeInput): BuiltTreeBytes {
  const built = buildTree(input.currency, input.owners, { digest: nodeDigest, random: (n) => randomBytes(n) });
  const packed = packLeaves(built.leaves, built.leafCount);
  return {
    currency: input.currency,
    leafCount: built.leafCount,
    rootHash: built.root.hash,
    total: built.root.sum,
    nodes: packLevels(built.upper),
    leaves: packed.leaves,
    directory: packed.directory,
    paddingSeed: built.paddingSeed,
    placesOf: input.owners.map((o) => (built.leavesOf.get(o.owner) ?? []).map((l) => l.index)),
  };
}

/** What crosses to a worker: amounts as strings (a structured clone keeps bigints, but strings are cheaper to read back here). */
type Job = { currency: string; owners: { owner: string; amount: string; commitment: Uint8Array }[] };

/** Builds every tree and hands each to `store` in the order of `inputs`; at most one built tree waits to be stored per worker. */
export async function buildTrees(inputs: TreeInput[], store: (tree: BuiltTreeBytes) => Promise<void>, options: { threshold?: number } = {}): Promise<void> {
  const leaves = inputs.reduce((n, i) => n + i.owners.length, 0) * 2;
  const workers = Math.min(os.availableParallelism(), inputs.length);
  if (leaves <= (options.threshold ?? WORKER_THRESHOLD) || workers < 2) {
    for (const input of inputs) await store(build(input));
    return;
  }
  const pool = Array.from({ length: workers }, () => startWorker());
  try {
    const pending = inputs.map((input, i) => pool[i % workers]!.then((worker) => worker.run({ currency: input.currency, owners: input.owners.map((o) => ({ ...o, amount: o.amount.toString() })) })));
    // Each worker builds its trees one after another (its queue); they are stored in the inputs' order.
    for (const tree of pending) await store(await tree);
  } finally {
    await Promise.all(pool.map(async (w) => (await w).stop()));
  }
}

/** A worker that builds the jobs it is given one after another, in the order given. */
async function startWorker(): Promise<{ run(job: Job): Promise<BuiltTreeBytes>; stop(): Promise<void> }> {
  // The server runs TypeScript through tsx (npm start: node --import tsx). A worker does not get
  // the parent's --import hooks for its entry file, so it loads tsx's CommonJS hook itself.
  const worker = new Worker(path.join(__dirname, 'trees.ts'), { execArgv: ['--require', 'tsx/cjs'] });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(job) {
      const result = queue.then(
        () =>
          new Promise<BuiltTreeBytes>((resolve, reject) => {
            const done = (message: BuiltTreeBytes | { error: string }) => {
              worker.off('error', reject);
              if ('error' in message) reject(new Error(message.error));
              else resolve(message);
            };
            worker.once('message', done);
            worker.once('error', reject);
            worker.postMessage(job);
          }),
      );
      queue = result.catch(() => undefined);
      return result;
    },
    stop: () => worker.terminate().then(() => undefined),
  };
}

// In a worker: build what the main thread sends.
if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (job: Job) => {
    try {
      const built = build({ currency: job.currency, owners: job.owners.map((o) => ({ owner: o.owner, amount: BigInt(o.amount), commitment: o.commitment })) });
      port.postMessage(built, [built.nodes.buffer, built.leaves.buffer, built.directory.buffer] as ArrayBuffer[]);
    } catch (error) {
      port.postMessage({ error: (error as Error).message });
    }
  });
}
