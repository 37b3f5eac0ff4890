import * as React from 'react';
import { SelectField } from '../../../components/field';

/** The fully supported currencies (the only ones that can be received and sent). */
export const FULL_CURRENCIES = ['BTC', 'ETH', 'XRP', 'BCH', 'LTC', 'DOGE'] as const;

type Props = Omit<React.ComponentProps<typeof SelectField>, 'children'> & { allLabel?: string };

export const CurrencySelect = React.forwardRef<HTMLSelectElement, Props>(function CurrencySelect({ allLabel, ...props }, ref) {
  return (
    <SelectField ref={ref} {...props}>
      {allLabel ? <option value="">{allLabel}</option> : null}
      {FULL_CURRENCIES.map((code) => (
        <option key={code} value={code}>
          {code}
        </option>
      ))}
    </SelectField>
  );
});
