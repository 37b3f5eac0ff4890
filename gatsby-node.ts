import type { GatsbyNode } from 'gatsby';

/**
 * Pages come from src/pages; gatsby-plugin-react-i18next copies each one under every
 * language prefix. The offline plugin's app shell is one page for all languages: it only
 * hosts whichever page the service worker restores, so it gets no language copies.
 */
export const onCreatePage: GatsbyNode['onCreatePage'] = ({ page, actions }) => {
  if (/^\/[a-z]{2}\/offline-plugin-app-shell-fallback\/?$/.test(page.path)) {
    actions.deletePage(page);
  }
};
