import '../../../../__tests__/support/polyfills';
import { screen, waitFor, fireEvent, act, within } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { OrderHistory } from '../components/order-history';
import { StaticSession } from '../session';
import { mockApi, apiError, ORDER } from './fetch-mock';

const en = loadResources('en').exchange as any;
const enErrors = loadResources('en').errors as any;
const ru = loadResources('ru').exchange as any;

/** A stand-in for the browser's EventSource: the test plays the server. */
class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  private listeners: Record<string, ((event: unknown) => void)[]> = {};
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  emit(type: string, data?: unknown) {
    if (type === 'open') this.readyState = FakeEventSource.OPEN;
    for (const listener of this.listeners[type] ?? []) listener({ data: JSON.stringify(data) });
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

beforeEach(() => {
  FakeEventSource.instances = [];
  (globalThis as { EventSource: unknown }).EventSource = FakeEventSource;
});

const lookup = (email: string, reference: string) => {
  fireEvent.change(screen.getByLabelText(en.history.email), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(en.history.reference), { target: { value: reference } });
  fireEvent.click(screen.getByRole('button', { name: en.history.submit }));
};

describe('OrderHistory', () => {
  it('checks the reference format in the browser, then sends it in canonical form', async () => {
    const api = mockApi({ 'POST /api/orders/lookup': () => ({ body: ORDER }) });
    renderInLanguage(<OrderHistory />);
    lookup('ada@example.com', 'ABCD-EFGH-IJKL');
    await waitFor(() => expect(screen.getByLabelText(en.history.reference)).toHaveAccessibleDescription(expect.stringContaining(enErrors.invalid_reference)));
    expect(api.calls).toHaveLength(0);
    lookup('ada@example.com', ' abcd efgh-ijklmnop ');
    await screen.findByRole('heading', { name: `Order ${ORDER.reference}` });
    expect(api.callsTo('POST /api/orders/lookup')[0]!.body).toEqual({ email: 'ada@example.com', reference: 'ABCD-EFGH-IJKL-MNOP' });
  });

  it('says clearly when nothing matches, and asks to wait when rate-limited', async () => {
    let answer = apiError(404, 'not_found');
    mockApi({ 'POST /api/orders/lookup': () => answer });
    renderInLanguage(<OrderHistory />);
    lookup('ada@example.com', 'ABCDEFGHIJKLMNOP');
    expect(await screen.findByRole('alert')).toHaveTextContent(en.history.notFound);
    answer = apiError(429, 'try_again_soon');
    lookup('ada@example.com', 'ABCDEFGHIJKLMNOP');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Try again soon!'));
  });

  it('shows every field of the order and follows it live over server-sent events', async () => {
    mockApi({ 'POST /api/orders/lookup': () => ({ body: ORDER }) });
    renderInLanguage(<OrderHistory initialLookup={{ email: 'ada@example.com', reference: ORDER.reference }} />, 'ru');
    await screen.findByRole('heading', { name: `Заявка ${ORDER.reference}` });
    const fields = document.querySelector('.order-fields')!;
    // What is known of a new order; what is not known yet (the actual rate, where it was sent) has no row.
    const labels = ru.order.fields as Record<string, string>;
    const later = ['actualAmountConverted', 'amountReceived', 'actualNetworkFee', 'actualRate', 'completedAt', 'delivery'];
    for (const [key, label] of Object.entries(labels)) {
      if (later.includes(key)) expect(fields).not.toHaveTextContent(label);
      else expect(fields).toHaveTextContent(label);
    }
    expect(fields).toHaveTextContent(ru.order.floating);
    expect(fields).toHaveTextContent(ru.methods.sepa);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(`Статус: ${ru.order.status.new}`);
    // Payment details stay visible while the payment is awaited.
    expect(screen.getByRole('table', { name: ru.confirm.payment.heading })).toBeInTheDocument();

    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe(`/api/orders/${ORDER.reference}/events?email=ada%40example.com`);
    act(() => source.emit('open'));
    act(() => source.emit('order', { ...ORDER, status: 'processing', amountReceived: '80.00' }));
    expect(status).toHaveTextContent(`Статус: ${ru.order.status.processing}`);
    act(() =>
      source.emit('order', {
        ...ORDER,
        status: 'completed_success',
        amountReceived: '80.00',
        actualRate: '0.00001260000',
        actualAmountConverted: '0.00098000',
        actualNetworkFee: '0.00002000',
        actualFee: '2.00',
        payoutTxid: 'f00d',
        completedAt: '2025-03-01T10:05:00.000Z',
      }),
    );
    expect(status).toHaveTextContent(`Статус: ${ru.order.status.completed_success}`);
    expect(fields).toHaveTextContent('0,00098 BTC');
    expect(fields).toHaveTextContent('f00d');
    for (const key of later) expect(fields).toHaveTextContent(labels[key]!);
    expect(fields).toHaveTextContent(ru.order.toAddress);
    // Completed: the stream is closed rather than reconnected.
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    expect(screen.queryByRole('table', { name: ru.confirm.payment.heading })).toBeNull();
  });

  it('explains a failure and where the money goes', async () => {
    mockApi({
      'POST /api/orders/lookup': () => ({
        body: { ...ORDER, status: 'completed_failure', amountReceived: '75.00', failure: { reason: 'amount_mismatch', refund: 'bank' }, completedAt: '2025-03-01T10:05:00.000Z' },
      }),
    });
    renderInLanguage(<OrderHistory />);
    lookup('ada@example.com', ORDER.reference);
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent(enErrors.amount_mismatch);
    expect(failure).toHaveTextContent(en.order.refund.bank);
    expect(screen.getByRole('status')).toHaveTextContent('Completed (failure)');
    expect(FakeEventSource.instances).toHaveLength(0); // nothing left to follow
    // Nothing was sent: the order does not say it was.
    expect(document.querySelector('.order-fields')).not.toHaveTextContent(en.order.toAddress);
    expect(document.querySelector('.order-fields')).not.toHaveTextContent(en.order.fields.delivery);
  });

  it('lists a logged-in user’s own orders, each openable', async () => {
    const second = {
      ...ORDER,
      reference: 'QRST-UVWX-YZAB-CDEF',
      shortReference: 'QRST-UVWX',
      type: 'swap',
      currencyFrom: 'BTC',
      currencyTo: 'ETH',
      amount: '0.01',
      status: 'completed_success',
      paymentDetails: null,
    };
    const api = mockApi({ 'GET /api/me/orders': () => ({ body: { orders: [second, ORDER] } }) });
    renderInLanguage(
      <StaticSession value={{ status: 'authenticated', getToken: async () => 'token-2' }}>
        <OrderHistory />
      </StaticSession>,
    );
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(api.callsTo('GET /api/me/orders')[0]!.headers.authorization).toBe('Bearer token-2');
    fireEvent.click(screen.getByRole('button', { name: `Show order ${second.reference}` }));
    await screen.findByRole('heading', { name: `Order ${second.reference}` });
    expect(screen.getByRole('status')).toHaveTextContent('Completed (success)');
  });
});
