import { act, fireEvent, screen, within } from '@testing-library/react';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CURRENCIES } from '#domain/currencies';
import { loadResources, renderInLanguage } from '../../../__tests__/support/render';
import { useCurrencyName } from '../currency-name';
import { CurrencyPicker, filterCurrencies } from '../currency-picker';

const ruCommon = loadResources('ru').common as any;

/** A react-hook-form form with the picker, as the order form and the wallet use it; submitting hands its values to `onValues`. */
function PickerForm({ onValues }: { onValues: (values: { currency: string }) => void }) {
  const nameOf = useCurrencyName();
  const options = CURRENCIES.map((c) => ({ code: c.code, name: nameOf(c.code, c.name) }));
  const form = useForm({ defaultValues: { currency: 'BTC' } });
  return (
    <form onSubmit={form.handleSubmit(onValues)}>
      <Controller
        control={form.control}
        name="currency"
        render={({ field }) => (
          <CurrencyPicker
            id="currency"
            label="Валюта"
            options={options}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
          />
        )}
      />
      <button type="submit">OK</button>
    </form>
  );
}

const optionNames = () =>
  within(screen.getByRole('listbox'))
    .queryAllByRole('option')
    .map((o) => o.textContent);

async function submitted(onValues: jest.Mock) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
  });
  return onValues.mock.calls.at(-1)?.[0];
}

describe('CurrencyPicker', () => {
  it('lists logo, Russian name and code; typing "Эфир" leaves Ethereum, Enter chooses it and the form receives ETH', async () => {
    const onValues = jest.fn();
    renderInLanguage(<PickerForm onValues={onValues} />, 'ru');
    const input = screen.getByRole('combobox', { name: 'Валюта' });
    expect(input).toHaveValue('Биткоин (BTC)');

    fireEvent.click(screen.getByRole('button', { name: ruCommon.currencyPicker.showAll }));
    expect(screen.getAllByRole('option')).toHaveLength(CURRENCIES.length);
    expect(optionNames()[0]).toBe('БиткоинBTC');
    const logo = screen.getAllByRole('option')[0]!.querySelector('img')!;
    expect(logo).toHaveAttribute('src', '/currency-icons/0.18.1/btc.svg');
    expect(logo).toHaveAttribute('alt', '');

    fireEvent.change(input, { target: { value: 'Эфир' } });
    expect(optionNames()).toEqual(['ЭфириумETH']);
    // The highlighted option is announced: the input points at it.
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option').id);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(input).toHaveValue('Эфириум (ETH)');
    expect((await submitted(onValues)).currency).toBe('ETH');
  });

  it('filters by code in any case and without accents, says when nothing matches, and keeps the choice on Escape', async () => {
    const onValues = jest.fn();
    renderInLanguage(<PickerForm onValues={onValues} />, 'en');
    const input = screen.getByRole('combobox', { name: 'Валюта' });
    fireEvent.change(input, { target: { value: 'eth' } });
    // Ethereum (its code) first; Tether only contains the letters.
    expect(optionNames()).toEqual(['EthereumETH', 'TetherUSDT']);
    fireEvent.change(input, { target: { value: 'Sólana' } });
    expect(optionNames()).toEqual(['SolanaSOL']);
    fireEvent.change(input, { target: { value: 'zzz' } });
    expect(screen.getByRole('status')).toHaveTextContent('No currency matches “zzz”.');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect((await submitted(onValues)).currency).toBe('BTC');
  });

  it('moves through the list with the arrow keys', async () => {
    const onValues = jest.fn();
    renderInLanguage(<PickerForm onValues={onValues} />, 'en');
    const input = screen.getByRole('combobox', { name: 'Валюта' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((await submitted(onValues)).currency).not.toBe('BTC');
  });
});

describe('filterCurrencies', () => {
  const options = [
    { code: 'BTC', name: 'Bitcoin' },
    { code: 'BCH', name: 'Bitcoin Cash' },
    { code: 'ETH', name: 'Эфириум' },
  ];
  it('matches names and codes, best first, ignoring case, accents and ё', () => {
    expect(filterCurrencies(options, 'cash').map((o) => o.code)).toEqual(['BCH']);
    expect(filterCurrencies(options, 'BCH').map((o) => o.code)).toEqual(['BCH']);
    expect(filterCurrencies(options, 'bitcoin').map((o) => o.code)).toEqual(['BTC', 'BCH']);
    expect(filterCurrencies(options, 'ЭФИР').map((o) => o.code)).toEqual(['ETH']);
    expect(filterCurrencies(options, '').map((o) => o.code)).toEqual(['BTC', 'BCH', 'ETH']);
  });
});
