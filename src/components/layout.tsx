import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CookieBanner } from './cookie-banner';
import { Footer } from './footer';
import { Header } from './header';
import { SlowLoadNotice } from './slow-load-notice';
import type { RouteName } from '../i18n/routes';

type Props = {
  /** The page's route name; its localized title is the page heading unless `heading` is given (the operator console's pages give theirs). */
  page?: RouteName | 'notFound';
  pathname: string;
  heading?: React.ReactNode;
  children: React.ReactNode;
};

/**
 * The page's parts hydrate one after another, each in its own short task, instead of in one long
 * task that keeps a phone from answering a tap (Lighthouse's total blocking time): React 18
 * hydrates what is inside a Suspense boundary separately and yields between boundaries. Nothing
 * here suspends, so the boundaries never show their (empty) fallback.
 */
function Part({ children }: { children: React.ReactNode }) {
  return <React.Suspense fallback={null}>{children}</React.Suspense>;
}

export function Layout({ page, pathname, heading, children }: Props) {
  const { t } = useTranslation('common');
  return (
    <>
      <a className="skip-link" href="#main">
        {t('a11y.skipToContent')}
      </a>
      <Part>
        <Header pathname={pathname} />
      </Part>
      <SlowLoadNotice />
      <main id="main" className="container">
        <h1>{heading ?? t(`pages.${page ?? 'notFound'}.title`)}</h1>
        <Part>{children}</Part>
      </main>
      <Part>
        <Footer />
      </Part>
      <CookieBanner />
    </>
  );
}
