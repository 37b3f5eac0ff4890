import * as React from 'react';
import { currencyByCode } from '#domain/currencies';
import { useCurrencyName } from '../../../ui/currency-name';
import { CurrencyPicker, type CurrencyOption } from '../../../ui/currency-picker';

/** The fully supported currencies (the only ones that can be received and sent). */
export const FULL_CURRENCIES = ['BTC', 'ETH', 'XRP', 'BCH', 'LTC', 'DOGE'] as const;

type Props = Omit<React.ComponentProps<typeof CurrencyPicker>, 'options'> & { allLabel?: string };

/** The searchable currency picker with the fully supported currencies (and "all" first when `allLabel` is given). */
export const CurrencySelect = React.forwardRef<HTMLInputElement, Props>(function CurrencySelect(
  { allLabel, ...props },
  ref,
) {
  const nameOf = useCurrencyName();
  const options = React.useMemo<CurrencyOption[]>(
    () => [
      ...(allLabel ? [{ code: '', name: allLabel }] : []),
      ...FULL_CURRENCIES.map((code) => ({ code, name: nameOf(code, currencyByCode(code)?.name) })),
    ],
    [allLabel, nameOf],
  );
  return <CurrencyPicker ref={ref} options={options} {...props} />;
});
