import { withPrefix } from 'gatsby';
import * as React from 'react';
import { currencyIconPath } from './currency-icons';
import './currency-picker.css';

type Props = { code: string; size?: number; className?: string };

/**
 * A currency's logo, decorative: its name or code is always written next to it, so the image is
 * hidden from screen readers (alt=""). Served from the site (ui/currency-icons.ts).
 */
export function CurrencyIcon({ code, size = 20, className }: Props) {
  return (
    <img
      className={className ? `currency-icon ${className}` : 'currency-icon'}
      src={withPrefix(currencyIconPath(code))}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
    />
  );
}

/** A value in a currency (an amount, a rate, a choice) with the currency's logo before it, the two kept on one line. */
export function WithCurrencyIcon({ code, children }: { code: string; children: React.ReactNode }) {
  return (
    <span className="currency-label">
      <CurrencyIcon code={code} />
      <span>{children}</span>
    </span>
  );
}
