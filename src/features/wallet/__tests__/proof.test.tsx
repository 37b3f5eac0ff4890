import '../../../../__tests__/support/polyfills';
import { screen, within } from '@testing-library/react';
import * as React from 'react';
import {
  buildTree,
  LIABILITIES_FORMAT,
  ownerCommitment,
  proofPath,
  publishTree,
  verifyInclusion,
} from '#domain/liabilities';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { myProofFile, Proof } from '../components/proof';
import type { MyProofResponse, Reserves, SnapshotsResponse } from '#domain/contracts/liabilities';

// A logged-in user: the session hands out one stable function, as the SDK's does.
jest.mock('../../../app/session', () => {
  const session = { getAccessTokenSilently: async () => 'token' };
  return { useSession: () => session };
});

const en = loadResources('en').wallet as any;
const enProof = loadResources('en').proof as any;

/** A published BTC tree of three owners; "acct-me" is owed 0.12345678 BTC, bound to the nonce below. */
const OWNER = 'acct-me';
const nonce = new Uint8Array(32).fill(9);
const nonceHex = Buffer.from(nonce).toString('hex');
const built = buildTree('BTC', [
  { owner: OWNER, amount: 12_345_678n, commitment: ownerCommitment(OWNER, nonce) },
  { owner: 'b', amount: 150_000_000n, commitment: ownerCommitment('b', new Uint8Array(32).fill(1)) },
  { owner: 'order:7', amount: 5n, commitment: ownerCommitment('order:7', new Uint8Array(32).fill(2)) },
]);
const tree = publishTree(built, 8);
const mine = built.leavesOf
  .get(OWNER)!
  .map((leaf) => ({ index: leaf.index, value: leaf.value.toString(), path: proofPath(built, leaf.index) }));
const TAKEN = '2026-11-24T00:00:00.000Z';
const PROOFS: MyProofResponse = {
  proofs: [
    {
      snapshotId: 3,
      takenAt: TAKEN,
      owner: OWNER,
      nonce: nonceHex,
      currencies: [
        {
          currency: 'BTC',
          decimals: 8,
          balance: '0.12345678',
          root: tree.root,
          leafCount: tree.leafCount,
          file: '/proof/3/BTC.json',
          leaves: mine,
        },
      ],
    },
  ],
  next: null,
};
const summary = (held: string, difference: string): SnapshotsResponse => ({
  snapshots: [
    {
      snapshotId: 3,
      takenAt: TAKEN,
      format: LIABILITIES_FORMAT,
      digest: 'ab'.repeat(32),
      file: '/proof/3.json',
      currencies: [
        {
          currency: 'BTC',
          decimals: 8,
          rootHash: tree.root.hash,
          total: '1.62345683',
          leafCount: tree.leafCount,
          held,
          difference,
          height: 812_345,
          controlled: 1,
          file: '/proof/3/BTC.json',
        },
      ],
    },
  ],
  next: null,
});
const RESERVES: Reserves = {
  source: 'simulated-chain',
  currencies: [
    {
      currency: 'BTC',
      height: 812_345,
      blockHash: 'cd'.repeat(32),
      addresses: [
        { address: 'bc1qhouse0', role: 'change', balance: '1.5' },
        { address: 'bc1qhouse1', role: 'change', balance: '0.1' },
      ],
      depositAddresses: { count: 2, balance: '0.02345683' },
      held: '1.62345683',
    },
  ],
};
const published = (trees = [tree]) => ({
  format: LIABILITIES_FORMAT,
  snapshotId: 3,
  takenAt: TAKEN,
  trees,
  reserves: RESERVES,
});

function mockApi(routes: Record<string, () => unknown>) {
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
    const key = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
    const body = routes[key]?.();
    return {
      ok: body !== undefined,
      status: body === undefined ? 404 : 200,
      headers: { get: () => 'application/json' },
      json: async () => body ?? { error: { code: 'not_found', message: '' } },
    };
  });
}

describe('Proof of liabilities in the wallet', () => {
  it('follows each of my leaves, bound to my account id and nonce, to the published root, and shows owed against held (English)', async () => {
    mockApi({
      '/api/wallet/proof': () => PROOFS,
      '/api/liabilities': () => summary('1.62345683', '0'),
      '/api/liabilities/3': () => published(),
    });
    renderInLanguage(<Proof />);
    const result = await screen.findByTestId('proof-result-BTC');
    expect(result).toHaveTextContent(`✓ ${en.proof.result.ok.replace('{{currency}}', 'BTC')}`);
    expect(screen.getByRole('heading', { name: 'Snapshot 3 of 24 November 2026 at 00:00:00 UTC' })).toBeInTheDocument();
    expect(screen.getByText(OWNER)).toBeInTheDocument();
    expect(screen.getByText(nonceHex)).toBeInTheDocument();
    const region = screen.getByRole('region', { name: /BTC: Muntly owed you 0\.12345678 BTC/ });
    const steps = within(region).getAllByRole('listitem');
    expect(steps[0]).toHaveTextContent(
      `✓ The top of the tree your proof leads to is the published one: 1.62345683 BTC owed to all customers, in a tree of 4,096 leaves`,
    );
    expect(steps[0]).toHaveTextContent(tree.root.hash);
    expect(steps[1]).toHaveTextContent(
      `✓ Your leaves: ${mine.length}, adding up to 0.12345678 BTC, what Muntly owed you.`,
    );
    expect(within(steps[1]!).getAllByRole('row')).toHaveLength(mine.length + 1);
    expect(steps[2]).toHaveTextContent('✓ From each of your leaves up to the top (12 levels)');
    // Each leaf's path, step by step, in a table that opens on demand: 12 levels for 4,096 leaves.
    const paths = within(steps[2]!).getAllByRole('group');
    expect(paths).toHaveLength(mine.length);
    expect(within(paths[0]!).getAllByRole('row')).toHaveLength(13);
    expect(steps[3]).toHaveTextContent(`✓ ${en.proof.steps.distinct}`);
    // Owed against held, per currency: the difference, the block height, the proofs of control.
    const table = within(screen.getByRole('region', { name: en.proof.reserves.heading })).getByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('BTC1.62345683 BTC1.62345683 BTC✓ 0 BTC (covered)812,3451 of 2 addresses');
    expect(within(row).getByText(/0 BTC/).closest('.solvency-covered')).not.toBeNull();
    // What it proves and what it does not; the way to the public page; the files.
    expect(screen.getByRole('heading', { name: enProof.explain.heading })).toBeInTheDocument();
    expect(screen.getByText(enProof.explain.notCount)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: en.proof.publicPage })).toHaveAttribute('href', '/proof/');
    expect(screen.getByRole('link', { name: '3.json' })).toHaveAttribute('href', '/proof/3.json');
  });

  it('downloads my proof as a file the verifier tools can check on their own', async () => {
    mockApi({
      '/api/wallet/proof': () => PROOFS,
      '/api/liabilities': () => summary('1.62345683', '0'),
      '/api/liabilities/3': () => published(),
    });
    const blobs: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: jest.fn((blob: Blob) => (blobs.push(blob), 'blob:proof')),
      revokeObjectURL: jest.fn(),
    });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderInLanguage(<Proof />);
    await screen.findByTestId('proof-result-BTC');
    screen.getByRole('button', { name: en.proof.downloadMine }).click();
    expect(click).toHaveBeenCalled();
    expect(click.mock.contexts[0]).toHaveProperty('download', 'muntly-proof-3-mine.json');
    const file = JSON.parse(myProofFile(PROOFS.proofs[0]!));
    expect(file).toMatchObject({ format: LIABILITIES_FORMAT, snapshotId: 3, owner: OWNER, nonce: nonceHex });
    // Everything a verifier needs is in it: with the published root, it checks.
    expect(verifyInclusion(file.currencies[0], file.owner, file.nonce, tree).ok).toBe(true);
    expect(blobs).toHaveLength(1);
    click.mockRestore();
  });

  it('fails for someone else’s account id: the leaves are bound to their owner (German)', async () => {
    const stolen = { ...PROOFS, proofs: [{ ...PROOFS.proofs[0]!, owner: 'acct-other' }] };
    mockApi({
      '/api/wallet/proof': () => stolen,
      '/api/liabilities': () => summary('1.62345683', '0'),
      '/api/liabilities/3': () => published(),
    });
    renderInLanguage(<Proof />, 'de', '/de/wallet/proof/');
    const de = loadResources('de').wallet as any;
    expect(await screen.findByTestId('proof-result-BTC')).toHaveTextContent(
      `✗ ${de.proof.result.bad.replace('{{currency}}', 'BTC')}`,
    );
  });

  it('says the check failed when the published root is not the one my proof leads to, and marks a shortfall (French)', async () => {
    const other = publishTree(
      buildTree('BTC', [{ owner: 'x', amount: 99n, commitment: ownerCommitment('x', new Uint8Array(32)) }]),
      8,
    );
    mockApi({
      '/api/wallet/proof': () => PROOFS,
      '/api/liabilities': () => summary('1.5', '-0.12345683'),
      '/api/liabilities/3': () => published([other]),
    });
    renderInLanguage(<Proof />, 'fr', '/fr/wallet/proof/');
    expect(await screen.findByTestId('proof-result-BTC')).toHaveTextContent(
      '✗ La vérification a échoué : rien ne prouve que ce que Muntly vous devait en BTC soit compté.',
    );
    const short = screen.getByText(/-0,12345683/).closest('.solvency-short');
    expect(short).toHaveTextContent('⚠ -0,12345683 BTC (déficit)');
  });

  it('says when the published snapshot has no tree of a currency of mine (Russian)', async () => {
    mockApi({
      '/api/wallet/proof': () => PROOFS,
      '/api/liabilities': () => summary('1.62345683', '0'),
      '/api/liabilities/3': () => published([]),
    });
    renderInLanguage(<Proof />, 'ru', '/ru/wallet/proof/');
    expect(await screen.findByTestId('proof-result-BTC')).toHaveTextContent(
      '✗ В опубликованном снимке нет дерева для BTC',
    );
    expect(screen.getByRole('heading', { name: 'BTC: Muntly был должен вам 0,12345678 BTC' })).toBeInTheDocument();
  });

  it('says when no snapshot includes the wallet yet (Dutch)', async () => {
    mockApi({
      '/api/wallet/proof': () => ({ proofs: [], next: null }),
      '/api/liabilities': () => ({ snapshots: [], next: null }),
    });
    renderInLanguage(<Proof />, 'nl', '/nl/wallet/proof/');
    expect(
      await screen.findByText(
        'Nog geen momentopname bevat je portemonnee. Muntly publiceert er elke dag een, en de volgende bevat hem.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: (loadResources('nl').wallet as any).proof.publicPage })).toHaveAttribute(
      'href',
      '/nl/proof/',
    );
  });
});
