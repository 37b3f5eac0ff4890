import { graphql } from 'gatsby';

/**
 * The translations a page ships in its page data. Every page query selects only the
 * namespaces it uses, e.g. `allLocale(filter: { ns: { in: ["common", "info"] }, ... })`.
 */
export const localeEdges = graphql`
  fragment LocaleEdges on LocaleConnection {
    edges {
      node {
        ns
        data
        language
      }
    }
  }
`;
