import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { OpsPage, opsHead } from '../../features/ops/components/ops-page';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function OpsVerificationsPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  return <OpsPage section="ops_verifications" pathname={location.pathname} />;
}

export const Head = opsHead('ops_verifications');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: { ns: { in: ["common", "ops", "auth", "errors", "identity"] }, language: { eq: $language } }
    ) {
      ...LocaleEdges
    }
  }
`;
