import '../../../../__tests__/support/polyfills';
import { screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { Deposit } from '../components/deposit';
import { OrderIsland } from '../components/order-island';
import { StaticSession } from '../session';
import { mockApi, CURRENCIES } from './fetch-mock';

const en = loadResources('en').exchange as any;
const nl = loadResources('nl').exchange as any;
const BANK = { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', beneficiary: 'Muntly' };

describe('buy and sell pages', () => {
  it('show the spec’s notice instead of the form when buying and selling are switched off', async () => {
    mockApi({
      'GET /api/exchange/config': () => ({ body: { buySellEnabled: false, bank: BANK } }),
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
    });
    renderInLanguage(<OrderIsland type="sell" />, 'nl');
    expect(await screen.findByTestId('buy-sell-disabled')).toHaveTextContent('Kopen en verkopen');
    expect(screen.getByTestId('buy-sell-disabled')).toHaveTextContent(nl.buy.disabled);
    expect(screen.queryByRole('button', { name: nl.form.submit.sell })).toBeNull();
  });

  it('keep the form while they are on; a swap never asks', async () => {
    const api = mockApi({
      'GET /api/exchange/config': () => ({ body: { buySellEnabled: true, bank: BANK } }),
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
    });
    renderInLanguage(<OrderIsland type="swap" />);
    expect(await screen.findByRole('button', { name: en.form.submit.swap })).toBeInTheDocument();
    expect(api.callsTo('GET /api/exchange/config')).toHaveLength(0);
  });
});

describe('Deposit', () => {
  it('explains the reference pattern and shows a logged-in user (bank verified) their reference, cap and the account to pay into', async () => {
    const api = mockApi({
      'GET /api/exchange/config': () => ({ body: { buySellEnabled: true, bank: BANK } }),
      'GET /api/me': () => ({
        body: {
          accountKey: 'K7Q2M9',
          depositReference: 'DEPOSITK7Q2M9',
          depositLimitEur: '1000.00',
          email: 'ada@example.com',
          displayName: 'Ada',
          verification: { bank: 'verified' },
        },
      }),
    });
    renderInLanguage(
      <StaticSession value={{ status: 'authenticated', getToken: async () => 'token-3' }}>
        <Deposit />
      </StaticSession>,
    );
    expect(await screen.findByTestId('deposit-reference')).toHaveTextContent('DEPOSITK7Q2M9');
    expect(screen.getByText('DEPOSITK7Q2M9 BTC')).toBeInTheDocument();
    expect(screen.getByText('€1,000.00')).toBeInTheDocument();
    expect(screen.getByText(en.deposit.patternCase)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('DE89 3704 0044 0532 0130 00')).toBeInTheDocument());
    expect(api.callsTo('GET /api/me')[0]!.headers.authorization).toBe('Bearer token-3');
  });

  it('invites anonymous visitors to log in for their own reference', async () => {
    mockApi({ 'GET /api/exchange/config': () => ({ body: { buySellEnabled: true, bank: BANK } }) });
    renderInLanguage(
      <StaticSession value={{ status: 'anonymous', getToken: async () => null }}>
        <Deposit />
      </StaticSession>,
    );
    expect(screen.getByRole('link', { name: en.deposit.login })).toHaveAttribute(
      'href',
      '/login/?returnTo=%2Fexchange%2Fdeposit%2F',
    );
    expect(screen.getByText(/DEPOSIT7KQ2M9XA BTC converts/)).toBeInTheDocument();
    expect(await screen.findByText('DE89 3704 0044 0532 0130 00')).toBeInTheDocument();
  });
});
