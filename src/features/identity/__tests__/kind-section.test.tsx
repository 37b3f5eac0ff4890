import '../../../../__tests__/support/polyfills';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { KindSection } from '../components/my-identity';
import type { IdentityKind } from '../api/identity';

const uk = loadResources('uk').identity as any;
const en = loadResources('en').identity as any;

const verified: IdentityKind = {
  kind: 'mobile',
  phase: 'verified',
  channel: 'sms',
  data: { mobile: '+31612345678' },
  requestedAt: null,
  submittedAt: '2026-01-10T09:00:00.000Z',
  verifiedAt: '2026-01-10T09:05:00.000Z',
  retainUntil: '2031-01-10T09:05:00.000Z',
  dataDeletedAt: null,
  rejection: null,
  codeExpiresAt: null,
  attemptsLeft: null,
  nextCodeAt: null,
};
const noop = async () => undefined;

describe('KindSection and retention', () => {
  it('shows the data with the date it is kept until', () => {
    renderInLanguage(<KindSection view={verified} onSubmit={noop} onConfirm={noop} />);
    expect(screen.getByText('+31612345678')).toBeTruthy();
    expect(screen.getByText(en.me.retention.replace('{{date}}', '10 January 2031'))).toBeTruthy();
    expect(screen.queryByText(/deleted/)).toBeNull();
  });

  it('says in the page language when the data was deleted after its retention period; the status stays verified', () => {
    const deleted: IdentityKind = {
      ...verified,
      data: null,
      retainUntil: null,
      dataDeletedAt: '2031-01-11T02:00:00.000Z',
    };
    renderInLanguage(<KindSection view={deleted} onSubmit={noop} onConfirm={noop} />, 'uk');
    expect(screen.getByText(uk.me.dataDeleted.replace('{{date}}', '11 січня 2031 р.'))).toBeTruthy();
    expect(screen.getByText(uk.me.status.replace('{{phase}}', uk.me.phases.verified))).toBeTruthy();
    expect(screen.queryByText('+31612345678')).toBeNull();
  });

  // The API promises step 1's data as an object without saying what its values are
  // (domain/contracts/identity.ts): only text is shown, anything else is left out.
  it('shows only the text values of the data', () => {
    const odd: IdentityKind = {
      ...verified,
      kind: 'bank',
      channel: 'bank',
      data: { iban: 'NL91ABNA0417164300', beneficiary: { name: 'A. Jansen' } },
    };
    renderInLanguage(<KindSection view={odd} onSubmit={noop} onConfirm={noop} />);
    expect(screen.getByText('NL91 ABNA 0417 1643 00')).toBeTruthy(); // grouped by four, as every page writes an IBAN
    expect(screen.queryByText(en.fields.beneficiary)).toBeNull();
    expect(screen.queryByText(/object/)).toBeNull();
  });
});

describe('KindSection, a kind not enabled yet', () => {
  const notEnabled: IdentityKind = {
    ...verified,
    kind: 'address',
    phase: 'not_enabled',
    channel: 'post',
    data: null,
    submittedAt: null,
    verifiedAt: null,
    retainUntil: null,
  };

  it('asks for it in one click instead of "contact us"', async () => {
    const onRequest = jest.fn(async () => undefined);
    renderInLanguage(<KindSection view={notEnabled} onSubmit={noop} onConfirm={noop} onRequest={onRequest} />);
    expect(screen.getByText(en.me.notEnabledRequest)).toBeTruthy();
    expect(screen.queryByRole('link', { name: en.me.contactLink })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.me.request }));
    await waitFor(() => expect(onRequest).toHaveBeenCalledTimes(1));
  });

  it('once asked, says when and what happens next, in the page language', () => {
    renderInLanguage(
      <KindSection
        view={{ ...notEnabled, requestedAt: '2026-03-02T10:00:00.000Z' }}
        onSubmit={noop}
        onConfirm={noop}
        onRequest={noop}
      />,
      'uk',
    );
    expect(screen.getByText(uk.me.requested.replace('{{date}}', '2 березня 2026 р.'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: uk.me.request })).toBeNull();
  });
});

describe('how the code arrives', () => {
  const waiting = (kind: IdentityKind['kind'], channel: IdentityKind['channel']): IdentityKind => ({
    ...verified,
    kind,
    channel,
    phase: 'step_2',
    verifiedAt: null,
    retainUntil: null,
    codeExpiresAt: '2026-02-10T09:00:00.000Z',
    attemptsLeft: 5,
  });

  // The numbers come from the rules the server gives codes (domain/identity.ts), written by Intl:
  // changing a code's life changes the sentence, in every language.
  it('says how long a letter’s code lives, and the transfer’s amount, in the page’s language', () => {
    const ru = loadResources('ru').identity as any;
    renderInLanguage(<KindSection view={waiting('address', 'post')} onSubmit={noop} onConfirm={noop} />, 'ru');
    expect(screen.getByText(/Код действителен 30 дней\./)).toBeTruthy();
    expect(screen.getByText(/код из 16 букв/)).toBeTruthy();
    expect(ru.me.howCodeArrives.post).toContain('{{validity}}');
  });

  it('writes the bank transfer’s amount as money and the SMS code’s minutes', () => {
    renderInLanguage(<KindSection view={waiting('bank', 'bank')} onSubmit={noop} onConfirm={noop} />, 'de');
    expect(
      screen.getByText(/Wir überweisen 0,01\s€ auf das angegebene Bankkonto\..*Er ist 14 Tage gültig\./),
    ).toBeTruthy();
  });

  it('gives SMS and email codes their minutes', () => {
    renderInLanguage(<KindSection view={waiting('mobile', 'sms')} onSubmit={noop} onConfirm={noop} />, 'uk');
    expect(screen.getByText(/Введіть його тут протягом 10 хвилин\./)).toBeTruthy();
    expect(screen.queryByText(/\{\{/)).toBeNull();
  });
});
