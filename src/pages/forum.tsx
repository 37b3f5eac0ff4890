import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { DocumentSections } from '../features/content/components/document';
import { RelatedPages } from '../features/content/components/related-pages';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function ForumPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  return (
    <Layout page="forum" pathname={location.pathname}>
      <p className="lead">{t('forum.lead')}</p>
      <DocumentSections sections={t('forum.sections', { returnObjects: true })} />
      <RelatedPages names={RELATED} />
    </Layout>
  );
}

const RELATED = ['support', 'news', 'chatbots'] as const;

export const Head = pageHead('forum');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
