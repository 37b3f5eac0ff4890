import '../../../../__tests__/support/polyfills';
import { fireEvent, screen, within } from '@testing-library/react';
import * as React from 'react';
import { draw, entriesHashOf, hashDown, ROUNDS_FORMAT, seedHashOf, ticketOf, type RoundsFile } from '#domain/faucet';
import { renderInLanguage } from '../../../../__tests__/support/render';
import { RoundHistory } from '../components/round-history';
import type { Round } from '../api/faucet';

/** Rounds 1..n drawn honestly from one seed chain, each with two players and a block mixed in. */
const TOP = '7a'.repeat(32);
function honest(id: number): Round {
  const seed = hashDown(TOP, 20 - id);
  // An entry from before salts (the old ticket) and a salted one: the history checks both alike.
  const tickets = [ticketOf(id, 'bc1qone'), ticketOf(id, 'bc1qtwo', String(id).padStart(32, '0'))];
  const mix = `${id % 10}`.repeat(64);
  const result = draw(seed, id, tickets, mix);
  return {
    id,
    state: 'winner_announced',
    gameOverReason: null,
    endsAt: null,
    schedule: { startsAt: '2026-11-24T10:00:00.000Z', opensAt: null, closesAt: null, drawsAt: null, endsAt: null },
    serverTime: '2026-11-24T12:00:00.000Z',
    announcedAt: `2026-11-24T10:${String(id).padStart(2, '0')}:00.000Z`,
    seedHash: seedHashOf(seed),
    seed,
    seedChain: { id: 1, index: id, anchor: hashDown(TOP, 20), previousRoundId: id > 1 ? id - 1 : null },
    mix: { source: 'simulated-chain', height: id, hash: mix },
    entriesHash: result.entriesHash,
    reward: { eur: '0.02', amounts: {} },
    playerCount: 2,
    players: tickets.map((ticket) => ({ ticket, address: 'bc1q…', currency: 'BTC' })),
    winner: { ticket: result.ticket, address: 'bc1qon…', currency: 'BTC', amount: '0.00000025', rate: '80000' },
    paused: false,
  };
}

function mockApi(rounds: Round[]) {
  const calls: string[] = [];
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    calls.push(`${pathname}${url.includes('?') ? `?${searchParams}` : ''}`);
    let body: unknown;
    if (pathname === '/api/faucet/rounds') {
      const before = Number(searchParams.get('before') ?? Infinity);
      const older = rounds.filter((r) => r.id < before).sort((a, b) => b.id - a.id);
      const page = older.slice(0, Number(searchParams.get('limit')));
      body = { rounds: page, next: older.length > page.length ? page[page.length - 1]!.id : null };
    } else {
      const round = rounds.find((r) => `/api/faucet/rounds/${r.id}` === pathname);
      body = round ? { round } : undefined;
    }
    return {
      ok: body !== undefined,
      status: body ? 200 : 404,
      headers: { get: () => 'application/json' },
      json: async () => body ?? { error: { code: 'not_found', message: '' } },
    };
  });
  return calls;
}

const rows = () => screen.getAllByRole('row').slice(1);

/** Rounds as the export writes them (GET /api/faucet/rounds/export). */
function exported(rounds: Round[]): RoundsFile {
  return {
    format: ROUNDS_FORMAT,
    chains: [{ id: 1, anchor: hashDown(TOP, 20), length: 20, publishedAt: '2026-11-24T09:00:00.000Z' }],
    rounds: rounds.map((r) => ({
      id: r.id,
      state: r.state,
      announcedAt: r.announcedAt,
      seedChain: { id: 1, index: r.seedChain!.index },
      seedHash: r.seedHash,
      seed: r.seed,
      mix: r.mix,
      entriesHash: r.entriesHash,
      tickets: r.players.map((p) => p.ticket),
      winnerTicket: r.winner?.ticket ?? null,
    })),
  };
}

async function checkFile(content: string) {
  const file = new File([content], 'rounds.json', { type: 'application/json' });
  Object.defineProperty(file, 'text', { value: async () => content });
  fireEvent.change(await screen.findByLabelText(/Check a downloaded file here/), { target: { files: [file] } });
}

describe('RoundHistory', () => {
  it('checks a downloaded file in the browser: an honest one holds, a changed one names its rounds, another file is no rounds file', async () => {
    const rounds = [1, 2, 3].map(honest);
    mockApi(rounds);
    renderInLanguage(<RoundHistory />);
    const file = exported(rounds);
    await checkFile(JSON.stringify(file));
    expect(await screen.findByText('✓ Drawn rounds in this file: 3. Each holds.')).toBeInTheDocument();
    // Round 2's winner swapped for the other ticket: that round, and only it, fails.
    const other = file.rounds[1]!.tickets.find((ticket) => ticket !== file.rounds[1]!.winnerTicket)!;
    await checkFile(
      JSON.stringify({ ...file, rounds: file.rounds.map((r) => (r.id === 2 ? { ...r, winnerTicket: other } : r)) }),
    );
    expect(await screen.findByText('✗ These rounds do NOT hold: 2.')).toBeInTheDocument();
    await checkFile('{"orders": []}');
    expect(await screen.findByText('This is not a file of Muntly faucet rounds.')).toBeInTheDocument();
  });

  it('lists the rounds newest first, checks each in the browser, pages back and offers the page as a file (English)', async () => {
    const calls = mockApi(Array.from({ length: 12 }, (_, i) => honest(i + 1)));
    renderInLanguage(<RoundHistory />, 'en', '/faucet/history/');
    await screen.findByRole('heading', { name: 'Rounds 3 to 12' });
    await screen.findAllByText('✓ holds');
    expect(rows().map((row) => within(row).getByRole('rowheader').textContent!.match(/\d+/)![0])).toEqual([
      '12',
      '11',
      '10',
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
    ]);
    for (const row of rows()) expect(row).toHaveTextContent('✓ holds');
    // Round 3's link goes to round 2, which is not on this page: asked from the API.
    expect(calls).toContain('/api/faucet/rounds/2');
    expect(screen.getByRole('link', { name: 'Download these rounds (JSON)' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/api\/faucet\/rounds\/export\?from=3&to=12$/),
    );
    // No command to run: the downloaded file is checked on the page, and the format is documented.
    expect(document.body.textContent).not.toMatch(/npm|npx/);
    expect(screen.getByText('docs/faucet-format.md')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Older rounds' }));
    await screen.findByRole('heading', { name: 'Rounds 1 to 2' });
    await screen.findAllByText('✓ holds');
    expect(rows()).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Older rounds' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Newer rounds' }));
    await screen.findByRole('heading', { name: 'Rounds 3 to 12' });
  });

  it('marks a round whose seed does not link to the one before (Russian)', async () => {
    const rounds = Array.from({ length: 4 }, (_, i) => honest(i + 1));
    // Round 3 with a seed picked afterwards: its own hash fits, the link to round 2 does not.
    const picked = 'ee'.repeat(32);
    rounds[2] = {
      ...rounds[2]!,
      seed: picked,
      seedHash: seedHashOf(picked),
      entriesHash: entriesHashOf([...rounds[2]!.players.map((p) => p.ticket)].sort()),
    };
    mockApi(rounds);
    renderInLanguage(<RoundHistory />, 'ru', '/ru/faucet/history/');
    await screen.findAllByText('✓ сходится');
    const failing = rows().filter((row) => row.textContent!.includes('НЕ сходится'));
    expect(failing.map((row) => within(row).getByRole('rowheader').textContent!.match(/\d+/)![0])).toEqual(['4', '3']);
  });
});
