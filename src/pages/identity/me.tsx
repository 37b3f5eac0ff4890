import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { AccountSummary } from '../../features/auth/components/account-summary';
import { ProtectedIsland } from '../../features/auth/components/protected-island';
import { MyIdentity } from '../../features/identity/components/my-identity';
import { pageHead } from '../../ui/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function MyIdentityPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('identity');
  return (
    <Layout page="my_identity" pathname={location.pathname}>
      <p className="lead">{t('me.lead')}</p>
      <ProtectedIsland name="my-identity">
        <AccountSummary />
        <MyIdentity />
      </ProtectedIsland>
    </Layout>
  );
}

export const Head = pageHead('my_identity');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "identity", "auth", "errors"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
