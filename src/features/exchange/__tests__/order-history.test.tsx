import '../../../../__tests__/support/polyfills';
import { screen, waitFor, fireEvent, act, within } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { forgetAnswers } from '../../../app/ask-once';
import { OrderHistory } from '../components/order-history';
import { StaticSession } from '../session';
import { mockApi, apiError, ORDER } from './fetch-mock';

const en = loadResources('en').exchange as any;
const enCommon = loadResources('en').common as any;
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

/** A sell waiting for its coins: they go to a receiving address, the euros to the seller's IBAN. */
const SELL = {
  ...ORDER,
  type: 'sell',
  currencyFrom: 'BTC',
  currencyTo: 'EUR',
  amount: '0.00050000',
  address: 'DE02120300000000202051',
  beneficiary: 'Selma Seller',
  paymentDetails: null,
  receiving: {
    currency: 'BTC',
    address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    tag: null,
    amount: '0.00050000',
  },
};

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
    await waitFor(() =>
      expect(screen.getByLabelText(en.history.reference)).toHaveAccessibleDescription(
        expect.stringContaining(enErrors.invalid_reference),
      ),
    );
    expect(api.calls).toHaveLength(0);
    lookup('ada@example.com', ' abcd efgh-ijklmnop ');
    await screen.findByRole('heading', { name: `Order ${ORDER.reference}` });
    expect(api.callsTo('POST /api/orders/lookup')[0]!.body).toEqual({
      email: 'ada@example.com',
      reference: 'ABCD-EFGH-IJKL-MNOP',
    });
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

  it('shows what to do first while the payment is awaited, then the status and the details grouped, and follows it live over server-sent events', async () => {
    mockApi({ 'POST /api/orders/lookup': () => ({ body: ORDER }) });
    renderInLanguage(<OrderHistory initialLookup={{ email: 'ada@example.com', reference: ORDER.reference }} />, 'ru');
    await screen.findByRole('heading', { name: `Заявка ${ORDER.reference}` });
    // The transfer to make, with its copy buttons, comes before the status.
    const next = screen.getByRole('region', { name: ru.confirm.next });
    expect(
      next.compareDocumentPosition(screen.getByRole('list', { name: ru.order.stepper })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(within(next).getByRole('button', { name: 'Копировать: IBAN' })).toBeInTheDocument();
    expect(within(next).getByRole('button', { name: 'Копировать: назначение платежа' })).toBeInTheDocument();
    const yours = screen.getByRole('region', { name: ru.order.groups.order });
    const delivery = screen.getByRole('region', { name: ru.order.groups.delivery });
    // What is known of a new order; what is not known yet (the actual rate, where it was sent) has no row.
    const labels = ru.order.fields as Record<string, string>;
    for (const key of [
      'type',
      'amount',
      'estimatedAmountConverted',
      'estimatedRate',
      'fee',
      'estimatedNetworkFee',
      'paymentMethod',
      'rateType',
      'shortReference',
      'date',
    ])
      expect(yours).toHaveTextContent(labels[key]!);
    const later = [
      'actualAmountConverted',
      'amountReceived',
      'actualNetworkFee',
      'actualRate',
      'completedAt',
      'delivery',
      'payoutTxid',
    ];
    for (const key of later) expect(document.querySelector('.order-fields')).not.toHaveTextContent(labels[key]!);
    expect(yours).toHaveTextContent(ru.order.floating);
    expect(yours).toHaveTextContent(ru.methods.sepa);
    expect(delivery).toHaveTextContent(`${labels.address}${ORDER.address}`);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(`Статус: ${ru.order.status.new}`);

    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe(`/api/orders/${ORDER.reference}/events?email=ada%40example.com`);
    act(() => source.emit('open'));
    act(() => source.emit('order', { ...ORDER, status: 'processing', amountReceived: '80.00' }));
    expect(status).toHaveTextContent(`Статус: ${ru.order.status.processing}`);
    // Paid: the block of what to do gives way to the status.
    expect(screen.queryByRole('region', { name: ru.confirm.next })).toBeNull();
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
    expect(yours).toHaveTextContent('0,00098 BTC');
    for (const key of later.filter((k) => k !== 'delivery' && k !== 'payoutTxid'))
      expect(yours).toHaveTextContent(labels[key]!);
    expect(delivery).toHaveTextContent(`${labels.delivery}${ru.order.toAddress}`);
    expect(delivery).toHaveTextContent(`${labels.payoutTxid}f00d`);
    // Completed: the stream is closed rather than reconnected.
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    await act(async () => undefined); // the explorers' answer (none here)
  });

  it('links a payout’s transaction hash to the block explorer configured for its currency, and leaves it as text to copy without one', async () => {
    const completed = {
      ...ORDER,
      status: 'completed_success',
      amountReceived: '80.00',
      actualAmountConverted: '0.00098000',
      payoutTxid: 'a1b2c3',
      completedAt: '2025-03-01T10:05:00.000Z',
      paymentDetails: null,
    };
    let explorers: Record<string, string> = {
      BTC: 'https://mempool.space/tx/{txid}',
      ETH: 'https://etherscan.io/tx/{txid}',
    };
    mockApi({
      'POST /api/orders/lookup': () => ({ body: completed }),
      'GET /api/exchange/config': () => ({
        body: {
          buySellEnabled: true,
          bank: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', beneficiary: 'Muntly' },
          explorers,
        },
      }),
    });
    const { unmount } = renderInLanguage(
      <OrderHistory initialLookup={{ email: 'ada@example.com', reference: ORDER.reference }} />,
    );
    const link = await screen.findByRole('link', { name: `a1b2c3 ${enCommon.txHash.explorer}` });
    expect(link).toHaveAttribute('href', 'https://mempool.space/tx/a1b2c3');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('button', { name: 'Copy transaction hash' })).toBeInTheDocument();
    // A completed order has nothing left to do.
    expect(screen.queryByRole('region', { name: en.confirm.next })).toBeNull();
    unmount();

    explorers = {}; // local mode, on another visit (the configuration is asked once per visit)
    forgetAnswers();
    renderInLanguage(<OrderHistory initialLookup={{ email: 'ada@example.com', reference: ORDER.reference }} />);
    await screen.findByRole('heading', { name: `Order ${ORDER.reference}` });
    await waitFor(() => expect(screen.getByText('a1b2c3', { selector: 'code' })).toBeInTheDocument());
    expect(screen.queryByRole('link', { name: /a1b2c3/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy transaction hash' })).toBeInTheDocument();
  });

  it('shows each currency’s logo next to its amounts and rates: the transfer to make, the details, the crypto to send', async () => {
    const logosIn = (element: Element) =>
      [...element.querySelectorAll('img.currency-icon')].map((img) => img.getAttribute('src')!.replace(/^.*\//, ''));
    mockApi({ 'POST /api/orders/lookup': () => ({ body: ORDER }) });
    const { unmount } = renderInLanguage(
      <OrderHistory initialLookup={{ email: 'ada@example.com', reference: ORDER.reference }} />,
    );
    await screen.findByRole('heading', { name: `Order ${ORDER.reference}` });
    // The amount to transfer, in euros.
    expect(logosIn(screen.getByRole('region', { name: en.confirm.next }))).toEqual(['eur.svg']);
    // Amount (EUR), estimated amount (BTC), rate (1 BTC ≈ …), fee (EUR), network fee (BTC).
    const yours = screen.getByRole('region', { name: en.order.groups.order });
    expect(logosIn(yours)).toEqual(['eur.svg', 'btc.svg', 'btc.svg', 'eur.svg', 'btc.svg']);
    // Decorative: the code beside it names the currency.
    for (const img of yours.querySelectorAll('img')) expect(img).toHaveAttribute('alt', '');
    unmount();

    const sell = {
      ...ORDER,
      type: 'sell',
      currencyFrom: 'ETH',
      currencyTo: 'EUR',
      amount: '0.050000000',
      paymentDetails: null,
      receiving: {
        currency: 'ETH',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        tag: null,
        amount: '0.050000000',
      },
    };
    mockApi({ 'POST /api/orders/lookup': () => ({ body: sell }) });
    renderInLanguage(<OrderHistory initialLookup={{ email: 'ada@example.com', reference: ORDER.reference }} />);
    await screen.findByRole('heading', { name: `Order ${ORDER.reference}` });
    expect(logosIn(screen.getByRole('region', { name: en.confirm.next }))).toEqual(['eth.svg']);
  });

  it('names a sell’s IBAN as the bank account it is, grouped by four, not as a delivery address (German)', async () => {
    const de = loadResources('de').exchange as any;
    mockApi({ 'POST /api/orders/lookup': () => ({ body: SELL }) });
    renderInLanguage(
      <OrderHistory initialLookup={{ email: 'ada@example.com', reference: ORDER.reference }} />,
      'de',
      '/de/exchange/order-history/',
    );
    const delivery = await screen.findByRole('region', { name: de.order.groups.delivery });
    const labels = [...delivery.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(labels).toContain(de.form.iban);
    expect(labels).not.toContain(de.order.fields.address);
    const iban = within(delivery).getByText('DE02 1203 0000 0000 2020 51');
    // Breaks only between its groups (code.address would break it anywhere).
    expect(iban.tagName).toBe('CODE');
    expect(iban).toHaveClass('iban');
    expect(iban).not.toHaveClass('address');
  });

  it('opens a sell from its email’s link: by when to send the coins, no payment reason, followed live by the link, the lookup folded away below', async () => {
    const link = 'ABCDEFGHIJKLMNOP.t0k3n.CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';
    window.history.replaceState(null, '', `/exchange/order-history/?order=${link}`);
    const sell = {
      ...SELL,
      paymentMethod: null,
      payBy: '2025-03-08T10:00:00.000Z',
      email: 'selma@example.com',
      link,
    };
    const api = mockApi({ 'POST /api/orders/open': () => ({ body: sell }) });
    renderInLanguage(<OrderHistory />);
    const next = await screen.findByRole('region', { name: en.confirm.next });
    expect(api.callsTo('POST /api/orders/open')[0]!.body).toEqual({ token: link });
    expect(within(next).getByTestId('pay-by').textContent).toMatch(/^Send by /);
    const labels = [...document.querySelectorAll('.order-summary dt')].map((dt) => dt.textContent);
    expect(labels).not.toContain(en.order.fields.shortReference);
    // Followed by the link (not counted as a lookup), never by the email.
    expect(FakeEventSource.instances.map((source) => source.url)).toEqual([
      expect.stringMatching(new RegExp(`/api/orders/${ORDER.reference}/events\\?link=${link}$`)),
    ]);
    // Finding another order comes after this one, closed until asked for.
    const another = screen.getByText(en.history.findAnother).closest('details')!;
    expect(another.open).toBe(false);
    expect(another.compareDocumentPosition(next) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy();
    expect(within(another).getByLabelText(en.history.email)).toBeTruthy();
    window.history.replaceState(null, '', '/');
  });

  it('explains a failure and where the money goes', async () => {
    mockApi({
      'POST /api/orders/lookup': () => ({
        body: {
          ...ORDER,
          status: 'completed_failure',
          amountReceived: '75.00',
          failure: { reason: 'amount_mismatch', refund: 'bank' },
          completedAt: '2025-03-01T10:05:00.000Z',
        },
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

  it('says when the order’s payout waits for two operators’ approval, and stops saying it once approved', async () => {
    mockApi({
      'POST /api/orders/lookup': () => ({
        body: { ...ORDER, status: 'processing', amountReceived: '80.00', payoutAwaitingApproval: true },
      }),
    });
    renderInLanguage(<OrderHistory />);
    lookup('ada@example.com', ORDER.reference);
    expect(await screen.findByText(en.order.payoutAwaitingApproval)).toBeTruthy();
    const source = FakeEventSource.instances[0]!;
    act(() => source.emit('open'));
    act(() =>
      source.emit('order', { ...ORDER, status: 'processing', amountReceived: '80.00', payoutAwaitingApproval: false }),
    );
    await waitFor(() => expect(screen.queryByText(en.order.payoutAwaitingApproval)).toBeNull());
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
