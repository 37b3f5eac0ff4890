import * as React from 'react';
import { graphql, type PageProps } from 'gatsby';
import { useTranslation } from 'react-i18next';
import { Layout } from '../components/layout';
import { pageHead } from '../components/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';

export default function CryptoLockerPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  return (
    <Layout page="crypto_locker" pathname={location.pathname}>
      <p className="lead">{t('crypto_locker.lead')}</p>
      <ol>
        <li>{t('crypto_locker.steps.disconnect')}</li>
        <li>{t('crypto_locker.steps.report')}</li>
        <li>{t('crypto_locker.steps.decryptor')}</li>
        <li>{t('crypto_locker.steps.contact')}</li>
      </ol>
    </Layout>
  );
}

export const Head = pageHead('crypto_locker');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
