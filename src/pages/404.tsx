import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { LocalizedLink } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';

/** Shown for any unknown path, in the language of the path's prefix. */
export default function NotFoundPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('common');
  return (
    <Layout page="notFound" pathname={location.pathname} heading={t('notFound.heading')}>
      <p className="lead">{t('notFound.text')}</p>
      <p className="actions">
        <LocalizedLink to="exchange_order_history" className="button primary">
          {t('notFound.orderHistory')}
        </LocalizedLink>
        <LocalizedLink to="home" className="button">
          {t('notFound.home')}
        </LocalizedLink>
      </p>
    </Layout>
  );
}

export const Head = pageHead('notFound');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
