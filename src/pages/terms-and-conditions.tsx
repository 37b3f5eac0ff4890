import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { Layout } from '../app/layout';
import { LegalDocument } from '../features/content/components/legal-document';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function TermsAndConditionsPage({ location, pageContext }: PageProps<LocalesData, I18nPageContext>) {
  return (
    <Layout page="terms_and_conditions" pathname={location.pathname}>
      <LegalDocument doc="terms_and_conditions" figures={pageContext.figures} />
    </Layout>
  );
}

export const Head = pageHead('terms_and_conditions');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "legal"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
