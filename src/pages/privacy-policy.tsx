import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { Layout } from '../app/layout';
import { LegalDocument } from '../features/content/components/legal-document';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function PrivacyPolicyPage({ location, pageContext }: PageProps<LocalesData, I18nPageContext>) {
  return (
    <Layout page="privacy_policy" pathname={location.pathname}>
      <LegalDocument doc="privacy_policy" figures={pageContext.figures} />
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
