import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import { verifyRounds, type Hashes, type RoundsFile } from '../../../domain/faucet';
import { verifySnapshot, type Digest, type PublishedSnapshot } from '../../../domain/liabilities';
import { minorToDecimal } from '../../../domain/money';

/**
 * Checks anyone can run on what Muntly publishes, with the same code the browser runs
 * (domain/liabilities.ts, domain/faucet.ts) and Node's own SHA-256; nothing here talks to Muntly
 * beyond fetching the file when given its address:
 *
 *   npm run verify:liabilities -- <file or URL>   a published snapshot (/proof/latest.json, …):
 *                                                 every node of every tree, the roots, the totals
 *   npm run verify:faucet -- <file or URL>        a range of rounds (/api/faucet/rounds/export?…):
 *                                                 every chain link, block mixed in and draw
 *
 * Exit code 0 when everything holds, 1 when something does not (each problem is printed), 2 when
 * the file cannot be read.
 */
const digest: Digest = (data) => createHash('sha256').update(data).digest();
const hashes: Hashes = {
  sha256Hex: (data) => createHash('sha256').update(data, 'utf8').digest('hex'),
  hmacSha256Hex: (keyHex, message) => createHmac('sha256', Buffer.from(keyHex, 'hex')).update(message, 'utf8').digest('hex'),
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

/** Checks a published snapshot; returns whether it holds, printing what it checked. */
export function checkLiabilities(snapshot: PublishedSnapshot, print: (line: string) => void = console.log): boolean {
  const result = verifySnapshot(snapshot, digest);
  print(`Snapshot ${snapshot.snapshotId ?? '?'} taken ${snapshot.takenAt ?? '?'}`);
  for (const problem of result.problems) print(`FAIL  ${problem}`);
  if (result.trees.length === 0 && result.problems.length === 0) print('ok    no trees: nobody held anything, nothing is owed');
  for (const [i, tree] of result.trees.entries()) {
    const decimals = Number.isInteger(snapshot.trees[i]?.decimals) ? snapshot.trees[i]!.decimals : 0;
    const total = tree.total === null ? '' : `, total owed ${minorToDecimal(BigInt(tree.total), decimals)} ${tree.currency}`;
    print(`${tree.ok ? 'ok  ' : 'FAIL'}  ${tree.currency}: ${tree.leafCount} leaves, every node the sum and hash of its children, none negative${total}`);
    for (const problem of tree.problems) print(`        ${problem}`);
  }
  print(result.ok ? 'The published trees hold.' : 'The published trees do NOT hold.');
  return result.ok;
}

/** Checks a range of faucet rounds; returns whether all hold, printing each round. */
export function checkFaucet(file: RoundsFile, print: (line: string) => void = console.log): boolean {
  const result = verifyRounds(file, hashes);
  for (const problem of result.problems) print(`FAIL  ${problem}`);
  for (const round of result.rounds) {
    const link = round.verification?.previousMatches === null ? 'seed hash fits (the round before is not in this file)' : 'chain link, seed hash';
    print(`${round.ok ? 'ok  ' : 'FAIL'}  round ${round.id}: ${round.ok ? `${link}, block mixed in, draw` : round.problems.join('; ')}`);
  }
  const skipped = (Array.isArray(file?.rounds) ? file.rounds.length : 0) - result.rounds.length;
  if (skipped > 0) print(`      (${skipped} round(s) not announced: nothing to check yet)`);
  print(result.ok ? `All ${result.rounds.length} announced round(s) hold.` : 'Some rounds do NOT hold.');
  return result.ok;
}

export async function main(args: string[]): Promise<number> {
  const [what, source] = args;
  try {
    if (what === 'liabilities') return checkLiabilities((await load(source)) as PublishedSnapshot) ? 0 : 1;
    if (what === 'faucet') return checkFaucet((await load(source)) as RoundsFile) ? 0 : 1;
    throw new UsageError('Usage: npm run verify:liabilities -- <file or URL> | npm run verify:faucet -- <file or URL>');
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
