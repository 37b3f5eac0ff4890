import '../../../../__tests__/support/polyfills';
import { screen } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { IdentityOverview } from '../components/overview';

describe('IdentityOverview (the public identity page)', () => {
  it.each(['en', 'de', 'ru', 'uk'] as const)(
    'lists the kinds in the order the wallet and my identity list them, the weekly ones with their amount (%s)',
    (language) => {
      const texts = loadResources(language).identity as any;
      renderInLanguage(<IdentityOverview />, language);
      const kinds = [...document.querySelectorAll('li[data-kind]')].map((item) => item.getAttribute('data-kind'));
      // Issue 35: the ones that matter first — the bank account opens the wallet, then a week's volume.
      expect(kinds).toEqual(['bank', 'mobile', 'id', 'business', 'address']);
      const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
      expect(headings[0]).toBe(texts.overview.kinds.bank.title);
      const mobile = document.querySelector('li[data-kind="mobile"]')!.textContent!;
      const id = document.querySelector('li[data-kind="id"]')!.textContent!;
      expect(mobile).toMatch(/1[\s.,\u202f\u00a0]?000/);
      expect(id).toMatch(/3[\s.,\u202f\u00a0]?000/);
      expect(document.body.textContent).not.toContain('{{');
    },
  );
});
