import fs from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import * as React from 'react';
import { knownDecimals } from '#domain/currencies';
import { ETH_GAS_LIMIT, FEES, NETWORK_FEES_MINOR, feeDisplayOptions } from '#domain/fees';
import { languages } from '#domain/languages';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
} from '#domain/limits';
import { eur, minorToDecimal } from '#domain/money';
import { renderInLanguage } from '../../../../__tests__/support/render';
import { formatMoney, formatNumber, formatPercent } from '../../../i18n/format';
import { FeeSchedule } from '../components/fee-schedule';

/**
 * The fees page and the rules cannot drift apart: every figure on it is the domain's value
 * formatted for the page language, and the texts themselves contain no figures at all.
 */
/** Intl separates digits and units with (narrow) no-break spaces: compare them as spaces. */
const norm = (text: string | null) => (text ?? '').replace(/\s/g, ' ');

describe('fees page', () => {
  it.each(['en', 'de', 'uk'] as const)(
    'shows the fees, network fees, limits and thresholds of domain/ in %s',
    (language) => {
      renderInLanguage(<FeeSchedule language={language} />, language);
      const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);

      for (const type of ['buy', 'sell', 'swap'] as const) {
        const row = document.querySelector(`tr[data-order-type="${type}"]`) as HTMLElement;
        expect(norm(row.textContent)).toContain(norm(formatPercent(FEES[type].basisPoints, language)));
      }
      expect(norm(document.querySelector('tr[data-order-type="buy"]')!.textContent)).toContain(
        norm(money(FEES.buy.minimumEurMinor)),
      );

      for (const code of ['BTC', 'ETH', 'XRP', 'BCH', 'LTC', 'DOGE']) {
        const decimals = knownDecimals(code);
        const row = document.querySelector(`tr[data-currency="${code}"]`) as HTMLElement;
        expect(norm(row.textContent)).toContain(
          norm(formatMoney(minorToDecimal(NETWORK_FEES_MINOR[code]!, decimals), code, language)),
        );
      }
      const text = (document.body.textContent ?? '').replace(/\s/g, ' ');
      expect(text).toContain(formatNumber(ETH_GAS_LIMIT, language).replace(/\s/g, ' '));
      for (const limit of [
        FIRST_ORDER_LIMIT_EUR_MINOR,
        ORDER_LIMIT_EUR_MINOR,
        MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
        ID_VERIFICATION_WEEKLY_EUR_MINOR,
      ]) {
        expect(text).toContain(money(limit).replace(/\s/g, ' '));
      }
    },
  );

  it('lists every fee level from 0 % to 3 % with and without the minimum, and marks the ones in use', () => {
    renderInLanguage(<FeeSchedule language="en" />, 'en');
    const rows = document.querySelectorAll('table.fee-levels tbody tr');
    expect(rows).toHaveLength(feeDisplayOptions().length);
    expect(rows[0]).toHaveTextContent('0.00%');
    expect(rows[rows.length - 1]).toHaveTextContent('3.00%, at least €2.00');
    const inUse = [...document.querySelectorAll('table.fee-levels tr.in-use')].map((row) => row.textContent);
    expect(inUse).toEqual(['0.50%swapping', '1.50%selling', '1.50%, at least €2.00buying']);
  });

  it('computes the example fees with the quote rule (minimum below 133.34 EUR)', () => {
    renderInLanguage(<FeeSchedule language="en" />, 'en');
    expect(
      screen.getByText(
        /on a purchase of €50.00 the fee is €2.00 \(the minimum\); on a purchase of €1,000.00 it is €15.00/,
      ),
    ).toBeInTheDocument();
  });

  it.each(languages)('has no figures written into the fee texts in %s (all come from domain/)', (language) => {
    const info = JSON.parse(
      fs.readFileSync(path.join(__dirname, '../../../../locales', language, 'info.json'), 'utf8'),
    );
    const withDigits = JSON.stringify(info.fees).match(/"[^"]*\d[^"]*"/g) ?? [];
    expect(withDigits).toEqual([]);
  });

  it.each([
    ['ru', 'Биткоин (BTC)', 'Эфириум (ETH)'],
    ['uk', 'Біткоїн (BTC)', 'Ефіріум (ETH)'],
    ['en', 'Bitcoin (BTC)', 'Ethereum (ETH)'],
  ] as const)('names the currencies as %s writes them', (language, bitcoin, ethereum) => {
    renderInLanguage(<FeeSchedule language={language} />, language);
    expect(document.querySelector('tr[data-currency="BTC"]')!.textContent).toContain(bitcoin);
    expect(document.querySelector('tr[data-currency="ETH"]')!.textContent).toContain(ethereum);
  });
});
