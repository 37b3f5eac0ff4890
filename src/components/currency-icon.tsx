import { withPrefix } from 'gatsby';
import * as React from 'react';
import { currencyIconPath } from './currency-icons';
import './currency-picker.css';

type Props = { code: string; size?: number; className?: string };

/**
 * A currency's logo, decorative: its name or code is always written next to it, so the image is
 * hidden from screen readers (alt=""). Served from the site (components/currency-icons.ts).
 */
export function CurrencyIcon({ code, size = 20, className }: Props) {
  return <img className={className ? `currency-icon ${className}` : 'currency-icon'} src={withPrefix(currencyIconPath(code))} alt="" width={size} height={size} loading="lazy" decoding="async" />;
}
