import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { ServiceStatusList } from '../features/content/components/service-status';
import { usePageLanguage } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function StatusPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  const language = usePageLanguage();
  return (
    <Layout page="status" pathname={location.pathname}>
      <p className="lead">{t('status.lead')}</p>
      <ServiceStatusList language={language} />
    </Layout>
  );
}

export const Head = pageHead('status');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
