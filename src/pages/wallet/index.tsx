import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { AuthIsland } from '../../app/auth-island';
import { Layout } from '../../app/layout';
import { WalletHome } from '../../features/wallet/components/home';
import { IslandPlaceholder } from '../../ui/island';
import { PageCards } from '../../ui/page-cards';
import { pageHead } from '../../ui/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function WalletPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('wallet');
  return (
    <Layout page="wallet" pathname={location.pathname}>
      <p className="lead">{t('landing.lead')}</p>
      {/* A logged-in user's own home (issue 35): where a login without another page lands. */}
      <IslandPlaceholder name="wallet-home">
        <AuthIsland>
          <WalletHome />
        </AuthIsland>
      </IslandPlaceholder>
      <PageCards
        cards={[
          ['wallet_balances', t('landing.balances')],
          ['wallet_receive', t('landing.receive')],
          ['wallet_send', t('landing.send')],
          ['wallet_transactions', t('landing.transactions')],
          ['wallet_security', t('landing.security')],
        ]}
      />
      <p>{t('landing.fullSupport')}</p>
      <p>{t('landing.partialSupport')}</p>
    </Layout>
  );
}

export const Head = pageHead('wallet');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: {
        ns: { in: ["common", "wallet", "identity", "auth", "errors", "currencies"] }
        language: { eq: $language }
      }
    ) {
      ...LocaleEdges
    }
  }
`;
