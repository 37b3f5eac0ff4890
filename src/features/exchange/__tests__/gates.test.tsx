import '../../../../__tests__/support/polyfills';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { forgetAnswers } from '../../../app/ask-once';
import { Confirmation } from '../components/confirmation';
import { Deposit } from '../components/deposit';
import { StaticSession, type ExchangeSession } from '../session';
import { apiError, mockApi, ORDER } from './fetch-mock';

const en = loadResources('en').exchange as any;
const enErrors = loadResources('en').errors as any;
const de = loadResources('de').exchange as any;

/** An order paid from the wallet out to an ETH address, waiting for its emailed code. */
const WALLET_ORDER = {
  ...ORDER,
  type: 'swap',
  currencyFrom: 'BTC',
  currencyTo: 'ETH',
  amount: '0.00100000',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  paymentMethod: null,
  paymentDetails: null,
  useMyWallet: true,
  awaitingCode: true,
};

const ME = {
  accountKey: '7KQ2M9',
  depositReference: 'DEPOSIT7KQ2M9',
  depositLimitEur: '1000.00',
  email: 'ada@example.com',
  displayName: 'Ada',
  verification: {
    address: 'not_enabled',
    bank: 'verified',
    business: 'not_enabled',
    id: 'not_enabled',
    mobile: 'not_enabled',
  },
};

function inSession(children: React.ReactNode, session: Partial<ExchangeSession> = {}) {
  return (
    <StaticSession value={{ status: 'authenticated', getToken: async () => 'token-1', ...session }}>
      {children}
    </StaticSession>
  );
}

describe('an order paid from the wallet to a destination outside it', () => {
  it('asks for the emailed code instead of a payment, and shows the order processing once it is confirmed', async () => {
    const api = mockApi({
      'POST /api/orders/ABCD-EFGH-IJKL-MNOP/confirm': () => ({
        body: { ...WALLET_ORDER, status: 'processing', awaitingCode: false },
      }),
    });
    renderInLanguage(
      inSession(<Confirmation order={WALLET_ORDER as any} email="ada@example.com" onAnother={() => undefined} />),
    );
    expect(screen.getByRole('heading', { name: en.walletCode.heading })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(en.walletCode.code), { target: { value: 'abcd efgh ijkl mnop' } });
    fireEvent.click(screen.getByRole('button', { name: en.walletCode.confirm }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: en.walletCode.heading })).toBeNull());
    expect(api.callsTo('POST /api/orders/ABCD-EFGH-IJKL-MNOP/confirm')[0]).toMatchObject({
      body: { code: 'ABCD-EFGH-IJKL-MNOP' },
      headers: expect.objectContaining({ authorization: 'Bearer token-1' }),
    });
  });

  it('says a wrong code next to the field, and offers a fresh login when the login is too old', async () => {
    let answer = apiError(400, 'invalid_code', 'code');
    mockApi({ 'POST /api/orders/ABCD-EFGH-IJKL-MNOP/confirm': () => answer });
    const stepUp = jest.fn(async () => undefined);
    renderInLanguage(
      inSession(<Confirmation order={WALLET_ORDER as any} email="ada@example.com" onAnother={() => undefined} />, {
        stepUp,
      }),
    );
    const field = screen.getByLabelText(en.walletCode.code);
    fireEvent.change(field, { target: { value: 'BBBB-BBBB-BBBB-BBBB' } });
    fireEvent.click(screen.getByRole('button', { name: en.walletCode.confirm }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(expect.stringContaining(enErrors.invalid_code.split('{{')[0].trim())),
    );
    answer = apiError(401, 'login_required_recent');
    fireEvent.click(screen.getByRole('button', { name: en.walletCode.confirm }));
    fireEvent.click(await screen.findByRole('button', { name: en.walletCode.loginAgainButton }));
    expect(stepUp).toHaveBeenCalledWith('/exchange/order-history/');
  });

  it('reads in German', () => {
    mockApi({});
    renderInLanguage(
      inSession(<Confirmation order={WALLET_ORDER as any} email="ada@example.com" onAnother={() => undefined} />),
      'de',
    );
    expect(screen.getByRole('heading', { name: de.walletCode.heading })).toBeTruthy();
    expect(screen.getByLabelText(de.walletCode.code)).toBeTruthy();
  });
});

describe('the deposit page shows only what the account may do', () => {
  beforeEach(() => forgetAnswers());

  it('a verified bank account: the reference, converting on arrival and the rules of a buy', async () => {
    mockApi({
      'GET /api/me': () => ({ body: ME }),
      'GET /api/exchange/config': () => ({ body: { buySellEnabled: true, explorers: {} } }),
    });
    renderInLanguage(inSession(<Deposit />));
    expect(await screen.findByTestId('deposit-reference')).toHaveTextContent('DEPOSIT7KQ2M9');
    expect(screen.getByText('DEPOSIT7KQ2M9 BTC')).toBeTruthy();
    expect(screen.getByText(/first one is at most €100\.00/)).toBeTruthy();
  });

  it('buying switched off: no conversion offered, the deposit stays in euros', async () => {
    mockApi({
      'GET /api/me': () => ({ body: ME }),
      'GET /api/exchange/config': () => ({ body: { buySellEnabled: false, explorers: {} } }),
    });
    renderInLanguage(inSession(<Deposit />));
    expect(await screen.findByText(en.deposit.convertPaused)).toBeTruthy();
    expect(screen.queryByText('DEPOSIT7KQ2M9 BTC')).toBeNull();
  });

  it('no verified bank account: no reference to pay with, the way to verify instead', async () => {
    mockApi({
      'GET /api/me': () => ({ body: { ...ME, verification: { ...ME.verification, bank: 'not_enabled' } } }),
      'GET /api/exchange/config': () => ({ body: { buySellEnabled: true, explorers: {} } }),
    });
    renderInLanguage(inSession(<Deposit />));
    expect(await screen.findByTestId('deposit-bank-first')).toHaveTextContent(en.deposit.bankFirst);
    expect(screen.queryByTestId('deposit-reference')).toBeNull();
    // Nowhere to pay to either: a transfer would only be sent back.
    expect(screen.queryByRole('heading', { name: en.deposit.bankHeading })).toBeNull();
    expect(screen.getByRole('link', { name: en.deposit.bankFirstLink })).toHaveAttribute('href', '/identity/me/');
  });
});
