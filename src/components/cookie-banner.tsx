import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { readConsent, saveConsent } from './consent';
import { LocalizedLink } from './localized-link';

/**
 * Asks once for analytics consent. Rendered only after hydration (the choice lives in the
 * browser), fixed to the bottom of the viewport so it never shifts the page.
 */
export function CookieBanner() {
  const { t } = useTranslation('common');
  const [open, setOpen] = React.useState(false);
  React.useEffect(() => {
    // A transition: React renders the banner in small slices instead of one long task that
    // would delay the visitor's first interaction with the page.
    React.startTransition(() => setOpen(readConsent() === null));
    const reopen = () => setOpen(true);
    window.addEventListener('muntly:consent-cleared', reopen);
    return () => window.removeEventListener('muntly:consent-cleared', reopen);
  }, []);
  if (!open) return null;

  const choose = (choice: 'granted' | 'denied') => {
    saveConsent(choice);
    setOpen(false);
  };
  return (
    <section className="cookie-banner" aria-label={t('cookieBanner.label')}>
      <p>
        {t('cookieBanner.text')} <LocalizedLink to="cookie_policy">{t('cookieBanner.learnMore')}</LocalizedLink>
      </p>
      <div className="actions">
        <button type="button" className="button primary" onClick={() => choose('granted')}>
          {t('cookieBanner.accept')}
        </button>
        <button type="button" className="button" onClick={() => choose('denied')}>
          {t('cookieBanner.decline')}
        </button>
      </div>
    </section>
  );
}
