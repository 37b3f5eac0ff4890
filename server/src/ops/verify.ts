import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import { verifyRounds, type Hashes, type RoundsFile } from '#domain/faucet';
import { verifyInclusion, verifySnapshot, type Digest, type PublishedSnapshot } from '#domain/liabilities';
import { minorToDecimal } from '#domain/money';
import type { MyProof } from '#domain/contracts/liabilities';

/**
 * Checks anyone can run on what Muntly publishes, with the same code the browser runs
 * (domain/liabilities.ts, domain/faucet.ts) and Node's own SHA-256; nothing here talks to Muntly
 * beyond fetching the file when given its address:
 *
 *   npm run verify:liabilities -- <file or URL> [<my proof file>]
 *                                                 a published snapshot (/proof/latest.json, …): its
 *                                                 statement, digest, totals owed against held; with
 *                                                 a proof saved from /wallet/proof/ (one snapshot of
 *                                                 GET /api/wallet/proof), every leaf of it under the
 *                                                 published roots
 *   npm run verify:faucet -- <file or URL>        a range of rounds (/api/faucet/rounds/export?…):
 *                                                 every chain link, block mixed in and draw
 *
 * Exit code 0 when everything holds, 1 when something does not (each problem is printed), 2 when
 * the file cannot be read.
 */
const digest: Digest = (data) => createHash('sha256').update(data).digest();
const hashes: Hashes = {
  sha256Hex: (data) => createHash('sha256').update(data, 'utf8').digest('hex'),
  hmacSha256Hex: (keyHex, message) =>
    createHmac('sha256', Buffer.from(keyHex, 'hex')).update(message, 'utf8').digest('hex'),
};

class UsageError extends Error {}

async function load(source: string | undefined): Promise<unknown> {
  if (!source) throw new UsageError('Give the file (or its URL) to check.');
  let text: string;
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new UsageError(`${source} answered ${response.status}.`);
    text = await response.text();
  } else {
    if (!fs.existsSync(source)) throw new UsageError(`No file ${source}.`);
    text = fs.readFileSync(source, 'utf8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${source} is not JSON.`);
  }
}

type Reserve = { currency: string; held?: string | null; height?: number | null };

/** Checks a published snapshot (and an owner's proof of it); returns whether it holds, printing what it checked. */
export function checkLiabilities(
  snapshot: PublishedSnapshot,
  proof: MyProof | null = null,
  print: (line: string) => void = console.log,
): boolean {
  const result = verifySnapshot(snapshot, digest);
  print(`Snapshot ${snapshot.snapshotId ?? '?'} taken ${snapshot.takenAt ?? '?'}`);
  for (const problem of result.problems) print(`FAIL  ${problem}`);
  if (result.digest) print(`ok    digest ${result.digest}`);
  if (result.trees.length === 0 && result.problems.length === 0) print('ok    no trees: nobody was owed anything');
  const reserves = ((snapshot.reserves as { currencies?: Reserve[] } | undefined)?.currencies ?? []) as Reserve[];
  for (const [i, tree] of result.trees.entries()) {
    const decimals = Number.isInteger(snapshot.trees[i]?.decimals) ? snapshot.trees[i]!.decimals : 0;
    const reserve = reserves.find((r) => r.currency === tree.currency);
    const held = reserve?.held ? `, held ${reserve.held} at block ${reserve.height ?? '?'}` : ', held not stated';
    const total =
      tree.total === null ? '' : `: owed ${minorToDecimal(BigInt(tree.total), decimals)} ${tree.currency}${held}`;
    print(`${tree.ok ? 'ok  ' : 'FAIL'}  ${tree.currency}${total} (${tree.leafCount} leaves, padded)`);
    for (const problem of tree.problems) print(`        ${problem}`);
  }
  let ok = result.ok;
  if (proof) {
    if (proof.snapshotId !== snapshot.snapshotId) {
      print(`FAIL  the proof is of snapshot ${proof.snapshotId}, not ${snapshot.snapshotId}`);
      ok = false;
    }
    for (const mine of proof.currencies ?? []) {
      const tree = snapshot.trees?.find((t) => t.currency === mine.currency);
      if (!tree) {
        print(`FAIL  ${mine.currency}: the snapshot has no tree of this currency`);
        ok = false;
        continue;
      }
      const check = verifyInclusion(mine, proof.owner, proof.nonce, tree, digest);
      print(
        `${check.ok ? 'ok  ' : 'FAIL'}  ${mine.currency}: ${check.leaves.length} leaf(s) of ${proof.owner} under the root, owed ${minorToDecimal(BigInt(check.amount), tree.decimals)}`,
      );
      for (const problem of check.problems) print(`        ${problem}`);
      ok &&= check.ok;
    }
  }
  print(ok ? 'The snapshot holds.' : 'The snapshot does NOT hold.');
  return ok;
}

/** Checks a range of faucet rounds; returns whether all hold, printing each round. */
export function checkFaucet(file: RoundsFile, print: (line: string) => void = console.log): boolean {
  const result = verifyRounds(file, hashes);
  for (const problem of result.problems) print(`FAIL  ${problem}`);
  for (const round of result.rounds) {
    const link =
      round.verification?.previousMatches === null
        ? 'seed hash fits (the round before is not in this file)'
        : 'chain link, seed hash';
    print(
      `${round.ok ? 'ok  ' : 'FAIL'}  round ${round.id}: ${round.ok ? `${link}, block mixed in, draw` : round.problems.join('; ')}`,
    );
  }
  const skipped = (Array.isArray(file?.rounds) ? file.rounds.length : 0) - result.rounds.length;
  if (skipped > 0) print(`      (${skipped} round(s) not announced: nothing to check yet)`);
  print(result.ok ? `All ${result.rounds.length} announced round(s) hold.` : 'Some rounds do NOT hold.');
  return result.ok;
}

export async function main(args: string[]): Promise<number> {
  const [what, source, proofSource] = args;
  try {
    if (what === 'liabilities')
      return checkLiabilities(
        (await load(source)) as PublishedSnapshot,
        proofSource ? ((await load(proofSource)) as MyProof) : null,
      )
        ? 0
        : 1;
    if (what === 'faucet') return checkFaucet((await load(source)) as RoundsFile) ? 0 : 1;
    throw new UsageError(
      'Usage: npm run verify:liabilities -- <file or URL> [<my proof file>] | npm run verify:faucet -- <file or URL>',
    );
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
}
