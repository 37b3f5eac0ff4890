import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { ProtectedIsland } from '../../features/auth/components/protected-island';
import { Security } from '../../features/wallet/components/security';
import { pageHead } from '../../ui/page-head';
import { SectionNav, walletPages } from '../../ui/section-nav';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function WalletSecurityPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="wallet_security" pathname={location.pathname}>
      <SectionNav label={tc('pages.wallet.title')} names={walletPages} />
      <p className="lead">{t('security.lead')}</p>
      <ProtectedIsland name="wallet-security">
        <Security />
      </ProtectedIsland>
    </Layout>
  );
}

export const Head = pageHead('wallet_security');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: { ns: { in: ["common", "wallet", "auth", "errors", "currencies"] }, language: { eq: $language } }
    ) {
      ...LocaleEdges
    }
  }
`;
