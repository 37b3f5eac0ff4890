import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CookieBanner } from './cookie-banner';
import { Footer } from './footer';
import { Header } from './header';
import { HydrationPart as Part } from './page-part';
import { SlowLoadNotice } from './slow-load-notice';
import type { RouteName } from '../i18n/routes';

type Props = {
  /** The page's route name; its localized title is the page heading unless `heading` is given (the operator console's pages give theirs). */
  page?: RouteName | 'notFound';
  pathname: string;
  heading?: React.ReactNode;
  children: React.ReactNode;
};

/** Header, content and footer hydrate one after another, each as a part of its own (page-part.tsx). */
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
