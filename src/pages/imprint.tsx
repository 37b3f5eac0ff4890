import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { Layout } from '../app/layout';
import { Imprint } from '../features/content/components/imprint';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function ImprintPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  return (
    <Layout page="imprint" pathname={location.pathname}>
      <Imprint />
    </Layout>
  );
}

export const Head = pageHead('imprint');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "legal"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
