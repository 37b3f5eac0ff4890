import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { ProtectedIsland } from '../../features/auth/components/protected-island';
import { Receive } from '../../features/wallet/components/receive';
import { pageHead } from '../../ui/page-head';
import { SectionNav, walletPages } from '../../ui/section-nav';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function WalletReceivePage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="wallet_receive" pathname={location.pathname}>
      <SectionNav label={tc('pages.wallet.title')} names={walletPages} />
      <p className="lead">{t('receive.lead')}</p>
      <ProtectedIsland name="wallet-receive">
        <Receive />
      </ProtectedIsland>
    </Layout>
  );
}

export const Head = pageHead('wallet_receive');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: { ns: { in: ["common", "wallet", "auth", "errors", "currencies"] }, language: { eq: $language } }
    ) {
      ...LocaleEdges
    }
  }
`;
