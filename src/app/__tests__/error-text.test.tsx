import { screen } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage } from '../../../__tests__/support/render';
import { useErrorText, type ErrorTextKey } from '../error-text';

function Text({ code }: { code: ErrorTextKey }) {
  const text = useErrorText();
  return <p>{text(code)}</p>;
}

describe('error texts with a limit', () => {
  // The weekly-volume refusals name the missing verification and the limit, in the page's language
  // and its number format (the limit comes from domain/limits, not from the text).
  it.each([
    ['en', 'mobile_verification_required', /more than €1,000\.00 within 7 days needs a verified mobile number/],
    ['de', 'mobile_verification_required', /mehr als 1\.000,00\s€ sendet .* Handynummer/],
    ['ru', 'id_verification_required', /больше 3\s000,00\s€ за 7 дней, нужен подтверждённый документ/],
    ['fr', 'weekly_limit_login_required', /1\s000,00\s€/],
  ] as const)('%s: %s', (language, code, expected) => {
    renderInLanguage(<Text code={code} />, language);
    expect(screen.getByRole('paragraph')).toHaveTextContent(expected);
  });
});
