import '../../../../__tests__/support/polyfills';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { OrderHistory } from '../components/order-history';
import { StaticSession } from '../session';
import { apiError, mockApi, ORDER } from './fetch-mock';

const en = loadResources('en').exchange as any;
const enErrors = loadResources('en').errors as any;
const de = loadResources('de').exchange as any;

const RETURNED = {
  ...ORDER,
  type: 'sell',
  currencyFrom: 'BTC',
  currencyTo: 'EUR',
  status: 'completed_success',
  address: 'BE68539007547034',
  payoutReturn: {
    reason: 'AC04',
    amount: '79.20',
    iban: 'BE68539007547034',
    returnedAt: '2026-11-27T10:00:00.000Z',
    state: 'awaiting_iban',
    newIban: null,
    awaitingApproval: false,
  },
};
const TOKEN = 'AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB.CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('a returned payout', () => {
  it('the emailed link opens the order: the bank’s reason in words, a form for another IBAN with the holder’s name; the token leaves the address bar', async () => {
    window.history.replaceState(null, '', `/exchange/order-history/?newIban=${TOKEN}`);
    const api = mockApi({
      'POST /api/orders/return-link': () => ({ body: RETURNED }),
      [`POST /api/orders/${ORDER.reference}/new-iban`]: (call) =>
        (call.body as { iban: string }).iban.startsWith('BE68')
          ? apiError(400, 'iban_returned', 'iban')
          : {
              body: {
                ...RETURNED,
                payoutReturn: {
                  ...RETURNED.payoutReturn,
                  state: 'new_payout_pending',
                  newIban: 'FR1420041010050500013M02606',
                },
              },
            },
    });
    renderInLanguage(<OrderHistory />);
    await screen.findByRole('heading', { name: en.order.payoutReturn.heading });
    expect(api.callsTo('POST /api/orders/return-link')[0]!.body).toEqual({ token: TOKEN });
    expect(window.location.search).toBe('');
    expect(screen.getByText(en.order.returnReasons.AC04)).toBeTruthy();
    expect(screen.getByText('The bank of the account BE68 5390 0754 7034 sent the €79.20 back to us.')).toBeTruthy();

    const submit = () => fireEvent.click(screen.getByRole('button', { name: en.order.payoutReturn.submit }));
    // Checked in the browser first: a wrong IBAN, and the name the link requires.
    fireEvent.change(screen.getByLabelText(en.order.payoutReturn.iban), {
      target: { value: 'DE89 3704 0044 0532 0130 01' },
    });
    submit();
    await waitFor(() =>
      expect(screen.getByLabelText(en.order.payoutReturn.iban)).toHaveAccessibleDescription(enErrors.invalid_iban),
    );
    expect(screen.getByLabelText(en.order.payoutReturn.holder)).toHaveAccessibleDescription(
      expect.stringContaining(enErrors.required),
    );
    expect(api.callsTo(`POST /api/orders/${ORDER.reference}/new-iban`)).toHaveLength(0);
    // The server's refusal, by the field.
    fireEvent.change(screen.getByLabelText(en.order.payoutReturn.iban), { target: { value: 'BE68 5390 0754 7034' } });
    fireEvent.change(screen.getByLabelText(en.order.payoutReturn.holder), { target: { value: 'Sophie Martin' } });
    submit();
    await waitFor(() =>
      expect(screen.getByLabelText(en.order.payoutReturn.iban)).toHaveAccessibleDescription(enErrors.iban_returned),
    );
    fireEvent.change(screen.getByLabelText(en.order.payoutReturn.iban), {
      target: { value: 'FR14 2004 1010 0505 0001 3M02 606' },
    });
    submit();
    await screen.findByText(/We are sending €79\.20 to FR14 2004 1010 0505 0001 3M02 606\./);
    expect(api.callsTo(`POST /api/orders/${ORDER.reference}/new-iban`)[1]!.body).toEqual({
      iban: 'FR14 2004 1010 0505 0001 3M02 606',
      holderName: 'Sophie Martin',
      token: TOKEN,
    });
    expect(screen.queryByRole('button', { name: en.order.payoutReturn.submit })).toBeNull();
  });

  it('a link that expired or was used says so, in the page’s language', async () => {
    window.history.replaceState(null, '', `/de/exchange/order-history/?newIban=${TOKEN}`);
    mockApi({ 'POST /api/orders/return-link': () => apiError(400, 'return_link_expired', 'token') });
    renderInLanguage(<OrderHistory />, 'de');
    expect(await screen.findByRole('alert')).toHaveTextContent((loadResources('de').errors as any).return_link_expired);
    expect(de.order.payoutReturn.heading).not.toBe(en.order.payoutReturn.heading);
  });

  it('logged in, the own orders mark it, and the order takes another IBAN without a link', async () => {
    const api = mockApi({
      'GET /api/me/orders': () => ({ body: { orders: [{ ...RETURNED, email: 'ada@example.com' }] } }),
      [`POST /api/orders/${ORDER.reference}/new-iban`]: () => ({
        body: {
          ...RETURNED,
          payoutReturn: {
            ...RETURNED.payoutReturn,
            state: 'new_payout_pending',
            newIban: 'FR1420041010050500013M02606',
            awaitingApproval: true,
          },
        },
      }),
    });
    renderInLanguage(
      <StaticSession value={{ status: 'authenticated', getToken: async () => 'token-7' }}>
        <OrderHistory />
      </StaticSession>,
    );
    const table = await screen.findByRole('table');
    expect(within(table).getByText(en.order.payoutReturn.heading)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: `Show order ${ORDER.reference}` }));
    fireEvent.change(await screen.findByLabelText(en.order.payoutReturn.iban), {
      target: { value: 'FR1420041010050500013M02606' },
    });
    fireEvent.click(screen.getByRole('button', { name: en.order.payoutReturn.submit }));
    await screen.findByText(/once two of our team have checked it/);
    const [call] = api.callsTo(`POST /api/orders/${ORDER.reference}/new-iban`);
    expect(call!.headers.authorization).toBe('Bearer token-7');
    expect(call!.body).toEqual({ iban: 'FR1420041010050500013M02606' });
  });
});
