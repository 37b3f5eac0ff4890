import type { GatsbyConfig } from 'gatsby';

/**
 * bench:site's reference: a bare Gatsby page, built by the repository's Gatsby (same version, same
 * node_modules) into bench/bare-site/public/. No plugins, no site metadata; only the trailing
 * slash rule is the product's, so both are served by the same rules.
 */
const config: GatsbyConfig = {
  trailingSlash: 'always',
  graphqlTypegen: false,
  plugins: [],
};

export default config;
