import '../../exchange/__tests__/polyfills';
import * as React from 'react';
import { screen } from '@testing-library/react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { KindSection } from '../components/my-identity';
import type { KindView } from '../api/identity';

const uk = loadResources('uk').identity as any;
const en = loadResources('en').identity as any;

const verified: KindView = {
  kind: 'mobile',
  phase: 'verified',
  channel: 'sms',
  data: { mobile: '+31612345678' },
  submittedAt: '2026-01-10T09:00:00.000Z',
  verifiedAt: '2026-01-10T09:05:00.000Z',
  retainUntil: '2031-01-10T09:05:00.000Z',
  dataDeletedAt: null,
  codeExpiresAt: null,
  attemptsLeft: null,
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
    const deleted: KindView = { ...verified, data: null, retainUntil: null, dataDeletedAt: '2031-01-11T02:00:00.000Z' };
    renderInLanguage(<KindSection view={deleted} onSubmit={noop} onConfirm={noop} />, 'uk');
    expect(screen.getByText(uk.me.dataDeleted.replace('{{date}}', '11 січня 2031 р.'))).toBeTruthy();
    expect(screen.getByText(uk.me.status.replace('{{phase}}', uk.me.phases.verified))).toBeTruthy();
    expect(screen.queryByText('+31612345678')).toBeNull();
  });
});
