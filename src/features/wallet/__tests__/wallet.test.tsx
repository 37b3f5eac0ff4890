import '../../../../__tests__/support/polyfills';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { Balances } from '../components/balances';
import { Receive } from '../components/receive';
import { Security } from '../components/security';
import { Send } from '../components/send';
import { Transactions } from '../components/transactions';
import type { SecurityOverview } from '#domain/contracts/protection';
import type { WalletSend } from '#domain/contracts/wallet';
import type { Balance, Transaction } from '../api/wallet';

// The SDK hands out one stable function, as the real one does.
jest.mock('../../../app/session', () => {
  const session = { getAccessTokenSilently: async () => 'token', loginWithRedirect: jest.fn(async () => undefined) };
  return { useSession: () => session };
});
const { useSession } = jest.requireMock('../../../app/session') as {
  useSession: () => { loginWithRedirect: jest.Mock };
};

const en = loadResources('en').wallet as any;
const de = loadResources('de').wallet as any;
const ru = loadResources('ru').wallet as any;
const enCommon = loadResources('en').common as any;
const EXPLORERS = { buySellEnabled: true, bank: null, explorers: { BTC: 'https://mempool.space/tx/{txid}' } };
const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), text);

type Answer = { status?: number; body: unknown };
/** A scripted API: each "METHOD /path" answers from its handler; every call is recorded. */
function mockApi(routes: Record<string, (body: unknown, query: URLSearchParams) => Answer>) {
  const calls: string[] = [];
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
    const [path, query] = url.replace(/^https?:\/\/[^/]+/, '').split('?');
    const key = `${init.method ?? 'GET'} ${path}`;
    calls.push(key);
    const handler = routes[key];
    const answer = handler
      ? handler(typeof init.body === 'string' ? JSON.parse(init.body) : undefined, new URLSearchParams(query))
      : { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } };
    return {
      ok: (answer.status ?? 200) < 400,
      status: answer.status ?? 200,
      headers: { get: () => 'application/json' },
      json: async () => answer.body,
      text: async () => JSON.stringify(answer.body),
    };
  });
  return { calls, count: (key: string) => calls.filter((c) => c === key).length };
}

const balance = (
  currency: string,
  name: string,
  amount: string,
  eurEstimate: string,
  support: 'full' | 'partial' = 'full',
): Balance => ({ currency, name, balance: amount, eurEstimate, support });
const BALANCES = {
  balances: [
    balance('EUR', 'Euro', '0.00', '0.00'),
    balance('BTC', 'Bitcoin', '0.01000000', '800.00'),
    balance('ETH', 'Ethereum', '0.000000000', '0.00'),
    balance('SOL', 'Solana', '2.000000000', '300.00', 'partial'),
    balance('SHIB', 'Shiba Inu', '0.00', '0.00', 'partial'),
  ],
  totalEur: '1100.00',
  ratesAt: '2026-01-10T09:00:00.000Z',
};
const RATES = { at: '2026-01-10T09:00:00.000Z', rates: { BTC: '80000', ETH: '3000' } };

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  setVisibility('visible');
  Object.defineProperty(globalThis.crypto, 'randomUUID', {
    configurable: true,
    value: () => '00000000-0000-4000-8000-000000000000',
  });
});
afterEach(() => jest.useRealTimers());

describe('Balances', () => {
  it('lists what is held, most valuable first, folds the zero balances behind "Show all currencies" and says "partially supported" once', async () => {
    mockApi({ 'GET /api/wallet/balances': () => ({ body: BALANCES }) });
    renderInLanguage(<Balances />);
    const table = await screen.findByRole('table');
    const names = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(names()).toEqual([expect.stringMatching(/^Bitcoin BTC/), expect.stringMatching(/^Solana SOL/)]);
    expect(screen.queryByText('Ethereum')).toBeNull();

    const toggle = screen.getByRole('button', { name: en.balances.showAll });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Solana is partially supported: one notice under the table, not one per row.
    expect(screen.getAllByText(en.balances.partialNotice)).toHaveLength(1);

    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: en.balances.hideZero })).toHaveAttribute('aria-expanded', 'true');
    expect(names()).toHaveLength(5);
    expect(names().slice(0, 2)).toEqual([expect.stringMatching(/^Bitcoin/), expect.stringMatching(/^Solana/)]);
    // Two partially supported currencies now show, and still one notice.
    expect(screen.getAllByText(en.balances.partialNotice)).toHaveLength(1);
  });

  it('says so when nothing is held, and has no notice while no partially supported currency shows', async () => {
    mockApi({
      'GET /api/wallet/balances': () => ({
        body: {
          ...BALANCES,
          totalEur: '0.00',
          balances: BALANCES.balances.map((b) => ({ ...b, balance: '0', eurEstimate: '0.00' })),
        },
      }),
    });
    renderInLanguage(<Balances />);
    expect(await screen.findByText(en.balances.empty)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText(en.balances.partialNotice)).toBeNull();
  });

  it('shows a deposit without a reload, and asks nothing while the page is hidden', async () => {
    jest.useFakeTimers();
    let btc = '0.01000000';
    const api = mockApi({
      'GET /api/wallet/balances': () => ({
        body: {
          ...BALANCES,
          balances: BALANCES.balances.map((b) => (b.currency === 'BTC' ? { ...b, balance: btc } : b)),
        },
      }),
    });
    renderInLanguage(<Balances />);
    expect(await screen.findByText('0.01 BTC')).toBeTruthy();
    btc = '0.02000000';
    setVisibility('hidden');
    await act(async () => void jest.advanceTimersByTime(30_000));
    expect(api.count('GET /api/wallet/balances')).toBe(1);
    expect(screen.getByText('0.01 BTC')).toBeTruthy();
    // Shown again: it asks at once.
    await act(async () => setVisibility('visible'));
    expect(await screen.findByText('0.02 BTC')).toBeTruthy();
    expect(api.count('GET /api/wallet/balances')).toBe(2);
  });
});

describe('Send', () => {
  const started: WalletSend = {
    id: '11111111-1111-4111-8111-111111111111',
    status: 'awaiting_code',
    currency: 'BTC',
    address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    amount: '0.00100000',
    networkFee: '0.00002000',
    internal: false,
    label: null,
    txid: null,
  };

  it('shows the available balance; "Max" fills the balance less the network fee; the fee and the value in euros show before sending', async () => {
    mockApi({ 'GET /api/wallet/balances': () => ({ body: BALANCES }), 'GET /api/rates': () => ({ body: RATES }) });
    renderInLanguage(<Send />);
    expect(await screen.findByText(fill(en.send.available, { amount: '0.01 BTC' }))).toBeTruthy();
    expect(screen.getByText(fill(en.send.fee, { fee: '0.00002 BTC' }))).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.send.max }));
    const amount = screen.getByLabelText(en.send.amount) as HTMLInputElement;
    expect(amount.value).toBe('0.00998');
    // 0.00998 BTC at 80,000 EUR.
    expect(await screen.findByText(fill(en.send.eurValue, { amount: '€798.40' }))).toBeTruthy();

    // Another currency: its own balance (none) and fee, and nothing to fill.
    const currency = screen.getByRole('combobox', { name: en.send.currency });
    fireEvent.change(currency, { target: { value: 'ETH' } });
    fireEvent.keyDown(currency, { key: 'Enter' });
    expect(await screen.findByText(fill(en.send.available, { amount: '0 ETH' }))).toBeTruthy();
    expect(screen.getByText(fill(en.send.fee, { fee: '0.00042 ETH' }))).toBeTruthy();
    expect(screen.getByRole('button', { name: en.send.max })).toBeDisabled();
  });

  it('tells a new account before it fills in the form that it can send nothing yet, and from when, in its language (issue 34)', async () => {
    const holdEnds = new Date(Date.now() + 20 * 3_600_000);
    const security = (change: Partial<SecurityOverview>): SecurityOverview => ({
      allowListOnly: true,
      allowListOffFrom: holdEnds.toISOString(),
      phrase: null,
      frozen: false,
      frozenAt: null,
      frozenByOperator: false,
      unfreezesAt: null,
      unfreezeCodeSent: false,
      sendsPausedUntil: null,
      holdHours: 24,
      secondFactorAboveEur: '1000.00',
      addressBook: [],
      events: [],
      ...change,
    });
    let overview = security({});
    mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
      'GET /api/wallet/security': () => ({ body: overview }),
    });
    const { unmount } = renderInLanguage(<Send />, 'de');
    const when = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeStyle: 'short' }).format(holdEnds);
    const notice = await screen.findByTestId('first-send-notice');
    expect(notice.textContent).toContain(fill(de.send.newAccount, { when, hours: '24' }));
    expect(within(notice).getByRole('link', { name: de.send.newAccountBook }).getAttribute('href')).toBe(
      '/de/wallet/security/',
    );
    // Before the form.
    expect(
      notice.compareDocumentPosition(screen.getByLabelText(de.send.amount)) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    unmount();

    // An address usable already (an older account that switched the mode on): nothing to say.
    const entry = {
      id: 'e',
      currency: 'BTC',
      address: started.address,
      label: null,
      ownWallet: false,
      internal: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      usableFrom: '2026-01-02T00:00:00.000Z',
      onHold: false,
    };
    overview = security({ addressBook: [entry] });
    const again = renderInLanguage(<Send />, 'en');
    expect(await screen.findByText(fill(en.send.available, { amount: '0.01 BTC' }))).toBeTruthy();
    expect(screen.queryByTestId('first-send-notice')).toBeNull();
    again.unmount();
    // The hold over: nothing either.
    overview = security({ allowListOffFrom: new Date(Date.now() - 1000).toISOString() });
    renderInLanguage(<Send />, 'en');
    expect(await screen.findByText(fill(en.send.available, { amount: '0.01 BTC' }))).toBeTruthy();
    expect(screen.queryByTestId('first-send-notice')).toBeNull();
  });

  it('shows a new account the whole path of its first send before the form, with the end of the hold in its language, and fills in a saved address (issue 35)', async () => {
    const usableFrom = new Date(Date.now() + 5 * 3_600_000);
    const overview: SecurityOverview = {
      allowListOnly: true,
      allowListOffFrom: new Date(Date.now() + 20 * 3_600_000).toISOString(),
      phrase: null,
      frozen: false,
      frozenAt: null,
      frozenByOperator: false,
      unfreezesAt: null,
      unfreezeCodeSent: false,
      sendsPausedUntil: null,
      holdHours: 24,
      secondFactorAboveEur: '1000.00',
      addressBook: [
        {
          id: 'e1',
          currency: 'LTC',
          address: 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
          label: 'Mama',
          ownWallet: false,
          internal: false,
          createdAt: new Date().toISOString(),
          usableFrom: usableFrom.toISOString(),
          onHold: true,
        },
      ],
      events: [],
    };
    const bank = {
      kind: 'bank',
      phase: 'verified',
      channel: 'bank',
      data: null,
      requestedAt: null,
      submittedAt: null,
      verifiedAt: null,
      retainUntil: null,
      dataDeletedAt: null,
      rejection: null,
      codeExpiresAt: null,
      nextCodeAt: null,
      attemptsLeft: null,
    };
    mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
      'GET /api/wallet/security': () => ({ body: overview }),
      'GET /api/identity': () => ({ body: { kinds: [bank] } }),
    });
    renderInLanguage(<Send />, 'ru');
    const path = await screen.findByTestId('send-path');
    const steps = within(path)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    const until = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short' }).format(usableFrom);
    expect(steps).toEqual([
      expect.stringContaining(ru.send.path.bank.title),
      expect.stringContaining(ru.send.path.book.title),
      expect.stringContaining(fill(ru.send.path.waiting, { when: until })),
      expect.stringContaining(ru.send.path.code.title),
    ]);
    expect(steps[0]).toContain(ru.send.path.done);
    expect(steps[2]).toContain(fill(ru.send.path.hold.text, { hours: '24' }));
    // Before the form, which offers the saved address: picking it fills in its currency and address.
    const saved = await screen.findByLabelText(ru.send.saved);
    expect(path.compareDocumentPosition(saved) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.change(saved, { target: { value: 'e1' } });
    await waitFor(() =>
      expect((screen.getByLabelText(ru.send.address) as HTMLInputElement).value).toBe(
        'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
      ),
    );
    expect((screen.getByRole('combobox', { name: ru.send.currency }) as HTMLInputElement).value).toContain('LTC');
  });

  it('says in advance that a send to another Muntly wallet pays no network fee, as the server decides from the address', async () => {
    const other = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const asked: string[] = [];
    const api = mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
      'GET /api/wallet/send-fee': (_body, query) => {
        asked.push(`${query.get('currency')} ${query.get('address')}`);
        const internal = query.get('address') === other;
        return { body: { currency: 'BTC', networkFee: internal ? '0.00000000' : '0.00002000', internal } };
      },
    });
    renderInLanguage(<Send />, 'ru');
    await screen.findByText(fill(ru.send.available, { amount: '0,01 BTC' }));
    const fee = screen.getByTestId('send-fee');
    expect(fee).toHaveTextContent(fill(ru.send.fee, { fee: '0,00002 BTC' }));
    // Half an address is not asked about.
    fireEvent.change(screen.getByLabelText(ru.send.address), { target: { value: other.slice(0, 20) } });
    fireEvent.change(screen.getByLabelText(ru.send.address), { target: { value: ` ${other.toUpperCase()} ` } });
    await waitFor(() => expect(fee).toHaveTextContent(fill(ru.send.feeInternal, { fee: '0 BTC' })));
    expect(asked).toEqual([`BTC ${other}`]);
    // No fee to keep back: "Max" is the whole balance.
    fireEvent.click(screen.getByRole('button', { name: ru.send.max }));
    expect((screen.getByLabelText(ru.send.amount) as HTMLInputElement).value).toBe('0,01');

    // An external address: the network fee again.
    fireEvent.change(screen.getByLabelText(ru.send.address), {
      target: { value: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' },
    });
    expect(fee).toHaveTextContent(fill(ru.send.fee, { fee: '0,00002 BTC' }));
    await waitFor(() => expect(api.count('GET /api/wallet/send-fee')).toBe(2));
    expect(fee).toHaveTextContent(fill(ru.send.fee, { fee: '0,00002 BTC' }));
  });

  it('in German, "Max" writes a decimal comma and a typed "0,001" shows its value in euros', async () => {
    mockApi({ 'GET /api/wallet/balances': () => ({ body: BALANCES }), 'GET /api/rates': () => ({ body: RATES }) });
    renderInLanguage(<Send />, 'de');
    await screen.findByText(fill(de.send.available, { amount: '0,01 BTC' }));
    fireEvent.click(screen.getByRole('button', { name: de.send.max }));
    expect((screen.getByLabelText(de.send.amount) as HTMLInputElement).value).toBe('0,00998');
    fireEvent.change(screen.getByLabelText(de.send.amount), { target: { value: '0,001' } });
    expect(await screen.findByText(fill(de.send.eurValue, { amount: '80,00 €' }))).toBeTruthy();
  });

  it('refuses more than the balance before asking the API', async () => {
    const api = mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
    });
    renderInLanguage(<Send />);
    await screen.findByText(fill(en.send.available, { amount: '0.01 BTC' }));
    fireEvent.change(screen.getByLabelText(en.send.address), { target: { value: started.address } });
    fireEvent.change(screen.getByLabelText(en.send.amount), { target: { value: '0.02' } });
    fireEvent.click(screen.getByRole('button', { name: en.send.continue }));
    expect(await screen.findByText((loadResources('en').errors as any).insufficient_balance)).toBeTruthy();
    expect(api.count('POST /api/wallet/sends')).toBe(0);
  });

  it('after the code: the send’s status, asked again while it is processed, then the transaction hash linked to its block explorer', async () => {
    let status: WalletSend['status'] = 'processing';
    const sent: unknown[] = [];
    const api = mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
      'POST /api/wallet/sends': (body) => (sent.push(body), { status: 201, body: started }),
      [`POST /api/wallet/sends/${started.id}/confirm`]: () => ({
        body: { ...started, status: 'processing', message: 'Your transaction is being processed.' },
      }),
      [`GET /api/wallet/sends/${started.id}`]: () => ({
        body: {
          ...started,
          status,
          txid: status === 'completed' ? 'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16' : null,
        },
      }),
      'GET /api/exchange/config': () => ({ body: EXPLORERS }),
    });
    renderInLanguage(<Send />);
    await screen.findByText(fill(en.send.available, { amount: '0.01 BTC' }));
    fireEvent.change(screen.getByLabelText(en.send.address), { target: { value: started.address } });
    fireEvent.change(screen.getByLabelText(en.send.amount), { target: { value: '0,001' } });
    fireEvent.click(screen.getByRole('button', { name: en.send.continue }));
    fireEvent.change(await screen.findByLabelText(en.send.code), { target: { value: 'ABCD-EFGH-IJKL-MNOP' } });
    expect(sent).toEqual([{ currency: 'BTC', address: started.address, amount: '0.001', label: undefined }]);

    jest.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: en.send.confirm }));
    expect(await screen.findByText(en.send.processing)).toBeTruthy();
    expect(screen.getByText(en.send.statuses.processing)).toBeTruthy();
    expect(screen.getByText(en.send.live)).toBeTruthy();

    status = 'completed';
    await act(async () => void jest.advanceTimersByTime(10_000));
    expect(await screen.findByText(en.send.paidOut)).toBeTruthy();
    expect(screen.getByText(en.send.statuses.completed)).toBeTruthy();
    // Paid out: the hash links to the block explorer configured for BTC, and copies whole.
    const txid = 'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16';
    const link = await screen.findByRole('link', { name: `${txid} ${enCommon.txHash.explorer}` });
    expect(link).toHaveAttribute('href', `https://mempool.space/tx/${txid}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('button', { name: `Copy ${enCommon.txHash.copy}` })).toBeTruthy();
    expect(screen.queryByText(en.send.live)).toBeNull();
    // Paid out: nothing more to ask.
    const asked = api.count(`GET /api/wallet/sends/${started.id}`);
    await act(async () => void jest.advanceTimersByTime(60_000));
    expect(api.count(`GET /api/wallet/sends/${started.id}`)).toBe(asked);
  });

  it('a send held for approval says why it waits, keeps asking, and goes on once two operators approved it', async () => {
    let status: WalletSend['status'] = 'awaiting_approval';
    mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
      'POST /api/wallet/sends': () => ({ status: 201, body: started }),
      [`POST /api/wallet/sends/${started.id}/confirm`]: () => ({
        body: {
          ...started,
          status: 'awaiting_approval',
          message: 'Your transaction waits for approval by two members of our team.',
        },
      }),
      [`GET /api/wallet/sends/${started.id}`]: () => ({ body: { ...started, status } }),
    });
    renderInLanguage(<Send />, 'de');
    await screen.findByText(fill(de.send.available, { amount: '0,01 BTC' }));
    fireEvent.change(screen.getByLabelText(de.send.address), { target: { value: started.address } });
    fireEvent.change(screen.getByLabelText(de.send.amount), { target: { value: '0,001' } });
    fireEvent.click(screen.getByRole('button', { name: de.send.continue }));
    fireEvent.change(await screen.findByLabelText(de.send.code), { target: { value: 'ABCD-EFGH-IJKL-MNOP' } });

    jest.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: de.send.confirm }));
    expect(await screen.findByText(de.send.awaitingApproval)).toBeTruthy();
    expect(screen.getByText(de.send.statuses.awaiting_approval)).toBeTruthy();
    expect(screen.getByText(de.send.live)).toBeTruthy();

    status = 'processing';
    await act(async () => void jest.advanceTimersByTime(10_000));
    expect(await screen.findByText(de.send.processing)).toBeTruthy();
    expect(screen.getByText(de.send.statuses.processing)).toBeTruthy();
  });

  it('a confirmation that needs a fresh login says so, logs in again with max_age 0 and comes back to the same send, whose code still works', async () => {
    let fresh = false;
    mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
      'POST /api/wallet/sends': () => ({ status: 201, body: started }),
      [`POST /api/wallet/sends/${started.id}/confirm`]: () =>
        fresh
          ? { body: { ...started, status: 'processing', message: 'Your transaction is being processed.' } }
          : { status: 401, body: { error: { code: 'login_required_recent', message: 'Log in again.' } } },
      [`GET /api/wallet/sends/${started.id}`]: () => ({ body: started }),
    });
    const first = renderInLanguage(<Send />);
    await screen.findByText(fill(en.send.available, { amount: '0.01 BTC' }));
    fireEvent.change(screen.getByLabelText(en.send.address), { target: { value: started.address } });
    fireEvent.change(screen.getByLabelText(en.send.amount), { target: { value: '0.001' } });
    fireEvent.click(screen.getByRole('button', { name: en.send.continue }));
    fireEvent.change(await screen.findByLabelText(en.send.code), { target: { value: 'ABCD-EFGH-IJKL-MNOP' } });
    fireEvent.click(screen.getByRole('button', { name: en.send.confirm }));
    expect(await screen.findByText(en.sendStepUp.loginAgain)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.sendStepUp.loginAgainButton }));
    expect(useSession().loginWithRedirect).toHaveBeenCalledWith({
      authorizationParams: { max_age: 0 },
      appState: { returnTo: `/?send=${started.id}` },
    });
    first.unmount();

    // Back from the login: the page opens the same send and takes the code from the email.
    fresh = true;
    window.history.replaceState(null, '', `/?send=${started.id}`);
    try {
      renderInLanguage(<Send />);
      fireEvent.change(await screen.findByLabelText(en.send.code), { target: { value: 'ABCD-EFGH-IJKL-MNOP' } });
      fireEvent.click(screen.getByRole('button', { name: en.send.confirm }));
      expect(await screen.findByText(en.send.processing)).toBeTruthy();
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('points to the address book when the address is not allowed yet', async () => {
    mockApi({
      'GET /api/wallet/balances': () => ({ body: BALANCES }),
      'GET /api/rates': () => ({ body: RATES }),
      'POST /api/wallet/sends': () => ({
        status: 403,
        body: { error: { code: 'address_not_in_book', message: 'Not in the book.', field: 'address' } },
      }),
    });
    renderInLanguage(<Send />, 'ru');
    await screen.findByText(fill(ru.send.available, { amount: '0,01 BTC' }));
    fireEvent.change(screen.getByLabelText(ru.send.address), { target: { value: started.address } });
    fireEvent.change(screen.getByLabelText(ru.send.amount), { target: { value: '0,001' } });
    fireEvent.click(screen.getByRole('button', { name: ru.send.continue }));
    expect(await screen.findByText((loadResources('ru').errors as any).address_not_in_book)).toBeTruthy();
    expect(screen.getByRole('link', { name: ru.sendStepUp.book })).toHaveAttribute('href', '/ru/wallet/security/');
  });
});

describe('Security', () => {
  const overview = (change: Partial<SecurityOverview> = {}): SecurityOverview => ({
    allowListOnly: true,
    allowListOffFrom: '2026-01-11T09:00:00.000Z',
    phrase: { masked: 'B•••2', setAt: '2026-01-10T09:00:00.000Z' },
    frozen: false,
    frozenAt: null,
    frozenByOperator: false,
    unfreezesAt: null,
    unfreezeCodeSent: false,
    sendsPausedUntil: null,
    holdHours: 24,
    secondFactorAboveEur: '1000.00',
    addressBook: [],
    events: [],
    ...change,
  });

  it('freezes in one click; unfreezing asks for the emailed code', async () => {
    const api = mockApi({
      'GET /api/wallet/security': () => ({ body: overview() }),
      'POST /api/wallet/security/freeze': () => ({
        body: overview({ frozen: true, frozenAt: '2026-01-10T10:00:00.000Z' }),
      }),
      'POST /api/wallet/security/unfreeze': () => ({
        body: overview({ frozen: true, frozenAt: '2026-01-10T10:00:00.000Z', unfreezeCodeSent: true }),
      }),
    });
    renderInLanguage(<Security />);
    expect(await screen.findByText(fill(en.security.phraseSet, { masked: 'B•••2' }))).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.security.freezeButton }));
    expect(await screen.findByText(en.security.frozen)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.security.unfreezeButton }));
    expect(await screen.findByLabelText(en.security.unfreezeCode)).toBeTruthy();
    expect(api.count('POST /api/wallet/security/unfreeze')).toBe(1);
  });

  it('frozen by Muntly’s team: says only they unfreeze it, points to support, and offers no code', async () => {
    mockApi({
      'GET /api/wallet/security': () => ({
        body: overview({ frozen: true, frozenAt: '2026-01-10T10:00:00.000Z', frozenByOperator: true }),
      }),
    });
    renderInLanguage(<Security />, 'ru');
    expect(await screen.findByText(ru.security.frozenByOperator)).toBeTruthy();
    expect(screen.getByRole('link', { name: ru.security.contactSupport })).toHaveAttribute('href', '/ru/support/');
    expect(screen.queryByRole('button', { name: ru.security.unfreezeButton })).toBeNull();
    expect(screen.queryByRole('button', { name: ru.security.freezeButton })).toBeNull();
  });

  it('says in the page’s language where each event came from', async () => {
    const events = [
      { kind: 'frozen_by_link', at: '2026-01-10T10:00:00.000Z', client: 'email link', detail: null },
      { kind: 'unfrozen_by_operator', at: '2026-01-10T09:00:00.000Z', client: 'operator', detail: null },
      { kind: 'phrase_set', at: '2026-01-10T08:00:00.000Z', client: 'Firefox on Linux', detail: null },
      { kind: 'phrase_set', at: '2026-01-10T07:00:00.000Z', client: 'curl', detail: null },
      { kind: 'signed_in_new_device', at: '2026-01-10T06:00:00.000Z', client: 'Chrome on Android', detail: null },
    ] as SecurityOverview['events'];
    mockApi({ 'GET /api/wallet/security': () => ({ body: overview({ events }) }) });
    renderInLanguage(<Security />, 'ru');
    await screen.findByText(ru.security.clients.emailLink, { exact: false });
    // A sign-in from a new device, with the browser and system it came from.
    const signIn = screen.getByText(ru.security.events.signed_in_new_device).closest('li')!;
    expect(signIn.textContent).toContain(fill(ru.security.clients.browserOn, { browser: 'Chrome', system: 'Android' }));
    expect(document.body.textContent).toContain(ru.security.clients.operator);
    expect(document.body.textContent).toContain(
      fill(ru.security.clients.browserOn, { browser: 'Firefox', system: 'Linux' }),
    );
    expect(document.body.textContent).toContain('curl');
    expect(document.body.textContent).not.toContain('Firefox on Linux');
  });
});

describe('Bank verification before the wallet', () => {
  const identity = (bank: { phase: string; requestedAt: string | null }) => ({
    kinds: [
      {
        kind: 'bank',
        channel: 'bank',
        data: null,
        submittedAt: null,
        verifiedAt: null,
        retainUntil: null,
        dataDeletedAt: null,
        rejection: null,
        codeExpiresAt: null,
        attemptsLeft: null,
        nextCodeAt: null,
        ...bank,
      },
    ],
  });

  it('explains the verification before any form, and one click asks for it; then it says when it was asked and what happens next', async () => {
    const api = mockApi({
      'GET /api/identity': () => ({ body: identity({ phase: 'not_enabled', requestedAt: null }) }),
      'POST /api/identity/bank/request': () => ({
        body: {
          kind: 'bank',
          created: true,
          requestedAt: '2026-03-02T10:00:00.000Z',
          ...identity({ phase: 'not_enabled', requestedAt: '2026-03-02T10:00:00.000Z' }),
        },
      }),
    });
    renderInLanguage(<Receive />);
    expect(await screen.findByRole('heading', { name: en.bankRequired.title })).toBeTruthy();
    expect(screen.getByText(en.bankRequired.how)).toBeTruthy();
    // No form to fill in before the verification.
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(api.count('GET /api/wallet/addresses')).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: en.bankRequired.request }));
    expect(await screen.findByText(fill(en.bankRequired.requested, { date: '2 March 2026' }))).toBeTruthy();
    expect(screen.queryByRole('button', { name: en.bankRequired.request })).toBeNull();
    expect(api.count('POST /api/identity/bank/request')).toBe(1);
  });

  it('a request made earlier shows its date in the page language', async () => {
    mockApi({
      'GET /api/identity': () => ({
        body: identity({ phase: 'not_enabled', requestedAt: '2026-03-02T10:00:00.000Z' }),
      }),
    });
    renderInLanguage(<Send />, 'de');
    expect(await screen.findByText(fill(de.bankRequired.requested, { date: '2. März 2026' }))).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('once enabled, the button becomes a link to continue on the identity page', async () => {
    mockApi({
      'GET /api/identity': () => ({ body: identity({ phase: 'step_1', requestedAt: '2026-03-02T10:00:00.000Z' }) }),
    });
    renderInLanguage(<Receive />);
    const link = await screen.findByRole('link', { name: en.bankRequired.continue });
    expect(link.getAttribute('href')).toMatch(/my_identity|identity/);
    expect(screen.queryByRole('button', { name: en.bankRequired.request })).toBeNull();
  });

  it('with a verified bank account the form shows', async () => {
    mockApi({
      'GET /api/identity': () => ({ body: identity({ phase: 'verified', requestedAt: null }) }),
      'GET /api/wallet/addresses': () => ({ body: { addresses: [] } }),
    });
    renderInLanguage(<Receive />);
    expect(await screen.findByRole('button', { name: en.receive.create })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: en.bankRequired.title })).toBeNull();
  });
});

describe('Receive, an address', () => {
  it('says what may be sent to it, and its label is the kit’s styled field, not a bare input', async () => {
    mockApi({
      'GET /api/identity': () => ({
        body: { kinds: [{ kind: 'bank', phase: 'verified', requestedAt: null, channel: 'bank' }] },
      }),
      'GET /api/wallet/addresses': () => ({
        body: {
          addresses: [
            {
              id: 'a1',
              currency: 'BTC',
              address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
              label: 'Ledger',
              createdAt: '2026-01-10T09:00:00.000Z',
              incoming: [],
            },
          ],
        },
      }),
    });
    renderInLanguage(<Receive />);
    const field = await screen.findByDisplayValue('Ledger');
    expect(field.closest('.field')).not.toBeNull();
    expect(screen.getAllByLabelText(en.receive.label)).toContain(field);
    expect(screen.getByTestId('send-only')).toHaveTextContent(/Bitcoin/);
  });
});

describe('Transactions', () => {
  it('an order’s row says its kind in the page’s language, not the settlement’s English word as a label (German)', async () => {
    const row = (id: string, label: string | null, type = 'order'): Transaction => ({
      id,
      date: '2026-01-10T09:00:00.000Z',
      type,
      direction: 'in',
      currency: 'EUR',
      amount: '80.00',
      fee: null,
      eurValue: '80.00',
      address: null,
      label,
      txid: null,
      status: 'completed',
    });
    mockApi({
      'GET /api/wallet/transactions': () => ({
        body: {
          transactions: [row('o1', 'deposit'), row('o2', 'refund'), row('s1', 'Miete', 'send')],
          nextCursor: null,
        },
      }),
    });
    renderInLanguage(<Transactions />, 'de', '/de/wallet/transactions/');
    const deposit = await screen.findByRole('row', { name: new RegExp(de.transactions.orderKinds.deposit) });
    expect(deposit).not.toHaveTextContent(/\bdeposit\b/);
    expect(screen.getByRole('row', { name: new RegExp(de.transactions.orderKinds.refund) })).not.toHaveTextContent(
      /\brefund\b/,
    );
    // A send's label is the user's own note, and stays.
    expect(screen.getByRole('row', { name: new RegExp(de.transactions.types.send) })).toHaveTextContent('Miete');
  });

  it('a deposit appears without a reload', async () => {
    jest.useFakeTimers();
    const deposit: Transaction = {
      id: 't1',
      date: '2026-01-10T09:00:00.000Z',
      type: 'deposit',
      direction: 'in',
      currency: 'BTC',
      amount: '0.01000000',
      fee: null,
      eurValue: '800.00',
      address: null,
      label: null,
      txid: null,
      status: 'completed',
    };
    let rows: Transaction[] = [];
    mockApi({ 'GET /api/wallet/transactions': () => ({ body: { transactions: rows, nextCursor: null } }) });
    renderInLanguage(<Transactions />);
    expect(await screen.findByText(en.transactions.none)).toBeTruthy();
    rows = [deposit];
    await act(async () => void jest.advanceTimersByTime(10_000));
    await waitFor(() => expect(screen.getByRole('row', { name: /Deposit/ })).toHaveTextContent('+0.01 BTC'));
  });

  it('links the chain transaction of a row to the block explorer configured for its currency; without one the hash is text to copy', async () => {
    const HASH = `b7c1d2e3f4${'0'.repeat(46)}e5f6a7b8`;
    const row = (id: string, currency: string, txid: string | null): Transaction => ({
      id,
      date: '2026-01-10T09:00:00.000Z',
      type: 'send',
      direction: 'out',
      currency,
      amount: '0.00100000',
      fee: '0.00002000',
      eurValue: '80.00',
      address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      label: null,
      txid,
      status: 'completed',
    });
    const api = mockApi({
      'GET /api/wallet/transactions': () => ({
        body: {
          transactions: [row('t1', 'BTC', HASH), row('t2', 'LTC', 'a9d2'), row('t3', 'BTC', null)],
          nextCursor: null,
        },
      }),
      'GET /api/exchange/config': () => ({ body: EXPLORERS }),
    });
    renderInLanguage(<Transactions />);
    // In the table a hash shows by its start and end; the link, the tooltip and the copy carry all of it.
    const link = await screen.findByRole('link', { name: `b7c1d2e3f4…e5f6a7b8 ${enCommon.txHash.explorer}` });
    expect(link).toHaveAttribute('href', `https://mempool.space/tx/${HASH}`);
    expect(link.querySelector('code')).toHaveAttribute('title', HASH);
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await act(async () =>
      fireEvent.click(
        within(screen.getAllByRole('row')[1]!).getByRole('button', { name: `Copy ${enCommon.txHash.copy}` }),
      ),
    );
    expect(writeText).toHaveBeenCalledWith(HASH);
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    expect(screen.queryByRole('link', { name: /a9d2/ })).toBeNull();
    // Each amount with its currency's logo.
    expect([...document.querySelectorAll('td.num img.currency-icon')].map((img) => img.getAttribute('src'))).toEqual([
      '/currency-icons/0.18.1/btc.svg',
      '/currency-icons/0.18.1/ltc.svg',
      '/currency-icons/0.18.1/btc.svg',
    ]);
    expect(screen.getByText('a9d2', { selector: 'code' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: `Copy ${enCommon.txHash.copy}` })).toHaveLength(2);
    // Asked once for the page, however many hashes it shows.
    expect(api.count('GET /api/exchange/config')).toBe(1);
  });

  it('a send held for approval is marked so, its fee too', async () => {
    const row = (id: string, type: string, amount: string): Transaction => ({
      id,
      date: '2026-01-10T09:00:00.000Z',
      type,
      direction: 'out',
      currency: 'BTC',
      amount,
      fee: null,
      eurValue: null,
      address: null,
      label: null,
      txid: null,
      status: 'awaiting_approval',
    });
    mockApi({
      'GET /api/wallet/transactions': () => ({
        body: { transactions: [row('t1', 'send', '0.20000000'), row('t2', 'fee', '0.00002000')], nextCursor: null },
      }),
    });
    renderInLanguage(<Transactions />);
    const rows = await screen.findAllByText(new RegExp(en.transactions.awaitingApproval));
    expect(rows).toHaveLength(2);
    expect(screen.getAllByRole('row')[1]).toHaveTextContent(
      `${en.transactions.types.send} · ${en.transactions.awaitingApproval}`,
    );
  });
});
