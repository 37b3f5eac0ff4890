/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyInclusion, verifySnapshot, type PublishedSnapshot } from '#domain/liabilities';
import { databaseKinds, testApp, testUser, type TestApp, type TestUser } from './helpers';
import type { MyProof, MyProofResponse } from '#domain/contracts/liabilities';

/**
 * Issue 32, "Anyone can verify": tools/verify_proof.py, written from docs/proof-format.md with
 * Python's standard library, and Muntly's own checks (domain/liabilities.ts, what the browser and
 * `npm run verify:liabilities` run) agree on a fresh snapshot, on every user's proof of it, and on
 * forgeries of both.
 */
const SCRIPT = path.join(__dirname, '../../tools/verify_proof.py');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-proof-'));
let files = 0;
const write = (content: unknown) => {
  const file = path.join(dir, `${files++}.json`);
  fs.writeFileSync(file, JSON.stringify(content));
  return file;
};

type PythonResult = {
  ok: boolean;
  digest: string | null;
  totals: Record<string, string | null>;
  proofs: Record<string, { ok: boolean; amount: string; problems?: string[] }>;
};
function python(snapshot: unknown, proof?: unknown): PythonResult {
  const args = [SCRIPT, '--json', write(snapshot), ...(proof ? [write(proof)] : [])];
  try {
    return JSON.parse(execFileSync('python3', args, { encoding: 'utf8' })) as PythonResult;
  } catch (error) {
    // Exit code 1: something does not hold; the JSON is still on stdout.
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout) as PythonResult;
    throw error;
  }
}

/** The same questions answered by Muntly's own code. */
function ours(snapshot: PublishedSnapshot, proof?: MyProof): PythonResult {
  const check = verifySnapshot(snapshot);
  const result: PythonResult = {
    ok: check.ok,
    digest: check.digest,
    totals: Object.fromEntries(check.trees.map((t) => [t.currency, t.total])),
    proofs: {},
  };
  if (proof && check.ok) {
    for (const mine of proof.currencies) {
      const tree = snapshot.trees.find((t) => t.currency === mine.currency)!;
      const inclusion = verifyInclusion(mine, proof.owner, proof.nonce, tree);
      result.proofs[mine.currency] = { ok: inclusion.ok, amount: inclusion.amount, problems: inclusion.problems };
      result.ok &&= inclusion.ok;
    }
  }
  return result;
}

it('the Python verifier reproduces every test vector of docs/proof-vectors.json', () => {
  expect(
    execFileSync('python3', [SCRIPT, '--vectors', path.join(__dirname, '../../docs/proof-vectors.json')], {
      encoding: 'utf8',
    }),
  ).toContain('All test vectors hold.');
});

describe.each(databaseKinds())('two independent verifiers of a fresh snapshot (%s)', (kind) => {
  let t: TestApp;
  const users: TestUser[] = [];
  beforeAll(async () => {
    t = await testApp(kind);
    users.push(await testUser(t, 'v-one@muntly.test', { address: 'BTC', deposit: '0.5' }));
    users.push(await testUser(t, 'v-two@muntly.test', { address: 'BTC', deposit: '0.00000003' }));
    users.push(await testUser(t, 'v-three@muntly.test', { address: 'ETH', deposit: '25.000000000000000001' }));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/ops/liabilities/publish', headers: t.admin })).statusCode,
    ).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it('agree on the snapshot, its digest and totals, and on every user’s proof', async () => {
    const snapshot = (await t.app.inject({ url: '/proof/latest.json' })).json() as PublishedSnapshot;
    const theirs = python(snapshot);
    expect(theirs).toEqual({ ...ours(snapshot), problems: [] });
    expect(theirs.ok).toBe(true);
    expect(theirs.totals).toEqual({ BTC: '50000003', ETH: '25000000000000000001' });
    for (const user of users) {
      const [proof] = (
        (await t.app.inject({ url: '/api/wallet/proof', headers: user.headers })).json() as MyProofResponse
      ).proofs;
      const result = python(snapshot, proof);
      expect(result.ok).toBe(true);
      expect(result.proofs).toEqual(ours(snapshot, proof).proofs);
    }
  });

  it('agree in refusing forgeries: a raised leaf, someone else’s leaves, a changed total, another digest', async () => {
    const snapshot = (await t.app.inject({ url: '/proof/latest.json' })).json() as PublishedSnapshot;
    const [proof] = (
      (await t.app.inject({ url: '/api/wallet/proof', headers: users[0]!.headers })).json() as MyProofResponse
    ).proofs;
    const btc = proof!.currencies[0]!;
    const raised: MyProof = {
      ...proof!,
      currencies: [
        {
          ...btc,
          leaves: [{ ...btc.leaves[0]!, value: String(BigInt(btc.leaves[0]!.value) + 1n) }, ...btc.leaves.slice(1)],
        },
      ],
    };
    const stolen: MyProof = {
      ...proof!,
      owner: ((await t.app.inject({ url: '/api/wallet/proof', headers: users[1]!.headers })).json() as MyProofResponse)
        .proofs[0]!.owner,
    };
    for (const forged of [raised, stolen]) {
      expect(python(snapshot, forged).ok).toBe(false);
      expect(ours(snapshot, forged).ok).toBe(false);
    }
    const lowered = structuredClone(snapshot);
    lowered.trees[0]!.root.sum = String(BigInt(lowered.trees[0]!.root.sum) - 1n);
    // A lowered total is a statement of its own: it holds as a statement, with another digest, and no proof leads to it.
    expect(python(lowered).digest).not.toBe(python(snapshot).digest);
    expect(python(lowered).digest).toBe(ours(lowered).digest);
    expect(python(lowered, proof).ok).toBe(false);
    expect(ours(lowered, proof).ok).toBe(false);
    const padded = structuredClone(snapshot);
    padded.trees[0]!.leafCount = 4095;
    expect([python(padded).ok, ours(padded).ok]).toEqual([false, false]);
  });
});
