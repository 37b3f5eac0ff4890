import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { ProtectedIsland } from '../../features/auth/components/protected-island';
import { Proof } from '../../features/wallet/components/proof';
import { pageHead } from '../../ui/page-head';
import { SectionNav, walletPages } from '../../ui/section-nav';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

/** Proof of liabilities: the user checks, in the browser, that their balance is counted in what Muntly owes. */
export default function WalletProofPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="wallet_proof" pathname={location.pathname}>
      <SectionNav label={tc('pages.wallet.title')} names={walletPages} />
      <p className="lead">{t('proof.lead')}</p>
      <p>{t('proof.how')}</p>
      <ProtectedIsland name="wallet-proof">
        <Proof />
      </ProtectedIsland>
    </Layout>
  );
}

export const Head = pageHead('wallet_proof');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: { ns: { in: ["common", "wallet", "proof", "auth", "errors", "currencies"] }, language: { eq: $language } }
    ) {
      ...LocaleEdges
    }
  }
`;
