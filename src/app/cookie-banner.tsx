import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../ui/localized-link';
import { readConsent, saveConsent, type ConsentChoice } from './consent';

/**
 * Asks once for analytics consent, fixed to the bottom of the viewport so it never shifts the
 * page. It is in every page's HTML, so it is painted with the page rather than after the app has
 * started (it is often the largest thing on a phone's first screen: Largest Contentful Paint);
 * for a visitor who has chosen before, the head script marks <html> and the stylesheet hides it
 * before the first paint, and after hydration it is removed. Until the app has started, the head
 * script answers its buttons (data-consent-choice, consent.ts); from then on, it does (data-live).
 */
export function CookieBanner() {
  const { t } = useTranslation('common');
  // Open in the HTML and in the render that hydrates it; the stored choice is read after that.
  const [open, setOpen] = React.useState(true);
  const [live, setLive] = React.useState(false);
  React.useEffect(() => {
    setLive(true);
    if (readConsent() !== null) setOpen(false);
    const reopen = () => setOpen(true);
    window.addEventListener('muntly:consent-cleared', reopen);
    return () => window.removeEventListener('muntly:consent-cleared', reopen);
  }, []);
  if (!open) return null;

  const choose = (choice: ConsentChoice) => {
    saveConsent(choice);
    setOpen(false);
  };
  return (
    <section className="cookie-banner" aria-label={t('cookieBanner.label')} data-live={live ? '' : undefined}>
      <p>
        {t('cookieBanner.text')} <LocalizedLink to="cookie_policy">{t('cookieBanner.learnMore')}</LocalizedLink>
      </p>
      <div className="actions">
        <button
          type="button"
          className="button primary"
          data-consent-choice="granted"
          onClick={() => choose('granted')}
        >
          {t('cookieBanner.accept')}
        </button>
        <button type="button" className="button" data-consent-choice="denied" onClick={() => choose('denied')}>
          {t('cookieBanner.decline')}
        </button>
      </div>
    </section>
  );
}
