import * as React from 'react';
import { graphql, type PageProps } from 'gatsby';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../components/layout';
import { pageHead } from '../../components/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';
import { IslandPlaceholder } from '../../components/island';

export default function MyIdentityPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('identity');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="my_identity" pathname={location.pathname}>
      <p className="lead">{t('me.lead')}</p>
      <IslandPlaceholder name="my-identity">
        <p className="muted">{tc('loginRequired')}</p>
      </IslandPlaceholder>
    </Layout>
  );
}

export const Head = pageHead('my_identity');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "identity"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
