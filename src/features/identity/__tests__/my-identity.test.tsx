import '../../../../__tests__/support/polyfills';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { formatDate } from '../../../i18n/format';
import { MyIdentity } from '../components/my-identity';
import type { IdentityKind } from '../api/identity';

// The SDK hands out one stable function, as the real one does (a new one each render would refetch each render).
jest.mock('../../../app/session', () => {
  const session = { getAccessTokenSilently: async () => 'token' };
  return { useSession: () => session };
});

const en = loadResources('en').identity as any;
const enErrors = loadResources('en').errors as any;

const waiting = (attemptsLeft: number): IdentityKind => ({
  kind: 'mobile',
  phase: 'step_2',
  channel: 'sms',
  data: { mobile: '+31612345678' },
  requestedAt: null,
  submittedAt: '2026-01-10T09:00:00.000Z',
  verifiedAt: null,
  retainUntil: '2031-01-10T09:00:00.000Z',
  dataDeletedAt: null,
  rejection: null,
  codeExpiresAt: '2026-01-10T09:10:00.000Z',
  attemptsLeft,
  nextCodeAt: null,
});

describe('MyIdentity, step 2', () => {
  it('a wrong code says so next to the field and the attempts left count down', async () => {
    let left = 5;
    (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
      const confirm = url.endsWith('/api/identity/mobile/confirm') && init.method === 'POST';
      if (confirm) left -= 1;
      const [status, body] = confirm
        ? [400, { error: { code: 'invalid_code', message: 'Wrong code.', field: 'code' } }]
        : [200, { kinds: [waiting(left)] }];
      return {
        ok: status < 400,
        status,
        headers: { get: () => 'application/json' },
        json: async () => body,
        text: async () => JSON.stringify(body),
      };
    });
    renderInLanguage(<MyIdentity />);
    expect(await screen.findByText(en.me.attemptsLeft.replace('{{count}}', '5'))).toBeTruthy();
    fireEvent.change(screen.getByLabelText(en.me.codeLabel), { target: { value: 'ABCD-EFGH-IJKL-MNOP' } });
    fireEvent.click(screen.getByRole('button', { name: en.me.confirm }));
    expect(await screen.findByText(en.me.attemptsLeft.replace('{{count}}', '4'))).toBeTruthy();
    await waitFor(() => expect(screen.getByText(enErrors.invalid_code)).toBeTruthy());
  });
});

describe('MyIdentity, the ID document', () => {
  it.each(['en', 'de', 'ru'] as const)(
    'step 2 of the ID asks for no code in %s: it says the document is being checked',
    async (language) => {
      const texts = loadResources(language).identity as any;
      const id: IdentityKind = {
        ...waiting(5),
        kind: 'id',
        channel: 'document',
        data: { firstName: 'Ada' },
        attemptsLeft: null,
        codeExpiresAt: null,
      };
      (globalThis as { fetch: unknown }).fetch = jest.fn(async () => {
        const body = { kinds: [id] };
        return {
          ok: true,
          status: 200,
          headers: { get: () => 'application/json' },
          json: async () => body,
          text: async () => JSON.stringify(body),
        };
      });
      renderInLanguage(<MyIdentity />, language);
      expect(
        await screen.findByText(texts.me.status.replace('{{phase}}', texts.me.phases.step_2_document)),
      ).toBeTruthy();
      expect(screen.getByText(texts.me.waitingForCheck)).toBeTruthy();
      expect(screen.queryByLabelText(texts.me.codeLabel)).toBeNull();
      const page = document.body.textContent ?? '';
      for (const aboutCodes of [texts.me.phases.step_2, texts.me.resubmit]) expect(page).not.toContain(aboutCodes);
    },
  );
});

describe('MyIdentity, details sent back', () => {
  it.each(['en', 'de'] as const)(
    'says in %s why the operator sent the ID details back, with the form filled in to correct them',
    async (language) => {
      const texts = loadResources(language).identity as any;
      const id: IdentityKind = {
        ...waiting(5),
        kind: 'id',
        phase: 'step_1',
        channel: 'document',
        data: { salutation: 'ms', firstName: 'Ada', lastName: 'Lovelace' },
        attemptsLeft: null,
        codeExpiresAt: null,
        rejection: { reason: 'expired', at: '2026-01-11T10:00:00.000Z' },
      };
      (globalThis as { fetch: unknown }).fetch = jest.fn(async () => {
        const body = { kinds: [id] };
        return {
          ok: true,
          status: 200,
          headers: { get: () => 'application/json' },
          json: async () => body,
          text: async () => JSON.stringify(body),
        };
      });
      renderInLanguage(<MyIdentity />, language);
      const notice = await screen.findByRole('status');
      const date = formatDate(new Date('2026-01-11T10:00:00.000Z'), language);
      expect(notice.textContent).toContain(texts.me.rejectionReasons.expired);
      expect(notice.textContent).toContain(date);
      expect((screen.getByLabelText(texts.fields.lastName) as HTMLInputElement).value).toBe('Lovelace');
    },
  );
});

describe('MyIdentity, the ID made safe to send (issue 35)', () => {
  const answer = (kinds: IdentityKind[]) => {
    (globalThis as { fetch: unknown }).fetch = jest.fn(async () => {
      const body = { kinds };
      return {
        ok: true,
        status: 200,
        headers: { get: () => 'application/json' },
        json: async () => body,
        text: async () => JSON.stringify(body),
      };
    });
  };
  const id = (phase: IdentityKind['phase']): IdentityKind => ({
    ...waiting(5),
    kind: 'id',
    phase,
    channel: 'document',
    data: phase === 'step_1' ? null : { firstName: 'Ada' },
    attemptsLeft: null,
    codeExpiresAt: null,
  });

  it.each(['en', 'uk'] as const)(
    'in %s: the identity mailbox only once the details are in, with what to black out, the copy mark and the receipt under the phrase',
    async (language) => {
      const texts = loadResources(language).identity as any;
      answer([id('step_1')]);
      const first = renderInLanguage(<MyIdentity />, language);
      expect(await screen.findByText(texts.document.neverFirst)).toBeTruthy();
      expect(screen.getByText(texts.document.blackOut)).toBeTruthy();
      expect(document.body.textContent).not.toContain('identity@muntly.example');
      first.unmount();

      answer([id('step_2')]);
      renderInLanguage(<MyIdentity />, language);
      const mailbox = await screen.findByTestId('identity-mailbox');
      expect(mailbox.textContent).toContain(texts.document.mailbox);
      expect(screen.getByRole('link', { name: 'identity@muntly.example' }).getAttribute('href')).toBe(
        'mailto:identity@muntly.example',
      );
      for (const line of [texts.document.neverFirst, texts.document.blackOut, texts.document.markCopy])
        expect(screen.getByText(line)).toBeTruthy();
      expect(screen.getByRole('link', { name: texts.document.phraseLink }).getAttribute('href')).toBe(
        language === 'en' ? '/wallet/security/' : `/${language}/wallet/security/`,
      );
    },
  );

  it('lists the kinds in the order they matter, each saying what it unlocks', async () => {
    const texts = loadResources('en').identity as any;
    answer([
      id('not_enabled'),
      { ...waiting(5), kind: 'bank', phase: 'not_enabled', channel: 'bank', data: null },
      { ...waiting(5), kind: 'address', phase: 'not_enabled', channel: 'post', data: null },
    ]);
    renderInLanguage(<MyIdentity />);
    // First the next step: the bank account, asked for from its section.
    const next = await screen.findByTestId('next-verification');
    expect(next.textContent).toContain(texts.steps.action.request);
    expect(within(next).getByRole('link', { name: texts.overview.kinds.bank.title }).getAttribute('href')).toBe(
      '#identity-bank',
    );
    const sections = [...document.querySelectorAll('section.identity-kind')].map((section) =>
      section.getAttribute('data-kind'),
    );
    expect(sections).toEqual(['bank', 'id', 'address']);
    const bank = document.querySelector('section.identity-kind[data-kind="bank"]')!;
    expect(bank.textContent).toContain(texts.unlocks.wallet);
    expect(bank.textContent).toContain(texts.duration.bank);
  });
});
