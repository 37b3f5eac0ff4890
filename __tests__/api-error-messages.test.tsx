import { screen } from '@testing-library/react';
import * as React from 'react';
import { ERROR_CODES, type ErrorCode } from '#domain/errors';
import { apiMessage } from '../server/src/error-messages';
import { errorBody } from '../server/src/errors';
import { useErrorText } from '../src/app/error-text';
import { renderInLanguage } from './support/render';

/**
 * One text per error code: the API's English message is exactly what the English page shows for
 * the code (locales/en/errors.json with the same limits filled in), so a client reading the API
 * and a visitor reading the page are told the same thing.
 */
function SiteTexts({ retryAfter }: { retryAfter?: number }) {
  const text = useErrorText();
  return (
    <ul>
      {ERROR_CODES.map((code) => (
        <li key={code} data-testid={code}>
          {text(code, { retryAfter })}
        </li>
      ))}
    </ul>
  );
}

const siteText = (code: ErrorCode) => screen.getByTestId(code).textContent;

describe("the API's error messages", () => {
  it('are, for every code, the English page text with the same values filled in', () => {
    renderInLanguage(<SiteTexts retryAfter={120} />, 'en');
    // try_again_soon with a wait is the site's own wording (try_again_in); the API says when in retryAfter.
    const mismatches = ERROR_CODES.filter((code) => code !== 'try_again_soon').filter(
      (code) => errorBody(code, undefined, undefined, 120).error.message !== siteText(code),
    );
    expect(mismatches).toEqual([]);
    expect(apiMessage('code_requested_too_soon', 120)).toBe('You can ask for a new code in 2 minutes.');
  });

  it('state the limits as the page does, and say "Order rejected." as the spec does', () => {
    renderInLanguage(<SiteTexts />, 'en');
    expect(errorBody('first_order_limit').error.message).toBe(
      'Order rejected. The first order of each new customer is limited to €100.00.',
    );
    expect(errorBody('order_limit').error.message).toBe('Order rejected. An order can be at most €30,000.00.');
    expect(errorBody('amount_below_minimum_fee').error.message).toBe(siteText('amount_below_minimum_fee'));
    expect(errorBody('try_again_soon').error.message).toBe('Try again soon!');
    expect(
      ERROR_CODES.map((code) => errorBody(code).error.message).filter((message) =>
        /\{\{|Order rejected:/.test(message),
      ),
    ).toEqual([]);
  });

  it('keep a more precise message when the thrower gives one', () => {
    expect(errorBody('validation_failed', 'currency', 'Unknown currency.').error).toEqual({
      code: 'validation_failed',
      field: 'currency',
      message: 'Unknown currency.',
    });
  });
});
