import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { NewsList, type NewsArticle } from '../features/content/components/news-list';
import { usePageLanguage } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

type Data = LocalesData & { articles: { nodes: NewsArticle[] } };

export default function NewsPage({ location, data }: PageProps<Data, I18nPageContext>) {
  const { t } = useTranslation('info');
  const language = usePageLanguage();
  return (
    <Layout page="news" pathname={location.pathname}>
      <p className="lead">{t('news.lead')}</p>
      <NewsList articles={data.articles.nodes} language={language} />
    </Layout>
  );
}

export const Head = pageHead('news');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
    articles: allMarkdownRemark(
      filter: { frontmatter: { language: { eq: $language } } }
      sort: { frontmatter: { date: DESC } }
    ) {
      nodes {
        html
        frontmatter {
          slug
          title
          date
          summary
        }
      }
    }
  }
`;
