import './support/polyfills';
import fs from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { friendlyFormatIBAN } from 'ibantools';
import * as React from 'react';
import { formatDateTime, formatIban, formatMoney } from '#domain/format';
import { ORDER, mockApi } from '../src/features/exchange/__tests__/fetch-mock';
import { OrderHistory } from '../src/features/exchange/components/order-history';
import { rateText } from '../src/features/exchange/format';
import { Transactions } from '../src/features/wallet/components/transactions';
import { loadResources, renderInLanguage } from './support/render';
import type { Transaction } from '../src/features/wallet/api/wallet';

// The wallet's pages ask the session for a token; the order page works without one.
jest.mock('../src/app/session', () => {
  const session = {
    isAuthenticated: true,
    getAccessTokenSilently: async () => 'token',
    loginWithRedirect: async () => undefined,
  };
  return { ...jest.requireActual('../src/app/session'), useSession: () => session };
});

/**
 * One money format, one IBAN grouping and one date style per language, on every page and in every
 * email: all of them are written by domain/format.ts, and nothing else makes its own.
 */
const root = path.join(__dirname, '..');
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' || entry.name === 'node_modules' ? [] : sources(rel);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}
const files = ['src', 'server/src', 'domain']
  .flatMap(sources)
  .filter((file) => file !== path.join('domain', 'format.ts'));

describe('one formatter per kind', () => {
  it.each([
    ['an Intl.NumberFormat of its own', /new\s+Intl\.NumberFormat/],
    ['a currency style of its own', /style:\s*'currency'/],
    ['an Intl.DateTimeFormat of its own', /new\s+Intl\.DateTimeFormat|dateStyle:|toLocale(Date|Time)?String/],
    ['its own IBAN grouping', /friendlyFormatIBAN|\(\.\{4\}\)/],
  ])('no file but domain/format.ts has %s', (_, pattern) => {
    const offenders = files.filter((file) => pattern.test(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('writes a price in euros as every euro amount, never as "81,233.206 EUR"', () => {
    expect(rateText('BTC', 'EUR', '81233.206', 'en')).toBe('1 BTC ≈ €81,233.21');
    expect(rateText('EUR', 'BTC', '0.0000125', 'en')).toBe('1 BTC ≈ €80,000.00');
    expect(rateText('EUR', 'SHIB', '50000', 'de')).toBe('1 SHIB ≈ 0,00002000\u00a0€');
  });

  it('groups every IBAN by four, whatever way it was typed', () => {
    expect(formatIban('de89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(formatIban('DE89 3704 0044 0532 0130 00')).toBe('DE89 3704 0044 0532 0130 00');
    // The same grouping as a library we did not write, for IBANs of several lengths.
    for (const iban of [
      'DE89370400440532013000',
      'NL91ABNA0417164300',
      'FR1420041010050500013M02606',
      'MT84MALT011000012345MTLCAST001S',
      'BE68539007547034',
    ]) {
      expect(formatIban(iban.toLowerCase())).toBe(friendlyFormatIBAN(iban));
    }
  });

  it('an email states a moment in the same date style as the pages, in UTC', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    expect(formatDateTime(at, 'en', { utc: true })).toBe('24 November 2026 at 10:00 UTC');
    expect(formatDateTime(at, 'de', { utc: true })).toBe('24. November 2026 um 10:00 UTC');
  });
});

describe('two pages, one amount', () => {
  it('the order page and the wallet transactions write the same euro amount and the same date alike', async () => {
    const de = loadResources('de').exchange as { history: { email: string; reference: string; submit: string } };
    const order = { ...ORDER, amount: '80441.23', amountEur: '80441.23' };
    const row: Transaction = {
      id: 't1',
      date: ORDER.date,
      type: 'deposit',
      direction: 'in',
      currency: 'BTC',
      amount: '0.01000000',
      fee: null,
      eurValue: '80441.23',
      address: null,
      label: null,
      txid: null,
      status: 'completed',
    };
    mockApi({
      'POST /api/orders/lookup': () => ({ body: order }),
      'GET /api/wallet/transactions': () => ({ body: { transactions: [row], nextCursor: null } }),
    });
    const money = formatMoney('80441.23', 'EUR', 'de');
    expect(money).toBe('80.441,23\u00a0€');
    const when = formatDateTime(new Date(ORDER.date), 'de');

    const orderPage = renderInLanguage(<OrderHistory />, 'de');
    fireEvent.change(screen.getByLabelText(de.history.email), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText(de.history.reference), { target: { value: ORDER.reference } });
    fireEvent.click(screen.getByRole('button', { name: de.history.submit }));
    await waitFor(() => expect(document.body.textContent).toContain(money));
    expect(document.body.textContent).toContain(when);
    orderPage.unmount();

    renderInLanguage(<Transactions />, 'de');
    await waitFor(() => expect(document.body.textContent).toContain(money));
    expect(document.body.textContent).toContain(when);
  });
});
