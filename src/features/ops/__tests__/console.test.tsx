import '../../../../__tests__/support/polyfills';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { OpsConsole } from '../components/console';
import type { Payout } from '#domain/contracts/payouts';
import type { OpsRouteName } from '../../../i18n/ops-routes';

/**
 * The operator console as an operator uses it: the login and the refusal, the queues' counts,
 * and each page's actions reaching the ops API (fetch is scripted here, the routes are the
 * server's, tested there). The login mockSession comes from useSession (mocked); the auth island
 * that loads the SDK is replaced by its children.
 */
const mockSession = {
  status: 'signed-in' as 'unknown' | 'anonymous' | 'signed-in',
  error: undefined as unknown,
  user: { sub: 'ops|me', name: 'Olga Operator', email: 'olga@muntly.test' } as
    { sub: string; name: string; email: string } | undefined,
  loginWithRedirect: jest.fn(async () => undefined),
  getAccessTokenSilently: jest.fn(async (_options?: unknown): Promise<string> => 'admin-token'),
};
jest.mock('../../../app/session', () => ({
  ...jest.requireActual('../../../app/session'),
  useSession: () => mockSession,
}));
jest.mock('../../../app/auth-island', () => ({
  AuthIsland: ({ children }: { children: React.ReactNode }) => children,
}));

const en = loadResources('en').ops as any;
const de = loadResources('de').ops as any;
const enIdentity = loadResources('en').identity as any;
const enErrors = loadResources('en').errors as any;
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), text);

type Answer = { status?: number; body: unknown; type?: string };
type Call = { key: string; body: unknown; query: URLSearchParams; headers: Record<string, string> };
/** A scripted API: each "METHOD /path" answers from its handler; every call is recorded. */
function mockApi(routes: Record<string, (body: unknown, query: URLSearchParams) => Answer>) {
  const calls: Call[] = [];
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
    const [path, query] = url.replace(/^https?:\/\/[^/]+/, '').split('?');
    const key = `${init.method ?? 'GET'} ${path}`;
    const headers = (init.headers ?? {}) as Record<string, string>;
    const body =
      typeof init.body === 'string'
        ? headers['content-type'] === 'application/json'
          ? JSON.parse(init.body)
          : init.body
        : undefined;
    calls.push({ key, body, query: new URLSearchParams(query), headers });
    const handler = routes[key];
    const answer = handler
      ? handler(body, new URLSearchParams(query))
      : { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } };
    const type = answer.type ?? 'application/json';
    return {
      ok: (answer.status ?? 200) < 400,
      status: answer.status ?? 200,
      headers: { get: () => type },
      json: async () => answer.body,
      text: async () => (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)),
    };
  });
  return { calls, routes, made: (key: string) => calls.filter((c) => c.key === key) };
}

const QUEUES = {
  verificationRequests: 1,
  documents: 2,
  unmatchedPayments: 1,
  payoutsAwaitingApproval: 2,
  chainAlerts: 0,
  chainUnmatched: 0,
};
const queues = () => ({ body: QUEUES });

beforeEach(() => {
  mockSession.status = 'signed-in';
  mockSession.error = undefined;
  mockSession.user = { sub: 'ops|me', name: 'Olga Operator', email: 'olga@muntly.test' };
  mockSession.loginWithRedirect.mockClear();
  mockSession.getAccessTokenSilently.mockReset();
  mockSession.getAccessTokenSilently.mockImplementation(async () => 'admin-token');
  window.history.replaceState(null, '', '/');
});

const show = (section: OpsRouteName, language: 'en' | 'de' = 'en') =>
  renderInLanguage(<OpsConsole section={section} />, language);

/** The queue's items (cards), once `count` of them show. */
async function queueItems(count: number): Promise<HTMLElement[]> {
  await waitFor(() => expect(document.querySelectorAll('li.ops-item')).toHaveLength(count));
  return [...document.querySelectorAll<HTMLElement>('li.ops-item')];
}

/** What a saved file held (jsdom's Blob has no text()). */
const blobText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

describe('who may use the console', () => {
  it('offers a visitor who is not logged in the login, and comes back to this page', async () => {
    mockSession.status = 'anonymous';
    mockApi({});
    window.history.replaceState(null, '', '/ops/payouts/');
    show('ops_payouts');
    expect(screen.getByText(en.gate.loggedOut)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.gate.login }));
    expect(mockSession.loginWithRedirect).toHaveBeenCalledWith({ appState: { returnTo: '/ops/payouts/' } });
  });

  it('asks the login provider for the operator scope, and refuses politely when it is not granted', async () => {
    mockSession.getAccessTokenSilently.mockRejectedValue(
      Object.assign(new Error('Consent required'), { error: 'consent_required' }),
    );
    mockApi({ 'GET /api/ops/queues': queues });
    show('ops');
    expect(await screen.findByRole('heading', { name: en.gate.refused.title })).toBeTruthy();
    expect(screen.getByText(fill(en.gate.refused.textNamed, { name: 'Olga Operator' }))).toBeTruthy();
    expect(screen.getByRole('link', { name: en.gate.refused.logout }).getAttribute('href')).toBe('/logout/');
    expect(mockSession.getAccessTokenSilently).toHaveBeenCalledWith({
      authorizationParams: { scope: 'openid profile email use:muntly admin:muntly' },
    });
  });

  it('refuses in German when the API answers 403: the token lacks admin:muntly', async () => {
    mockApi({
      'GET /api/ops/queues': () => ({ status: 403, body: { error: { code: 'insufficient_scope', message: 'no' } } }),
    });
    show('ops', 'de');
    expect(await screen.findByRole('heading', { name: de.gate.refused.title })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: de.nav.label })).toBeNull();
  });

  it('shows each queue’s count in the navigation, and the operator’s token goes with every call', async () => {
    const api = mockApi({ 'GET /api/ops/queues': queues });
    show('ops');
    const nav = await screen.findByRole('navigation', { name: en.nav.label });
    expect(
      within(nav)
        .getByRole('link', { name: `${en.pages.ops_verifications.nav} ${fill(en.nav.waiting, { count: 3 })}` })
        .getAttribute('href'),
    ).toBe('/ops/verifications/');
    expect(
      within(nav).getByRole('link', { name: `${en.pages.ops_unmatched.nav} ${fill(en.nav.waiting, { count: 1 })}` }),
    ).toBeTruthy();
    expect(
      within(nav).getByRole('link', { name: `${en.pages.ops_payouts.nav} ${fill(en.nav.waiting, { count: 2 })}` }),
    ).toBeTruthy();
    expect(within(nav).getByRole('link', { name: en.pages.ops.nav }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText(fill(en.overview.verificationsSplit, { requests: 1, documents: 2 }))).toBeTruthy();
    expect(api.calls[0]!.headers.authorization).toBe('Bearer admin-token');
  });
});

const payout = (
  id: string,
  approval: Partial<NonNullable<Payout['approval']>>,
  extra: Partial<Payout> = {},
): Payout => ({
  id,
  rail: 'bank',
  purpose: 'order_delivery',
  status: 'awaiting_approval',
  currency: 'EUR',
  destination: 'DE89370400440532013000',
  reference: 'ABCD-EFGH',
  amount: '12500.00',
  networkFee: '0.00',
  idempotencyKey: `order-delivery:${id}`,
  attempts: 0,
  txid: null,
  txids: [],
  chainFee: null,
  instructionMac: null,
  failureReason: null,
  createdAt: '2026-11-24T09:00:00.000Z',
  submittedAt: null,
  completedAt: null,
  bankExportId: null,
  eurValue: '12500.00',
  triggeredBy: null,
  approval: {
    reason: 'above_limit',
    reviewedBy: null,
    reviewedAt: null,
    approvedBy: null,
    approvedAt: null,
    rejectedBy: null,
    rejectedAt: null,
    ...approval,
  },
  ...extra,
});

describe('payouts awaiting approval', () => {
  it('shows who reviewed first and why it waits; the reviewer cannot approve it again, another operator releases it', async () => {
    const mine = payout('11111111-1111-4111-8111-111111111111', {
      reviewedBy: 'ops|me',
      reviewedAt: '2026-11-24T09:05:00.000Z',
    });
    const theirs = payout('22222222-2222-4222-8222-222222222222', {
      reviewedBy: 'ops-cli:anna@ops.test',
      reviewedAt: '2026-11-24T09:06:00.000Z',
    });
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/payouts': () => ({ body: { payouts: [mine, theirs] } }),
      [`POST /api/ops/payouts/${theirs.id}/approve`]: () => ({
        body: { payout: { ...theirs, status: 'pending' }, released: true },
      }),
    });
    show('ops_payouts');
    const [first, second] = await queueItems(2);
    expect(within(first!).getByText(en.payouts.state.reviewedByYou)).toBeTruthy();
    expect(within(first!).getByText(en.payouts.reasons.above_limit)).toBeTruthy();
    expect((within(first!).getByRole('button', { name: en.payouts.approveSecond }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(within(second!).getByText('ops-cli:anna@ops.test')).toBeTruthy();
    expect(within(second!).getByText(en.payouts.state.reviewed)).toBeTruthy();
    fireEvent.click(within(second!).getByRole('button', { name: en.payouts.approveSecond }));
    expect(await within(second!).findByText(en.payouts.released)).toBeTruthy();
    expect(api.made(`POST /api/ops/payouts/${theirs.id}/approve`)).toHaveLength(1);
    await waitFor(() => expect(api.made('GET /api/ops/queues').length).toBeGreaterThan(1));
  });

  it('shows who minted the operators next to the approval, and warns when the reviewer and the viewer minted one another (issue 34)', async () => {
    const issued = [
      { operator: 'ops|me', by: 'ops|boss', action: 'dev.token' as const, at: '2026-11-24T08:00:00.000Z' },
      { operator: 'ops|me', by: 'ops|boss', action: 'admin.grant' as const, at: '2026-11-24T08:01:00.000Z' },
    ];
    const minted = payout('66666666-6666-4666-8666-666666666666', {
      reviewedBy: 'ops|boss',
      reviewedAt: '2026-11-24T09:05:00.000Z',
      issued,
    });
    const plain = payout('77777777-7777-4777-8777-777777777777', {
      reviewedBy: 'ops|other',
      reviewedAt: '2026-11-24T09:06:00.000Z',
      issued: issued.slice(0, 1),
    });
    mockApi({ 'GET /api/ops/queues': queues, 'GET /api/ops/payouts': () => ({ body: { payouts: [minted, plain] } }) });
    show('ops_payouts');
    const [first, second] = await queueItems(2);
    expect(within(first!).getByText(en.payouts.issued.label)).toBeTruthy();
    const lines = first!.querySelectorAll('.ops-issued li');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.textContent).toContain(en.payouts.issued.token);
    expect(lines[0]!.textContent).toContain('ops|boss');
    expect(lines[1]!.textContent).toContain(en.payouts.issued.admin);
    expect(within(first!).getByText(en.payouts.issued.onePerson)).toBeTruthy();
    // Reviewed by someone who neither minted the viewer nor was minted by them: no warning.
    expect(within(second!).queryByText(en.payouts.issued.onePerson)).toBeNull();
  });

  it('says why an approval was refused, in the page’s language', async () => {
    const waiting = payout('33333333-3333-4333-8333-333333333333', {});
    mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/payouts': () => ({ body: { payouts: [waiting] } }),
      [`POST /api/ops/payouts/${waiting.id}/approve`]: () => ({
        status: 403,
        body: { error: { code: 'approval_own_payout', message: 'no' } },
      }),
    });
    show('ops_payouts');
    fireEvent.click(await screen.findByRole('button', { name: en.payouts.approveFirst }));
    expect((await screen.findByRole('alert')).textContent).toBe(enErrors.approval_own_payout);
  });

  it('rejects with a reason, and not without one; one the operator triggered cannot be decided by them', async () => {
    const waiting = payout('44444444-4444-4444-8444-444444444444', {});
    const triggered = payout(
      '55555555-5555-4555-8555-555555555555',
      {},
      { triggeredBy: 'ops|me', purpose: 'payment_refund' },
    );
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/payouts': () => ({ body: { payouts: [waiting, triggered] } }),
      [`POST /api/ops/payouts/${waiting.id}/reject`]: () => ({ body: { payout: { ...waiting, status: 'failed' } } }),
    });
    show('ops_payouts');
    const [first, second] = await queueItems(2);
    expect(within(second!).getByText(en.payouts.state.triggeredByYou)).toBeTruthy();
    for (const button of within(second!).getAllByRole('button'))
      expect((button as HTMLButtonElement).disabled).toBe(true);
    const reject = within(first!).getByRole('button', { name: en.payouts.reject }) as HTMLButtonElement;
    expect(reject.disabled).toBe(true);
    fireEvent.change(within(first!).getByLabelText(en.payouts.rejectReason), {
      target: { value: 'IBAN on a sanctions list' },
    });
    fireEvent.click(reject);
    expect(await within(first!).findByText(en.payouts.rejected)).toBeTruthy();
    expect(api.made(`POST /api/ops/payouts/${waiting.id}/reject`)[0]!.body).toEqual({
      reason: 'IBAN on a sanctions list',
    });
  });
});

describe('the other queues', () => {
  it('assigns an unmatched payment to the order it was meant for', async () => {
    const payment = {
      id: '66666666-6666-4666-8666-666666666666',
      entryRef: '2026112400003',
      statementId: 'S-1',
      amount: '99.00',
      currency: 'EUR',
      payerName: 'Erika Mustermann',
      payerIban: 'AT611904300234573201',
      remittance: 'Rechnung 4711',
      bookingDate: '2026-11-24',
      status: 'open',
      unmatchedReason: 'not_found',
      candidates: [] as string[],
      orderReference: null,
      resolution: null,
      resolvedBy: null,
      resolvedAt: null,
      importedAt: '2026-11-24T20:00:00.000Z',
    };
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/bank/unmatched': () => ({ body: { payments: [payment] } }),
      [`POST /api/ops/bank/unmatched/${payment.id}/assign`]: () => ({
        body: {
          payment: { ...payment, status: 'assigned' },
          order: { reference: 'ABCD-EFGH-IJKL-MNOP', type: 'buy', status: 'processing' },
        },
      }),
    });
    show('ops_unmatched');
    expect(await screen.findByText(en.unmatched.whyCodes.not_found)).toBeTruthy();
    expect(screen.getByText('AT61 1904 3002 3457 3201')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(en.unmatched.assignTo), { target: { value: 'abcd efgh' } });
    fireEvent.click(screen.getByRole('button', { name: en.unmatched.assign }));
    expect(
      await screen.findByText(
        fill(en.unmatched.assigned, { reference: 'ABCD-EFGH-IJKL-MNOP', status: en.orderStatus.processing }),
      ),
    ).toBeTruthy();
    expect(api.made(`POST /api/ops/bank/unmatched/${payment.id}/assign`)[0]!.body).toEqual({ target: 'abcd efgh' });
    expect(screen.queryByRole('button', { name: en.unmatched.refund })).toBeNull();
  });

  it('shows the candidates of a reason that names two open orders, and one click puts one in the assign field', async () => {
    const payment = {
      id: '77777777-7777-4777-8777-777777777777',
      entryRef: '2026112600003',
      statementId: 'S-2',
      amount: '42.00',
      currency: 'EUR',
      payerName: 'Anna Schmidt',
      payerIban: 'AT611904300234573201',
      remittance: 'Orders abcd-efgh and QWER TYUI',
      bookingDate: '2026-11-26',
      status: 'open',
      unmatchedReason: 'payment_reference_ambiguous',
      candidates: ['ABCD-EFGH', 'QWER-TYUI'],
      orderReference: null,
      resolution: null,
      resolvedBy: null,
      resolvedAt: null,
      importedAt: '2026-11-26T20:00:00.000Z',
    };
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/bank/unmatched': () => ({ body: { payments: [payment] } }),
      [`POST /api/ops/bank/unmatched/${payment.id}/assign`]: () => ({
        body: {
          payment: { ...payment, status: 'assigned' },
          order: { reference: 'QWER-TYUI-ASDF-GHJK', type: 'buy', status: 'processing' },
        },
      }),
    });
    show('ops_unmatched');
    expect(await screen.findByText(en.unmatched.whyCodes.payment_reference_ambiguous)).toBeTruthy();
    expect(screen.getByText(en.unmatched.candidates)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'QWER-TYUI' }));
    expect((screen.getByLabelText(en.unmatched.assignTo) as HTMLInputElement).value).toBe('QWER-TYUI');
    fireEvent.click(screen.getByRole('button', { name: en.unmatched.assign }));
    expect(
      await screen.findByText(
        fill(en.unmatched.assigned, { reference: 'QWER-TYUI-ASDF-GHJK', status: en.orderStatus.processing }),
      ),
    ).toBeTruthy();
    expect(api.made(`POST /api/ops/bank/unmatched/${payment.id}/assign`)[0]!.body).toEqual({ target: 'QWER-TYUI' });
  });

  it('enables a requested kind, and sends ID details back with a reason the customer will read', async () => {
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/verification-requests': () => ({
        body: {
          requests: [
            {
              email: 'ann@example.com',
              accountKey: 'K7Q2M9XA',
              kind: 'mobile',
              phase: 'not_enabled',
              requestedAt: '2026-11-24T08:00:00.000Z',
            },
          ],
        },
      }),
      'GET /api/ops/verification-documents': () => ({
        body: {
          documents: [
            { email: 'ben@example.com', accountKey: 'B8R3N4YC', kind: 'id', submittedAt: '2026-11-24T08:30:00.000Z' },
          ],
        },
      }),
      'GET /api/ops/identity': () => ({
        body: { email: 'ben@example.com', kinds: [{ kind: 'id', data: { firstName: 'Ben', lastName: 'Bauer' } }] },
      }),
      'POST /api/ops/verification/enable': () => ({
        body: { email: 'ann@example.com', kind: 'mobile', phase: 'step_1' },
      }),
      'POST /api/ops/verification/reject': (body) => ({ body: { ...(body as object), phase: 'step_1' } }),
    });
    show('ops_verifications');
    fireEvent.click(
      await screen.findByRole('button', { name: fill(en.verifications.requests.enable, { kind: en.kinds.mobile }) }),
    );
    expect(await screen.findByText(fill(en.verifications.requests.enabled, { kind: en.kinds.mobile }))).toBeTruthy();
    expect(api.made('POST /api/ops/verification/enable')[0]!.body).toEqual({
      email: 'ann@example.com',
      kind: 'mobile',
    });

    // The submitted details are read on request only (the API writes the read to the audit trail).
    expect(api.made('GET /api/ops/identity')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: en.verifications.documents.showDetails }));
    expect(await screen.findByText('Bauer')).toBeTruthy();
    expect(api.made('GET /api/ops/identity')[0]!.query.get('email')).toBe('ben@example.com');

    fireEvent.change(screen.getByLabelText(en.verifications.documents.reason), { target: { value: 'expired' } });
    expect(screen.getByText(enIdentity.me.rejectionReasons.expired)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.verifications.documents.reject }));
    expect(await screen.findByText(en.verifications.documents.rejected)).toBeTruthy();
    expect(api.made('POST /api/ops/verification/reject')[0]!.body).toEqual({
      email: 'ben@example.com',
      kind: 'id',
      reason: 'expired',
    });
  });
});

describe('orders, accounts, bank files, audit', () => {
  it('opens an order from the address and reads its history, with who did what', async () => {
    window.history.replaceState(null, '', '/ops/orders/?reference=ABCD-EFGH-IJKL-MNOP');
    const summary = {
      reference: 'ABCD-EFGH-IJKL-MNOP',
      shortReference: 'ABCD-EFGH',
      type: 'buy',
      status: 'processing',
      currencyFrom: 'EUR',
      currencyTo: 'BTC',
      amount: '90.00',
      amountEur: '90.00',
      email: 'buyer@example.com',
      accountKey: null,
      createdAt: '2026-11-24T08:00:00.000Z',
      completedAt: null,
      failureReason: null,
    };
    const event = (at: string, kind: string, extra: object = {}) => ({
      at,
      kind,
      actor: null,
      action: null,
      status: null,
      amount: null,
      currency: null,
      detail: null,
      ...extra,
    });
    mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/orders/ABCD-EFGH-IJKL-MNOP': () => ({
        body: {
          order: {
            ...summary,
            address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
            receivingAddress: null,
            amountReceived: '90.00',
            actualAmountConverted: null,
            payoutTxid: null,
            refund: null,
            language: 'de',
            businessHold: false,
            payoutAwaitingApproval: true,
          },
          history: [
            event('2026-11-24T08:00:00.000Z', 'placed', { status: 'new', amount: '90.00', currency: 'EUR' }),
            event('2026-11-24T09:00:00.000Z', 'audit', {
              actor: 'ops|me',
              action: 'bank.payment_matched',
              amount: '90.00',
              currency: 'EUR',
              detail: '2026112400001',
            }),
            event('2026-11-24T09:01:00.000Z', 'payout_requested', {
              status: 'awaiting_approval',
              detail: 'order_delivery · above_limit',
            }),
          ],
        },
      }),
    });
    show('ops_orders');
    expect(
      await screen.findByRole('heading', { name: fill(en.orders.detailTitle, { reference: 'ABCD-EFGH-IJKL-MNOP' }) }),
    ).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[2]!.textContent).toContain(en.auditActions.bank.payment_matched);
    expect(within(rows[2]!).getByText(en.common.you)).toBeTruthy();
    expect(rows[3]!.textContent).toContain(en.orders.events.payout_requested);
    expect(screen.getByText(en.orders.payoutAwaitingApproval)).toBeTruthy();
  });

  it('searches an account, opens it and freezes its sends with a reason', async () => {
    const account = {
      accountKey: 'K7Q2M9XA',
      email: 'ann@example.com',
      displayName: 'Ann',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const detail = {
      account,
      balances: {
        balances: [{ currency: 'BTC', name: 'Bitcoin', balance: '0.01000000', eurEstimate: '800.00', support: 'full' }],
        totalEur: '800.00',
        ratesAt: '2026-11-24T00:00:00.000Z',
      },
      verifications: [
        {
          kind: 'id',
          phase: 'step_1',
          requestedAt: null,
          submittedAt: '2026-11-20T00:00:00.000Z',
          verifiedAt: null,
          rejection: { reason: 'expired', at: '2026-11-21T00:00:00.000Z' },
        },
      ],
      orders: [],
      sends: [],
      sendsFrozen: false,
      audit: [],
    };
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/accounts': () => ({ body: { accounts: [account] } }),
      'GET /api/ops/accounts/K7Q2M9XA': () => ({ body: detail }),
      'POST /api/ops/accounts/K7Q2M9XA/freeze': () => ({ body: { accountKey: 'K7Q2M9XA', frozen: true } }),
    });
    show('ops_accounts');
    fireEvent.change(await screen.findByLabelText(en.accounts.q), { target: { value: 'ann@' } });
    fireEvent.click(screen.getByRole('button', { name: en.common.search }));
    expect(
      await screen.findByRole('heading', { name: fill(en.accounts.detailTitle, { key: 'K7Q2M9XA' }) }),
    ).toBeTruthy();
    expect(window.location.search).toBe('?key=K7Q2M9XA');
    expect(
      screen.getByText(fill(en.accounts.rejected, { reason: en.verifications.reasons.expired }), { exact: false }),
    ).toBeTruthy();
    const freeze = screen.getByRole('button', { name: en.accounts.freeze }) as HTMLButtonElement;
    expect(freeze.disabled).toBe(true);
    // Sends not frozen: Freeze only, never Unfreeze beside it.
    expect(screen.queryByRole('button', { name: en.accounts.unfreeze })).toBeNull();
    fireEvent.change(screen.getByLabelText(en.accounts.freezeReason), {
      target: { value: 'Phishing reported by the customer' },
    });
    fireEvent.click(freeze);
    expect(await screen.findByText(en.accounts.frozeDone)).toBeTruthy();
    expect(api.made('POST /api/ops/accounts/K7Q2M9XA/freeze')[0]!.body).toEqual({
      reason: 'Phishing reported by the customer',
    });
  });

  it('lists the latest orders before any search, then what a search finds', async () => {
    window.history.replaceState(null, '', '/ops/orders/');
    const summary = (reference: string, status: 'new' | 'processing') => ({
      reference,
      shortReference: reference.slice(0, 9),
      type: 'buy',
      status,
      currencyFrom: 'EUR',
      currencyTo: 'BTC',
      amount: '80.00',
      amountEur: '80.00',
      email: 'ann@example.com',
      accountKey: null,
      createdAt: '2026-11-24T10:00:00.000Z',
      completedAt: null,
      failureReason: null,
    });
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/orders': (_, query) => ({
        body: {
          orders: query.get('q')
            ? [summary('WXYZ-EFGH-IJKL-MNOP', 'new')]
            : [summary('ABCD-EFGH-IJKL-MNOP', 'processing')],
        },
      }),
    });
    show('ops_orders');
    expect(await screen.findByRole('heading', { name: en.orders.latest })).toBeTruthy();
    expect(screen.getByText('ABCD-EFGH-IJKL-MNOP')).toBeTruthy();
    expect(api.made('GET /api/ops/orders')).toHaveLength(1);
    fireEvent.change(screen.getByLabelText(en.orders.q), { target: { value: 'wxyz' } });
    fireEvent.click(screen.getByRole('button', { name: en.common.search }));
    expect(await screen.findByRole('heading', { name: en.orders.found })).toBeTruthy();
    expect(await screen.findByText('WXYZ-EFGH-IJKL-MNOP')).toBeTruthy();
  });

  it('uploads a statement as XML and exports the payouts file as a download', async () => {
    const saved: { name: string; text: string }[] = [];
    const createObjectURL = jest.fn((blob: Blob) => {
      void blobText(blob).then((text) => saved.push({ name: '', text }));
      return 'blob:payouts';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const clicked: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/bank/exports': () => ({ body: { exports: [] } }),
      // Streamed: progress per committed batch, then the result.
      'POST /api/ops/bank/statements': () => ({
        type: 'application/x-ndjson',
        body: [
          { progress: { done: 100, total: 120 } },
          { progress: { done: 120, total: 120 } },
          {
            result: {
              version: 'camt.053.001.02',
              statements: ['S-1'],
              otherAccounts: [{ statementId: 'S-2', iban: 'NL91 … 4300', payments: 2 }],
              lines: [
                {
                  entryRef: 'B-1',
                  direction: 'credit',
                  amount: '90.00',
                  currency: 'EUR',
                  outcome: 'booked',
                  reference: 'ABCD-EFGH-IJKL-MNOP',
                  paymentId: 'p',
                  reason: null,
                },
              ],
              counts: {
                booked: 2,
                unmatched: 1,
                duplicate: 0,
                payout_completed: 0,
                payout_returned: 0,
                skipped: 0,
                ignored: 0,
              },
            },
          },
        ]
          .map((line) => JSON.stringify(line))
          .join('\n'),
      }),
      'POST /api/ops/bank/payouts-export': () => ({
        body: {
          export: {
            id: '77777777-7777-4777-8777-777777777777',
            messageId: 'MUNTLY-20261124-1',
            payouts: 1,
            total: '12500.00',
            createdBy: 'ops|me',
            createdAt: '2026-11-24T10:00:00.000Z',
          },
          xml: '<Document/>',
          skipped: [],
        },
      }),
    });
    show('ops_bank');
    // ISO-8859-1 bytes (ü is 0xFC): sent as they are, never read as text here.
    const bytes = new Uint8Array([
      0x3c, 0x4e, 0x6d, 0x3e, 0x4a, 0xfc, 0x72, 0x67, 0x65, 0x6e, 0x3c, 0x2f, 0x4e, 0x6d, 0x3e,
    ]);
    const file = new File([bytes], 'statement.xml', { type: 'application/xml' });
    Object.defineProperty(file, 'arrayBuffer', { value: async () => bytes.buffer });
    fireEvent.change(await screen.findByLabelText(en.bank.statement.file), { target: { files: [file] } });
    fireEvent.click(screen.getByRole('button', { name: en.bank.statement.upload }));
    expect(
      await screen.findByText(
        fill(en.bank.imported, { version: 'camt.053.001.02', booked: 2, unmatched: 1, duplicate: 0, completed: 0 }),
      ),
    ).toBeTruthy();
    const upload = api.made('POST /api/ops/bank/statements')[0]!;
    expect(upload.headers).toMatchObject({ 'content-type': 'application/xml', accept: 'application/x-ndjson' });
    const sent = (globalThis.fetch as jest.Mock).mock.calls.find(([url]) =>
      String(url).endsWith('/api/ops/bank/statements'),
    )![1].body as ArrayBuffer;
    expect([...new Uint8Array(sent)]).toEqual([...bytes]);
    expect(
      screen.getByText(fill(en.bank.statement.otherAccount, { iban: 'NL91 … 4300', id: 'S-2', payments: 2 })),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: en.bank.statement.toUnmatched }).getAttribute('href')).toBe(
      '/ops/unmatched/',
    );

    // A file the server cannot read for certain: the refusal in the operator's language, even when it
    // comes as the streamed answer's last line.
    api.routes['POST /api/ops/bank/statements'] = () => ({
      type: 'application/x-ndjson',
      body: JSON.stringify({ error: { code: 'statement_encoding', message: 'The file declares no encoding…' } }),
    });
    fireEvent.click(screen.getByRole('button', { name: en.bank.statement.upload }));
    expect(await screen.findByText(enErrors.statement_encoding)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: en.bank.export.make }));
    expect(
      await screen.findByText(
        fill(en.bank.export.made, { file: 'MUNTLY-20261124-1.xml', count: 1, total: '€12,500.00' }),
      ),
    ).toBeTruthy();
    expect(clicked).toEqual(['MUNTLY-20261124-1.xml']);
    await waitFor(() => expect(saved.map((s) => s.text)).toEqual(['<Document/>']));
  });

  it('filters the audit trail, downloads it as CSV with the same filters, and checks the chain', async () => {
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:csv'), revokeObjectURL: jest.fn() });
    const row = {
      id: 7,
      at: '2026-11-24T10:00:00.000Z',
      actor: 'ops|me',
      action: 'payout.approve',
      target: 'abc',
      before: { status: 'awaiting_approval' },
      after: { status: 'pending' },
      prevHash: 'x',
      hash: 'y',
    };
    const api = mockApi({
      'GET /api/ops/queues': queues,
      'GET /api/ops/audit': () => ({ body: { entries: [row], nextCursor: null } }),
      'GET /api/ops/audit.csv': () => ({ body: 'id,at\n7,2026', type: 'text/csv' }),
      'GET /api/ops/audit/verify': () => ({
        body: { ok: true, rows: 7, lastId: 7, lastHash: 'f'.repeat(64), broken: null },
      }),
    });
    show('ops_audit');
    expect(await screen.findByText('status: awaiting_approval')).toBeTruthy();
    expect(within(screen.getByRole('table')).getByText(en.auditActions.payout.approve)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(en.audit.action), { target: { value: 'payout.' } });
    fireEvent.change(screen.getByLabelText(en.audit.from), { target: { value: '2026-11-24' } });
    fireEvent.click(screen.getByRole('button', { name: en.audit.filter }));
    await waitFor(() => expect(api.made('GET /api/ops/audit')).toHaveLength(2));
    expect(Object.fromEntries(api.made('GET /api/ops/audit')[1]!.query)).toEqual({
      action: 'payout.',
      from: '2026-11-24',
      limit: '50',
    });
    fireEvent.click(screen.getByRole('button', { name: en.audit.csv }));
    expect(await screen.findByText(en.audit.downloaded)).toBeTruthy();
    expect(Object.fromEntries(api.made('GET /api/ops/audit.csv')[0]!.query)).toEqual({
      action: 'payout.',
      from: '2026-11-24',
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: en.audit.verify }));
    });
    expect((await screen.findByText(fill(en.audit.holds, { rows: 7, id: 7 }), { exact: false })).textContent).toContain(
      'f'.repeat(64),
    );
  });
});
