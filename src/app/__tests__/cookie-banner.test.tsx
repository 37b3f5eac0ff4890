import { screen, fireEvent, act } from '@testing-library/react';
import * as React from 'react';
import { htmlInLanguage, renderInLanguage } from '../../../__tests__/support/render';
import { consentStorageKey } from '../../config';
import { consentDefaultsScript } from '../consent';
import { CookieBanner } from '../cookie-banner';
import { CookieChoiceReset } from '../cookie-choice-reset';

beforeEach(() => {
  window.localStorage.clear();
  document.documentElement.removeAttribute('data-consent-chosen');
  window.gtag = jest.fn();
});

describe('CookieBanner', () => {
  it('asks a first-time visitor, with a link to the cookie policy', () => {
    renderInLanguage(<CookieBanner />, 'fr');
    const banner = screen.getByRole('region');
    expect(banner).toHaveTextContent(/Google Analytics/);
    expect(screen.getByRole('link', { name: /cookies/i })).toHaveAttribute('href', '/fr/cookie-policy/');
  });

  it('grants analytics storage when the visitor accepts, and remembers it', () => {
    renderInLanguage(<CookieBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Accept analytics' }));
    expect(window.gtag).toHaveBeenCalledWith('consent', 'update', { analytics_storage: 'granted' });
    expect(window.localStorage.getItem(consentStorageKey)).toBe('granted');
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('keeps analytics denied when the visitor declines', () => {
    renderInLanguage(<CookieBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(window.gtag).toHaveBeenCalledWith('consent', 'update', { analytics_storage: 'denied' });
    expect(window.localStorage.getItem(consentStorageKey)).toBe('denied');
  });

  it("marks the page once chosen, so the next page's banner (in its HTML) stays hidden, and unmarks it when the choice is cleared", () => {
    renderInLanguage(
      <>
        <CookieBanner />
        <CookieChoiceReset label="Change my cookie choice" done="Cleared." />
      </>,
    );
    expect(document.documentElement.hasAttribute('data-consent-chosen')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(document.documentElement.hasAttribute('data-consent-chosen')).toBe(true);
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Change my cookie choice' }));
    });
    expect(document.documentElement.hasAttribute('data-consent-chosen')).toBe(false);
    expect(screen.getByRole('region')).toBeInTheDocument();
  });

  it('does not ask again once the visitor has chosen', () => {
    window.localStorage.setItem(consentStorageKey, 'denied');
    renderInLanguage(<CookieBanner />);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('asks again after the choice is cleared on the cookie policy page', () => {
    window.localStorage.setItem(consentStorageKey, 'granted');
    renderInLanguage(
      <>
        <CookieBanner />
        <CookieChoiceReset label="Change my cookie choice" done="Cleared." />
      </>,
    );
    expect(screen.queryByRole('region')).toBeNull();
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Change my cookie choice' }));
    });
    expect(screen.getByRole('region')).toBeInTheDocument();
    expect(window.localStorage.getItem(consentStorageKey)).toBeNull();
  });
});

describe('consent defaults (inline head script)', () => {
  afterEach(() => document.body.replaceChildren());

  function runDefaults() {
    window.dataLayer = [];
    // The script defines a global gtag, as it does in the page head.
    new Function(`${consentDefaultsScript()}; window.gtag = gtag;`)();
    return Array.from(window.dataLayer[0] as ArrayLike<unknown>);
  }

  it('denies analytics storage until the visitor accepts', () => {
    expect(runDefaults()).toEqual([
      'consent',
      'default',
      expect.objectContaining({ analytics_storage: 'denied', ad_storage: 'denied' }),
    ]);
  });

  it('grants it on later visits once accepted', () => {
    window.localStorage.setItem(consentStorageKey, 'granted');
    expect(runDefaults()).toEqual(['consent', 'default', expect.objectContaining({ analytics_storage: 'granted' })]);
  });

  it("hides the banner in the page's HTML before the first paint once the visitor has chosen, either way", () => {
    runDefaults();
    expect(document.documentElement.hasAttribute('data-consent-chosen')).toBe(false);
    for (const choice of ['granted', 'denied']) {
      document.documentElement.removeAttribute('data-consent-chosen');
      window.localStorage.setItem(consentStorageKey, choice);
      runDefaults();
      expect(document.documentElement.hasAttribute('data-consent-chosen')).toBe(true);
    }
    // Anything else stored is no choice: the banner asks.
    document.documentElement.removeAttribute('data-consent-chosen');
    window.localStorage.setItem(consentStorageKey, 'maybe');
    runDefaults();
    expect(document.documentElement.hasAttribute('data-consent-chosen')).toBe(false);
  });

  it("answers the banner's buttons before the app has started: the choice is stored and applied, and the banner hides", () => {
    // The banner as the page's HTML has it, before React has hydrated it.
    document.body.innerHTML = htmlInLanguage(<CookieBanner />, 'de');
    runDefaults();
    const decline = screen.getByRole('button', { name: 'Ablehnen' });
    fireEvent.click(decline);
    expect(window.localStorage.getItem(consentStorageKey)).toBe('denied');
    expect(document.documentElement.hasAttribute('data-consent-chosen')).toBe(true);
    expect(Array.from(window.dataLayer!.at(-1) as ArrayLike<unknown>)).toEqual([
      'consent',
      'update',
      { analytics_storage: 'denied' },
    ]);
  });

  it('leaves the buttons to the app once it has started', () => {
    renderInLanguage(<CookieBanner />);
    runDefaults();
    window.gtag = jest.fn(); // the app's calls, told apart from the head script's own (into dataLayer)
    const before = window.dataLayer!.length;
    fireEvent.click(screen.getByRole('button', { name: 'Accept analytics' }));
    // One update, the app's (window.gtag), none from the head script.
    expect(window.dataLayer!.length).toBe(before);
    expect(window.gtag).toHaveBeenCalledWith('consent', 'update', { analytics_storage: 'granted' });
  });
});
