import '../../../../__tests__/support/polyfills';
import { screen, within } from '@testing-library/react';
import * as React from 'react';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { formatMoney } from '../../../i18n/format';
import { WalletHome } from '../components/home';
import type { IdentityKind } from '#domain/contracts/identity';
import type { SecurityOverview } from '#domain/contracts/protection';

jest.mock('../../../app/session', () => {
  const session = {
    status: 'signed-in',
    user: { name: 'Ada Lovelace' },
    getAccessTokenSilently: async () => 'token',
  };
  return { ...jest.requireActual('../../../app/session'), useSession: () => session };
});

const de = loadResources('de').wallet as any;
const deIdentity = loadResources('de').identity as any;

const kind = (
  k: IdentityKind['kind'],
  phase: IdentityKind['phase'],
  channel: IdentityKind['channel'],
  requestedAt: string | null = null,
): IdentityKind => ({
  kind: k,
  phase,
  channel,
  data: null,
  requestedAt,
  submittedAt: null,
  verifiedAt: null,
  retainUntil: null,
  dataDeletedAt: null,
  rejection: null,
  codeExpiresAt: null,
  nextCodeAt: null,
  attemptsLeft: null,
});
// As the API lists them: alphabetically, not in the order a customer needs them.
const KINDS = [
  kind('address', 'not_enabled', 'post'),
  kind('bank', 'not_enabled', 'bank', '2026-01-10T09:00:00.000Z'),
  kind('business', 'not_enabled', 'email'),
  kind('id', 'not_enabled', 'document'),
  kind('mobile', 'not_enabled', 'sms'),
];
const SECURITY: SecurityOverview = {
  allowListOnly: true,
  allowListOffFrom: null,
  phrase: null,
  frozen: false,
  frozenAt: null,
  frozenByOperator: false,
  unfreezesAt: null,
  unfreezeCodeSent: false,
  sendsPausedUntil: null,
  holdHours: 24,
  secondFactorAboveEur: '1000.00',
  addressBook: [],
  events: [],
};

function mockApi(answers: Record<string, unknown>) {
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
    const body = answers[url.replace(/^https?:\/\/[^/]+/, '')];
    const status = body ? 200 : 404;
    return {
      ok: status < 400,
      status,
      headers: { get: () => 'application/json' },
      json: async () => body,
      text: async () => JSON.stringify(body),
    };
  });
}

describe('the wallet home of a logged-in user (issue 35)', () => {
  it('shows the empty balance, what to do next, and the verifications in the order they matter with what each unlocks and how long it takes', async () => {
    mockApi({
      '/api/wallet/balances': {
        balances: [{ currency: 'BTC', name: 'Bitcoin', balance: '0.00000000', eurEstimate: '0.00', support: 'full' }],
        totalEur: '0.00',
        ratesAt: '2026-01-10T09:00:00.000Z',
      },
      '/api/identity': { kinds: KINDS },
      '/api/wallet/security': SECURITY,
    });
    renderInLanguage(<WalletHome />, 'de');
    expect(
      await screen.findByRole('heading', { name: de.home.greeting.replace('{{name}}', 'Ada Lovelace') }),
    ).toBeTruthy();
    expect(screen.getByText(de.home.empty)).toBeTruthy();

    // Next: the bank account (it unlocks the wallet), filling the empty wallet, then the protection of a first send.
    const next = within(screen.getByRole('region', { name: de.home.nextHeading }))
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(next).toEqual([
      [de.home.next.bank.link, '/de/identity/me/'],
      [de.home.next.buy.link, '/de/exchange/'],
      [de.home.next.phrase.link, '/de/wallet/security/'],
      [de.home.next.book.link, '/de/wallet/security/'],
    ]);
    expect(screen.getByText(de.home.next.book.why.replace('{{hours}}', '24'))).toBeTruthy();

    // The verifications: bank first, then the weekly amounts from the lowest (the gate's own figures, in German), business, address.
    const steps = within(screen.getByRole('region', { name: deIdentity.steps.heading })).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('data-kind'))).toEqual([
      'bank',
      'mobile',
      'id',
      'business',
      'address',
    ]);
    expect(steps[0]!.textContent).toContain(deIdentity.unlocks.wallet);
    expect(steps[0]!.textContent).toContain(deIdentity.duration.bank);
    // Asked for already: the next step is to wait for it.
    expect(steps[0]!.textContent).toContain(deIdentity.steps.action.requested);
    expect(steps[1]!.textContent).toContain(
      deIdentity.unlocks.weekly.replace('{{amount}}', formatMoney('1000.00', 'EUR', 'de')).replace('{{days}}', '7'),
    );
    expect(steps[2]!.textContent).toContain(
      deIdentity.unlocks.weekly.replace('{{amount}}', formatMoney('3000.00', 'EUR', 'de')).replace('{{days}}', '7'),
    );
    expect(steps[2]!.textContent).toContain(deIdentity.duration.document);
    expect(steps[4]!.textContent).toContain(deIdentity.unlocks.on_request);
  });
});
