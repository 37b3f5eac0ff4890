import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { ProofOfSolvency } from '../features/content/components/proof-of-solvency';
import { usePageLanguage } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

/** The public proof of solvency: what Muntly owed and what it held at the latest snapshot, and how to check it. */
export default function ProofPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('proof');
  const language = usePageLanguage();
  return (
    <Layout page="proof" pathname={location.pathname}>
      <p className="lead">{t('public.lead')}</p>
      <ProofOfSolvency language={language} />
    </Layout>
  );
}

export const Head = pageHead('proof');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "proof"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
