import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { AccountSummary } from '../../features/auth/components/account-summary';
import { ProtectedIsland } from '../../features/auth/components/protected-island';
import { Balances } from '../../features/wallet/components/balances';
import { pageHead } from '../../ui/page-head';
import { SectionNav, walletPages } from '../../ui/section-nav';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function WalletBalancesPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="wallet_balances" pathname={location.pathname}>
      <SectionNav label={tc('pages.wallet.title')} names={walletPages} />
      <p className="lead">{t('balances.lead')}</p>
      <ProtectedIsland name="wallet-balances">
        <AccountSummary />
        <Balances />
      </ProtectedIsland>
    </Layout>
  );
}

export const Head = pageHead('wallet_balances');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: { ns: { in: ["common", "wallet", "auth", "errors", "currencies"] }, language: { eq: $language } }
    ) {
      ...LocaleEdges
    }
  }
`;
