import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { OpsPage, opsHead } from '../../features/ops/components/ops-page';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function OpsFaucetPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  return <OpsPage section="ops_faucet" pathname={location.pathname} />;
}

export const Head = opsHead('ops_faucet');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "ops", "auth", "errors"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
