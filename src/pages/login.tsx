import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { AuthIsland } from '../app/auth-island';
import { Layout } from '../app/layout';
import { LoginFlow } from '../features/auth/components/session-pages';
import { IslandPlaceholder } from '../ui/island';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';

export default function LoginPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('auth');
  return (
    <Layout page="login" pathname={location.pathname}>
      <p className="lead">{t('login.lead')}</p>
      <IslandPlaceholder name="login">
        <AuthIsland>
          <LoginFlow />
        </AuthIsland>
      </IslandPlaceholder>
    </Layout>
  );
}

export const Head = pageHead('login');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "auth"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
