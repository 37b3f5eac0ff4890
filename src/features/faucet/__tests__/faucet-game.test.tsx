import { TextEncoder } from 'node:util';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { draw, seedHashOf, ticketOf } from '#domain/faucet';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { RECONNECT_AFTER_MS, type Round } from '../api/faucet';
import { FaucetGame } from '../components/faucet-game';
import { FaucetPlay } from '../components/play';

// A logged-in player: the session hands out one stable function, as the SDK's does.
jest.mock('../../../app/session', () => {
  const session = {
    status: 'signed-in',
    user: {},
    getAccessTokenSilently: async () => 'token',
  };
  return { useSession: () => session };
});

// jsdom has no TextEncoder (browsers do); @noble/hashes needs it for the in-browser check.
Object.assign(globalThis, { TextEncoder });

/** A stand-in for the browser's EventSource: the test pushes the server's events. */
class FakeEventSource {
  static CLOSED = 2;
  static last: FakeEventSource;
  static opened = 0;
  readyState = 0;
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
    FakeEventSource.opened++;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  /** The server answered with an error status: the browser closes the stream for good. */
  refuse() {
    this.readyState = FakeEventSource.CLOSED;
    act(() => this.onerror!());
  }
  push(round: Round) {
    act(() => this.listeners.get('round')!({ data: JSON.stringify({ round }) } as MessageEvent<string>));
  }
}
Object.assign(globalThis, { EventSource: FakeEventSource });

const seed = '5e'.repeat(32);
const addresses = [
  'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC',
  'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe:12',
];
// Each entry's secret salt, which only its player is told (GET /api/faucet/me): the published
// tickets commit to them, so the public list cannot be matched against these addresses.
const salts = ['1f'.repeat(16), 'a0'.repeat(16), '3c'.repeat(16)];
const tickets = addresses.map((a, i) => ticketOf(7, a, salts[i]));
const block = '0b'.repeat(32);
const result = draw(seed, 7, tickets, block);

function round(overrides: Partial<Round> = {}): Round {
  const now = Date.now();
  return {
    id: 7,
    state: 'winner_announced',
    gameOverReason: null,
    endsAt: new Date(now + 65_000).toISOString(),
    schedule: {
      startsAt: new Date(now - 295_000).toISOString(),
      opensAt: new Date(now - 277_000).toISOString(),
      closesAt: new Date(now - 25_000).toISOString(),
      drawsAt: new Date(now - 7_000).toISOString(),
      endsAt: new Date(now + 65_000).toISOString(),
    },
    serverTime: new Date(now).toISOString(),
    announcedAt: new Date(now - 7_000).toISOString(),
    seedHash: seedHashOf(seed),
    seed,
    seedChain: { id: 1, index: 1, anchor: seedHashOf(seed), previousRoundId: null },
    mix: { source: 'simulated-chain', height: 12, hash: block },
    entriesHash: result.entriesHash,
    reward: { eur: '0.02', amounts: { BTC: '0.00000025', DOGE: '0.10526315' } },
    playerCount: 3,
    players: tickets.map((ticket, i) => ({
      ticket,
      address: `${addresses[i]!.slice(0, 6)}…`,
      currency: ['BTC', 'DOGE', 'XRP'][i]!,
    })),
    winner: { ticket: result.ticket, address: 'bc1qar…5mdq', currency: 'BTC', amount: '0.00000025', rate: '80000' },
    paused: false,
    ...overrides,
  };
}

describe('FaucetGame', () => {
  it('shows the live round with its countdown, reward and players (English)', () => {
    renderInLanguage(<FaucetGame />, 'en', '/faucet/');
    expect(screen.getByRole('status')).toHaveTextContent('Loading the current round…');
    FakeEventSource.last.push(
      round({
        state: 'registrations_open',
        seed: null,
        entriesHash: null,
        winner: null,
        playerCount: 1,
        players: round().players.slice(0, 1),
      }),
    );
    expect(FakeEventSource.last.url).toBe('/api/faucet/events');
    expect(screen.getByRole('heading', { name: /Round 7/ })).toBeInTheDocument();
    expect(screen.getByText('Registrations open')).toBeInTheDocument();
    expect(screen.getByText('Registrations close in')).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent(/^1:0[45]$/);
    expect(screen.getByText('1 player')).toBeInTheDocument();
    // Each amount with its currency's logo, inside the sentence.
    const rewards = screen.getByText((_, element) => element?.classList.contains('reward-rates') ?? false);
    expect(rewards).toHaveTextContent("At today's rates that is 0.00000025 BTC or 0.10526315 DOGE.");
    expect([...rewards.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      '/currency-icons/0.18.1/btc.svg',
      '/currency-icons/0.18.1/doge.svg',
    ]);
    expect(screen.getByText(/The seed is revealed together with the winner/)).toBeInTheDocument();
  });

  it('re-checks the announced draw in the browser, with Russian plural forms', async () => {
    renderInLanguage(<FaucetGame />, 'ru', '/ru/faucet/');
    FakeEventSource.last.push(round());
    expect(screen.getByText('Победитель объявлен')).toBeInTheDocument();
    expect(screen.getByText('3 участника')).toBeInTheDocument();
    const check = await screen.findByTestId('fairness-result');
    // Round 7 took the first seed of chain 1: the hash it published is the chain's anchor.
    expect(check).toHaveTextContent(
      '✓ SHA-256 этого значения совпадает с хешем, опубликованным в начале, а этот хеш — начало цепочки 1',
    );
    expect(check).toHaveTextContent(
      '✓ В розыгрыш подмешан хеш блока 12, которого ещё не было в момент закрытия регистрации',
    );
    expect(check).toHaveTextContent('✓ Ваш браузер повторил розыгрыш: учтены 3 билета');
    expect(screen.getByText('блок 12 в смоделированном блокчейне')).toBeInTheDocument();
  });

  /** The API's answer for round 6, the one before round 7 in its seed chain. */
  function previousRound(seed: string) {
    (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
      const body = url.endsWith('/api/faucet/rounds/6')
        ? { round: round({ id: 6, seed }) }
        : { error: { code: 'not_found', message: 'Not found.' } };
      return {
        ok: !('error' in body),
        status: 'error' in body ? 404 : 200,
        headers: { get: () => 'application/json' },
        json: async () => body,
      };
    });
  }
  const chained = { seedChain: { id: 1, index: 2, anchor: 'aa'.repeat(32), previousRoundId: 6 } };

  it('shows the chain link: this round’s published hash is the seed the round before it revealed (English)', async () => {
    previousRound(seedHashOf(seed));
    renderInLanguage(<FaucetGame />, 'en', '/faucet/');
    FakeEventSource.last.push(round(chained));
    const link = await screen.findByTestId('fairness-link');
    expect(link).toHaveTextContent(
      '✓ SHA-256 of this seed is the hash published at the start, and that hash is the seed round 6 revealed: this seed was fixed before the round began.',
    );
    expect(screen.getByText('the seed revealed by round 6')).toBeInTheDocument();
  });

  it('says so when the round before revealed another seed (German)', async () => {
    previousRound('cc'.repeat(32));
    renderInLanguage(<FaucetGame />, 'de', '/de/faucet/');
    FakeEventSource.last.push(round(chained));
    expect(
      await screen.findByText('✗ Der zu Beginn veröffentlichte Hash ist NICHT der zuvor bekannt gegebene Startwert.'),
    ).toBeInTheDocument();
  });

  it('says so when the announced winner is not what the draw gives (Ukrainian)', async () => {
    const wrong = tickets.find((t) => t !== result.ticket)!;
    renderInLanguage(<FaucetGame />, 'uk', '/uk/faucet/');
    FakeEventSource.last.push(
      round({ winner: { ticket: wrong, address: 'x', currency: 'BTC', amount: '0.00000025', rate: '80000' } }),
    );
    expect(screen.getByText('3 учасники')).toBeInTheDocument();
    const check = await screen.findByTestId('fairness-result');
    expect(check).toHaveTextContent('✗ Розіграш у вашому браузері НЕ дає оголошеного переможця.');
  });

  it('shows GAME OVER with its reason', () => {
    renderInLanguage(<FaucetGame />, 'de', '/de/faucet/');
    FakeEventSource.last.push(
      round({
        state: 'game_over',
        gameOverReason: 'budget',
        endsAt: null,
        seedHash: null,
        seed: null,
        winner: null,
        players: [],
        playerCount: 0,
      }),
    );
    expect(screen.getByText('Spiel beendet')).toBeInTheDocument();
    expect(screen.getByText(/Budget des Faucets ist vorerst aufgebraucht/)).toBeInTheDocument();
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('a round drawn without players does not announce a winner in its state (German)', () => {
    renderInLanguage(<FaucetGame />, 'de', '/de/faucet/');
    const de = loadResources('de').faucet as { states: Record<string, string>; winner: { nobody: string } };
    FakeEventSource.last.push(round({ winner: null, players: [], playerCount: 0 }));
    expect(screen.getByText(de.states.nobody_played!)).toBeInTheDocument();
    expect(screen.queryByText(de.states.winner_announced!)).toBeNull();
    expect(screen.getByText(de.winner.nobody)).toBeInTheDocument();
    // With a winner, the state says so.
    FakeEventSource.last.push(round());
    expect(screen.getByText(de.states.winner_announced!)).toBeInTheDocument();
  });

  it('lets a player choose the address to play with in the styled picker, each with its currency logo, and enters with it', async () => {
    const de = loadResources('de').faucet as any;
    const mine = [
      { id: 'a1', currency: 'BTC', address: addresses[0]!, label: null },
      { id: 'a2', currency: 'DOGE', address: addresses[1]!, label: 'Sparschwein' },
      { id: 'a3', currency: 'SOL', address: 'not-a-faucet-currency', label: null },
    ];
    const entered: unknown[] = [];
    (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
      const path = url.replace(/^https?:\/\/[^/]+/, '');
      const body =
        path === '/api/wallet/addresses'
          ? { addresses: mine }
          : path === '/api/faucet/me'
            ? { entries: [] }
            : (entered.push(JSON.parse(String(init.body))),
              { roundId: 7, ticket: tickets[1], address: addresses[1], currency: 'DOGE', salt: salts[1] });
      return { ok: true, status: 200, headers: { get: () => 'application/json' }, json: async () => body };
    });
    renderInLanguage(
      <FaucetGame>
        <FaucetPlay />
      </FaucetGame>,
      'de',
      '/de/faucet/',
    );
    FakeEventSource.last.push(round({ state: 'registrations_open', seed: null, winner: null }));
    // In the server's HTML a plain select; once React runs, the picker with the first address chosen.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: de.play.address })).toHaveValue(`${addresses[0]} (BTC)`),
    );
    const picker = screen.getByRole('combobox', { name: de.play.address });
    expect(picker.parentElement!.querySelector('img')).toHaveAttribute('src', '/currency-icons/0.18.1/btc.svg');
    // The label finds the address; only the faucet's currencies are offered.
    fireEvent.change(picker, { target: { value: 'spar' } });
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(1);
    expect(options[0]).toHaveTextContent(`${addresses[1]}DOGESparschwein`);
    expect(options[0]!.querySelector('img')).toHaveAttribute('src', '/currency-icons/0.18.1/doge.svg');
    fireEvent.keyDown(picker, { key: 'Enter' });
    expect(picker).toHaveValue(`${addresses[1]} (DOGE)`);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: de.play.submit })));
    expect(entered).toEqual([{ address: addresses[1] }]);
    // The list marks her ticket, recomputed from her address and the salt her entry was answered with.
    const rowsMarked = screen.getAllByRole('listitem').filter((li) => li.textContent?.includes(`(${de.players.you})`));
    expect(rowsMarked.map((li) => li.textContent)).toEqual([expect.stringContaining(round().players[1]!.address)]);
  });

  /** A logged-in player whose GET /api/faucet/me answers `entries`. */
  function playerApi(entries: object[]) {
    (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
      const path = url.replace(/^https?:\/\/[^/]+/, '');
      const body =
        path === '/api/wallet/addresses'
          ? { addresses: [{ id: 'a1', currency: 'BTC', address: addresses[0]!, label: null }] }
          : { entries };
      return { ok: true, status: 200, headers: { get: () => 'application/json' }, json: async () => body };
    });
  }
  const ownEntry = (overrides: object = {}) => ({
    roundId: 7,
    ticket: tickets[0],
    address: addresses[0],
    currency: 'BTC',
    salt: salts[0],
    createdAt: new Date().toISOString(),
    result: 'lost',
    amount: null,
    ...overrides,
  });
  const game = (language: 'en' | 'ru', path: string) =>
    renderInLanguage(
      <FaucetGame>
        <FaucetPlay />
      </FaucetGame>,
      language,
      path,
    );

  it('recomputes the player’s own ticket from their address and secret salt, finds it in the list, and repeats the draw over salted tickets (English)', async () => {
    playerApi([ownEntry()]);
    game('en', '/faucet/');
    FakeEventSource.last.push(round());
    const own = await screen.findByTestId('fairness-own');
    expect(own).toHaveTextContent(`✓ Your ticket, recomputed by your browser, is in the list: ${tickets[0]}`);
    expect(own).toHaveTextContent(`Your salt for this round (only you see it): ${salts[0]}`);
    // Nobody else's salt is known here: the page shows the player's own only.
    for (const other of salts.slice(1)) expect(document.body).not.toHaveTextContent(other!);
    expect(screen.getByText(addresses[0]!.slice(0, 6) + '…').parentElement).toHaveTextContent('(you)');
    expect(await screen.findByTestId('fairness-result')).toHaveTextContent(
      '✓ Your browser repeated the draw over 3 tickets and got the announced winner.',
    );
  });

  it('says so when the ticket recomputed from the player’s address and salt is not in the published list (Russian)', async () => {
    // The server names a ticket that is in the list, but its salt does not give it: the browser trusts its own hash.
    playerApi([ownEntry({ salt: 'ee'.repeat(16) })]);
    game('ru', '/ru/faucet/');
    FakeEventSource.last.push(round());
    expect(await screen.findByTestId('fairness-own')).toHaveTextContent(
      '✗ Вашего билета, пересчитанного вашим браузером, НЕТ в списке.',
    );
    expect(screen.queryByText('(вы)', { exact: false })).toBeNull();
  });

  it('recomputes an entry from before salts with the old formula, SHA-256 of "<roundId>:<address>"', async () => {
    const old = ticketOf(7, addresses[0]!);
    const players = [old, ...tickets.slice(1)];
    const legacy = draw(seed, 7, players, block);
    playerApi([ownEntry({ ticket: old, salt: null })]);
    game('en', '/faucet/');
    FakeEventSource.last.push(
      round({
        entriesHash: legacy.entriesHash,
        players: players.map((ticket, i) => ({ ...round().players[i]!, ticket })),
        winner: { ticket: legacy.ticket, address: 'x', currency: 'BTC', amount: '0.00000025', rate: '80000' },
      }),
    );
    const own = await screen.findByTestId('fairness-own');
    expect(own).toHaveTextContent(`✓ Your ticket, recomputed by your browser, is in the list: ${old}`);
    expect(own).not.toHaveTextContent('Your salt');
    expect(await screen.findByTestId('fairness-result')).toHaveTextContent(
      '✓ Your browser repeated the draw over 3 tickets and got the announced winner.',
    );
  });

  it('opens a new stream a little later when the server refused one (a deploy, too many streams)', () => {
    jest.useFakeTimers();
    try {
      renderInLanguage(<FaucetGame />, 'en', '/faucet/');
      const first = FakeEventSource.last;
      const opened = FakeEventSource.opened;
      first.refuse();
      act(() => jest.advanceTimersByTime(RECONNECT_AFTER_MS - 1));
      expect(FakeEventSource.opened).toBe(opened);
      act(() => jest.advanceTimersByTime(1));
      expect(FakeEventSource.opened).toBe(opened + 1);
      FakeEventSource.last.push(round());
      expect(screen.getByText(/Round 7/)).toBeTruthy();
    } finally {
      jest.useRealTimers();
    }
  });
});
