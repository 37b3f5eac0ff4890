import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from './localized-link';
import type { RouteName } from '../i18n/routes';

/** Sub-navigation of an area (exchange, wallet): its pages as tabs. */
export function SectionNav({ label, names }: { label: string; names: RouteName[] }) {
  const { t } = useTranslation('common');
  return (
    <nav aria-label={label} className="section-nav">
      <ul>
        {names.map((name) => (
          <li key={name}>
            <LocalizedLink to={name} activeClassName="active">
              {t(`pages.${name}.nav`)}
            </LocalizedLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export const exchangePages: RouteName[] = [
  'exchange_buy',
  'exchange_sell',
  'exchange_swap',
  'exchange_deposit',
  'exchange_order_history',
];
export const walletPages: RouteName[] = [
  'wallet_balances',
  'wallet_receive',
  'wallet_send',
  'wallet_transactions',
  'wallet_security',
  'wallet_proof',
];
