import '../../../../__tests__/support/polyfills';
import { screen, within } from '@testing-library/react';
import * as React from 'react';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { buildTree, LIABILITIES_FORMAT, proofPath, publishTree } from '../../../../domain/liabilities';
import { Proof } from '../components/proof';
import type { MyProofResponse, SnapshotsResponse } from '../../../../domain/contracts/liabilities';

// A logged-in user: the session hands out one stable function, as the SDK's does.
jest.mock('../../../components/session', () => {
  const session = { getAccessTokenSilently: async () => 'token' };
  return { useSession: () => session };
});

const en = loadResources('en').wallet as any;

/** A published BTC tree of three users; "me" holds 0.12345678 BTC with the nonce below. */
const nonce = new Uint8Array(32).fill(9);
const nonceHex = Buffer.from(nonce).toString('hex');
const built = buildTree('BTC', [
  { account: 'me', balance: 12_345_678n, nonce },
  { account: 'b', balance: 150_000_000n, nonce: new Uint8Array(32).fill(1) },
  { account: 'c', balance: 5n, nonce: new Uint8Array(32).fill(2) },
]);
const tree = publishTree(built, 8);
const mine = built.leavesOf.get('me')!.map((leaf) => ({ index: leaf.index, value: leaf.value.toString(), path: proofPath(tree.levels, leaf.index) }));
const PROOFS: MyProofResponse = {
  proofs: [
    {
      snapshotId: 3,
      takenAt: '2026-11-24T00:00:00.000Z',
      nonce: nonceHex,
      currencies: [{ currency: 'BTC', decimals: 8, balance: '0.12345678', root: tree.root, file: '/proof/3/BTC.json', leaves: mine }],
    },
  ],
  next: null,
};
const SNAPSHOTS: SnapshotsResponse = {
  snapshots: [
    {
      snapshotId: 3,
      takenAt: '2026-11-24T00:00:00.000Z',
      file: '/proof/3.json',
      currencies: [{ currency: 'BTC', decimals: 8, rootHash: tree.root.hash, total: '1.62345683', leafCount: tree.leafCount, held: '1.62345683', file: '/proof/3/BTC.json' }],
    },
  ],
  next: null,
};

function mockApi(routes: Record<string, () => unknown>) {
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
    const key = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
    const body = routes[key]?.();
    return { ok: body !== undefined, status: body === undefined ? 404 : 200, headers: { get: () => 'application/json' }, json: async () => body ?? { error: { code: 'not_found', message: '' } } };
  });
}

describe('Proof of liabilities', () => {
  it('recomputes the published tree and each of my leaves up to the root, and says my balance is counted (English)', async () => {
    mockApi({
      '/api/wallet/proof': () => PROOFS,
      '/api/liabilities': () => SNAPSHOTS,
      '/proof/3/BTC.json': () => ({ format: LIABILITIES_FORMAT, snapshotId: 3, takenAt: '2026-11-24T00:00:00.000Z', trees: [tree] }),
    });
    renderInLanguage(<Proof />);
    const result = await screen.findByTestId('proof-result-BTC');
    expect(result).toHaveTextContent(`✓ ${en.proof.result.ok.replace('{{currency}}', 'BTC')}`);
    expect(screen.getByRole('heading', { name: 'Snapshot 3 of 24 November 2026' })).toBeInTheDocument();
    expect(screen.getByText(nonceHex)).toBeInTheDocument();
    const steps = within(screen.getByRole('region', { name: /BTC: your balance was 0\.12345678 BTC/ })).getAllByRole('listitem');
    expect(steps[0]).toHaveTextContent(`✓ Your browser downloaded the published tree (${tree.leafCount} leaves)`);
    expect(steps[0]).toHaveTextContent('Total owed to all users: 1.62345683 BTC.');
    expect(steps[1]).toHaveTextContent(`✓ Your leaves: ${mine.length}, adding up to 0.12345678 BTC.`);
    expect(steps[3]).toHaveTextContent(tree.root.hash);
    // Owed against held, per currency.
    const table = within(screen.getByRole('region', { name: en.proof.reserves.heading })).getByRole('table');
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('BTC1.62345683 BTC1.62345683 BTC');
  });

  it('says the check failed when the published tree is not the one my proof leads to (French)', async () => {
    const other = publishTree(buildTree('BTC', [{ account: 'x', balance: 99n, nonce: new Uint8Array(32) }]), 8);
    mockApi({
      '/api/wallet/proof': () => PROOFS,
      '/api/liabilities': () => SNAPSHOTS,
      '/proof/3/BTC.json': () => ({ format: LIABILITIES_FORMAT, snapshotId: 3, takenAt: '2026-11-24T00:00:00.000Z', trees: [other] }),
    });
    renderInLanguage(<Proof />, 'fr', '/fr/wallet/proof/');
    expect(await screen.findByTestId('proof-result-BTC')).toHaveTextContent('✗ La vérification a échoué : rien ne prouve que votre solde en BTC soit compté.');
  });

  it('says when no snapshot includes the wallet yet (Dutch)', async () => {
    mockApi({ '/api/wallet/proof': () => ({ proofs: [], next: null }), '/api/liabilities': () => ({ snapshots: [], next: null }) });
    renderInLanguage(<Proof />, 'nl', '/nl/wallet/proof/');
    expect(await screen.findByText('Nog geen momentopname bevat je portemonnee. Muntly publiceert er elke dag een, en de volgende bevat hem.')).toBeInTheDocument();
  });
});
