import '../../../../__tests__/support/polyfills';
import { screen, within } from '@testing-library/react';
import * as React from 'react';
import { LIABILITIES_FORMAT } from '#domain/liabilities';
import { htmlInLanguage, loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { ProofOfSolvency } from '../components/proof-of-solvency';
import type { ControlProof, Reserves, SnapshotsResponse } from '#domain/contracts/liabilities';

const en = loadResources('en').proof as any;
const TAKEN = '2026-11-24T06:30:00.000Z';
const DIGEST = 'ab'.repeat(32);

const SNAPSHOTS: SnapshotsResponse = {
  snapshots: [
    {
      snapshotId: 12,
      takenAt: TAKEN,
      format: LIABILITIES_FORMAT,
      digest: DIGEST,
      file: '/proof/12.json',
      currencies: [
        {
          currency: 'BTC',
          decimals: 8,
          rootHash: 'aa'.repeat(32),
          total: '1.5',
          leafCount: 4096,
          held: '1.52',
          difference: '0.02',
          height: 812_345,
          controlled: 1,
          file: '/proof/12/BTC.json',
        },
        {
          currency: 'DOGE',
          decimals: 8,
          rootHash: 'bb'.repeat(32),
          total: '427.5',
          leafCount: 4096,
          held: '400',
          difference: '-27.5',
          height: 5_100_200,
          controlled: 0,
          file: '/proof/12/DOGE.json',
        },
      ],
    },
  ],
  next: null,
};
const RESERVES: Reserves = {
  source: 'simulated-chain',
  currencies: [
    {
      currency: 'BTC',
      height: 812_345,
      blockHash: 'cd'.repeat(32),
      addresses: [
        { address: 'bc1qhouse0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', role: 'change', balance: '1.5' },
        { address: 'bc1qhouse1bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', role: 'change', balance: '0' },
      ],
      depositAddresses: { count: 3, balance: '0.02' },
      held: '1.52',
    },
    {
      currency: 'DOGE',
      height: 5_100_200,
      blockHash: null,
      addresses: [],
      depositAddresses: { count: 1, balance: '400' },
      held: '400',
    },
    // Nothing owed, nothing held: not worth a section.
    {
      currency: 'LTC',
      height: 3_000_000,
      blockHash: null,
      addresses: [],
      depositAddresses: { count: 0, balance: '0' },
      held: '0',
    },
  ],
};
const CONTROLS: ControlProof[] = [
  {
    currency: 'BTC',
    address: 'bc1qhouse0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    scheme: 'bip322-simple',
    message: 'Muntly controls …',
    signature: 'AkcwRAIg…',
    publicKey: null,
  },
];

function mockApi(routes: Record<string, () => unknown>) {
  const fetch = jest.fn(async (url: string) => {
    const key = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
    const body = routes[key]?.();
    return {
      ok: body !== undefined,
      status: body === undefined ? 404 : 200,
      json: async () => body ?? { error: { code: 'not_found' } },
    };
  });
  (globalThis as { fetch: unknown }).fetch = fetch;
  return fetch;
}
const published = () => ({ format: LIABILITIES_FORMAT, snapshotId: 12, takenAt: TAKEN, trees: [], reserves: RESERVES });

describe('the public proof of solvency (/proof/)', () => {
  it('shows the latest snapshot: owed, held, the difference marked, block heights, house addresses with their proofs of control, deposit addresses counted (English)', async () => {
    const fetch = mockApi({
      '/api/liabilities': () => SNAPSHOTS,
      '/api/liabilities/12': published,
      '/api/liabilities/12/control': () => ({ proofs: CONTROLS }),
    });
    renderInLanguage(<ProofOfSolvency language="en" />, 'en', '/proof/');
    expect(await screen.findByRole('heading', { name: 'Latest snapshot: number 12' })).toBeInTheDocument();
    expect(fetch.mock.calls[0]![0]).toMatch(/\/api\/liabilities\?limit=1$/);
    expect(screen.getByText('Taken on 24 November 2026 at 06:30:00 UTC.')).toBeInTheDocument();
    expect(screen.getByText(DIGEST)).toBeInTheDocument();

    const rows = within(screen.getAllByRole('table')[0]!).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('BTC1.5 BTC1.52 BTC✓ 0.02 BTC (covered)812,3451 of 2 addresses');
    expect(rows[2]).toHaveTextContent('DOGE427.5 DOGE400 DOGE⚠ -27.5 DOGE (shortfall)5,100,200no address listed');
    expect(
      within(rows[2]!)
        .getByText(/-27\.5 DOGE/)
        .closest('.solvency-short'),
    ).not.toBeNull();
    expect(
      within(rows[1]!)
        .getByText(/0\.02 BTC/)
        .closest('.solvency-covered'),
    ).not.toBeNull();

    // Address by address: the signed one names its scheme, the other says it has no proof yet.
    const btc = screen.getByRole('region', { name: 'BTC' });
    expect(btc).toHaveTextContent('Read at block 812,345:');
    const [signed, unsigned] = within(btc).getAllByRole('listitem');
    expect(signed).toHaveTextContent(
      "bc1qhouse0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaMuntly's address1.5 BTC✓ proof of control: bip322-simple",
    );
    expect(unsigned).toHaveTextContent('no proof of control yet');
    expect(btc).toHaveTextContent(
      "Customers' deposit addresses holding coins: 3, together 0.02 BTC (counted, not listed).",
    );
    expect(screen.getByRole('region', { name: 'DOGE' })).toHaveTextContent(en.public.noAddresses);
    expect(screen.queryByRole('region', { name: 'LTC' })).toBeNull();

    // The files, and how to check them without Muntly.
    expect(screen.getByRole('link', { name: '/proof/12.json' })).toHaveAttribute('href', '/proof/12.json');
    expect(screen.getByRole('link', { name: '/proof/latest.json' })).toHaveAttribute('href', '/proof/latest.json');
    expect(screen.getByRole('link', { name: '/proof/12/control.json' })).toHaveAttribute(
      'href',
      '/proof/12/control.json',
    );
    expect(
      screen.getByText(/npm run verify:liabilities -- http:\/\/localhost:8000\/proof\/12\.json/),
    ).toBeInTheDocument();
    expect(screen.getByText(/python3 tools\/verify_proof\.py snapshot\.json/)).toBeInTheDocument();
    const format = screen.getByText('docs/proof-format.md');
    expect(format.tagName).toBe('CODE');
    expect(format.parentElement).toHaveTextContent(
      'The format, byte by byte, with test vectors: docs/proof-format.md in the repository.',
    );
    expect(screen.getByRole('link', { name: en.public.walletLink })).toHaveAttribute('href', '/wallet/proof/');
    expect(screen.getByRole('heading', { name: en.explain.heading })).toBeInTheDocument();
  });

  it('writes numbers and the instant the Russian way, in Russian words', async () => {
    mockApi({
      '/api/liabilities': () => SNAPSHOTS,
      '/api/liabilities/12': published,
      '/api/liabilities/12/control': () => ({ proofs: CONTROLS }),
    });
    renderInLanguage(<ProofOfSolvency language="ru" />, 'ru', '/ru/proof/');
    expect(await screen.findByRole('heading', { name: 'Последний снимок: №\u00a012' })).toBeInTheDocument();
    expect(screen.getByText('Сделан 24 ноября 2026 г. в 06:30:00 UTC.')).toBeInTheDocument();
    const rows = within(screen.getAllByRole('table')[0]!).getAllByRole('row');
    expect(rows[2]).toHaveTextContent(/⚠ -27,5 DOGE \(недостача\)/);
    expect(rows[1]).toHaveTextContent('адресов: 1 из 2');
    expect(screen.getByRole('link', { name: 'доказательство в вашем кошельке' })).toHaveAttribute(
      'href',
      '/ru/wallet/proof/',
    );
  });

  it('says when nothing has been published yet, and when the API does not answer (German)', async () => {
    mockApi({ '/api/liabilities': () => ({ snapshots: [], next: null }) });
    const { unmount } = renderInLanguage(<ProofOfSolvency language="de" />, 'de', '/de/proof/');
    expect(await screen.findByText('Es wurde noch keine Momentaufnahme veröffentlicht.')).toBeInTheDocument();
    unmount();
    mockApi({});
    renderInLanguage(<ProofOfSolvency language="de" />, 'de', '/de/proof/');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Die neueste Momentaufnahme konnte nicht geladen werden.',
    );
  });

  it('is built with the explanation and the way to check it, before any data arrives', () => {
    const html = htmlInLanguage(<ProofOfSolvency language="en" />, 'en', '/proof/');
    expect(html).toContain(en.public.loading);
    expect(html).toContain(en.explain.heading);
    expect(html).toContain('npm run verify:liabilities -- http://localhost:8000/proof/latest.json');
  });
});
