import * as React from 'react';
import { graphql, type PageProps } from 'gatsby';
import { useTranslation } from 'react-i18next';
import { Layout } from '../components/layout';
import { pageHead } from '../components/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';

export default function PrivacyPolicyPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('legal');
  return (
    <Layout page="privacy_policy" pathname={location.pathname}>
      <p className="lead">{t('privacy_policy.lead')}</p>
      {t('privacy_policy.body', { returnObjects: true }).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </Layout>
  );
}

export const Head = pageHead('privacy_policy');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "legal"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
