import { screen, within, waitFor } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage } from '../../../__tests__/support/render';
import { LanguageSwitch } from '../language-switch';

function links() {
  return within(screen.getByRole('navigation', { name: /language|sprache|langue|taal|язык|мов/i })).getAllByRole(
    'link',
  );
}

describe('LanguageSwitch', () => {
  it('links the current page in all six languages, each with hreflang and lang', async () => {
    renderInLanguage(<LanguageSwitch pathname="/de/exchange/buy/" />, 'de', '/exchange/buy/');
    await waitFor(() =>
      expect(links().map((a) => a.getAttribute('href'))).toEqual([
        '/exchange/buy/',
        '/de/exchange/buy/',
        '/fr/exchange/buy/',
        '/nl/exchange/buy/',
        '/ru/exchange/buy/',
        '/uk/exchange/buy/',
      ]),
    );
    expect(links().map((a) => [a.getAttribute('hreflang'), a.getAttribute('lang')])).toEqual(
      ['en', 'de', 'fr', 'nl', 'ru', 'uk'].map((l) => [l, l]),
    );
  });

  it('names each language in its own language, with its flag for English, German, French and Dutch', () => {
    renderInLanguage(<LanguageSwitch pathname="/" />, 'en', '/');
    const [en, de, fr, nl, ru, uk] = links();
    // The ru/uk short name is drawn by CSS from data-code, like a flag, so the text is the name alone (label in name); never "UK", read as the United Kingdom.
    expect(links().map((a) => a.textContent)).toEqual([
      'English',
      'Deutsch',
      'Français',
      'Nederlands',
      'Русский',
      'Українська',
    ]);
    expect(links().map((a) => a.querySelector('.language-code')?.getAttribute('data-code'))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      'РУС',
      'УКР',
    ]);
    expect(links().map((a) => a.querySelector('img')?.getAttribute('src'))).toEqual([
      '/flags/gb.svg',
      '/flags/de.svg',
      '/flags/fr.svg',
      '/flags/nl.svg',
      undefined,
      undefined,
    ]);
    for (const [link, name] of [
      [en, 'English'],
      [de, 'Deutsch'],
      [fr, 'Français'],
      [nl, 'Nederlands'],
      [ru, 'Русский'],
      [uk, 'Українська'],
    ] as const) {
      expect(within(screen.getByRole('navigation')).getByRole('link', { name })).toBe(link);
    }
  });

  it('shows the current language on the button that opens the list', () => {
    renderInLanguage(<LanguageSwitch pathname="/de/fees/" />, 'de', '/fees/');
    const summary = document.querySelector('summary')!;
    expect(summary).toHaveAccessibleName('Sprache: Deutsch');
    expect(summary).toHaveTextContent('Deutsch');
    expect(summary.querySelector('img')).toHaveAttribute('src', '/flags/de.svg');
  });

  it('marks the current language', () => {
    renderInLanguage(<LanguageSwitch pathname="/uk/fees/" />, 'uk', '/fees/');
    expect(screen.getByRole('link', { name: 'Українська' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('link', { name: 'English' })).not.toHaveAttribute('aria-current');
  });

  it('keeps an unknown path on the not-found page, so each language shows its own 404', async () => {
    // The page was rendered as /uk/404/ but the visitor is on /uk/some/missing/page.
    renderInLanguage(<LanguageSwitch pathname="/uk/some/missing/page" />, 'uk', '/404/');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Deutsch' })).toHaveAttribute('href', '/de/some/missing/page'),
    );
    expect(screen.getByRole('link', { name: 'English' })).toHaveAttribute('href', '/some/missing/page');
  });
});
