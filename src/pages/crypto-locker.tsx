import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { DocumentSections } from '../features/content/components/document';
import { RelatedPages } from '../features/content/components/related-pages';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function CryptoLockerPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  return (
    <Layout page="crypto_locker" pathname={location.pathname}>
      <p className="lead">{t('crypto_locker.lead')}</p>
      <DocumentSections sections={t('crypto_locker.sections', { returnObjects: true })} />
      <section aria-labelledby="help-links">
        <h2 id="help-links">{t('crypto_locker.links.heading')}</h2>
        <ul>
          <li>
            <a href="https://www.nomoreransom.org/" hrefLang="en">
              {t('crypto_locker.links.noMoreRansom')}
            </a>
          </li>
          <li>
            <a href="https://www.nomoreransom.org/crypto-sheriff.php" hrefLang="en">
              {t('crypto_locker.links.cryptoSheriff')}
            </a>
          </li>
        </ul>
      </section>
      <RelatedPages names={RELATED} />
    </Layout>
  );
}

const RELATED = ['contact', 'aml_policy', 'support'] as const;

export const Head = pageHead('crypto_locker');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
