/**
 * Gatsby's internal Partytown plugin's browser part, which the build uses in its place
 * (gatsby-node.ts, onCreateWebpackConfig). That part does something only in `gatsby develop`
 * (it injects the off-main-thread scripts of `<Script strategy="off-main-thread">`, which this
 * site has none of), yet it imports gatsby-script and Partytown's integration into every page's
 * first load (about 2 KB gzipped). Here it defines no browser API, so Gatsby calls nothing.
 */
export {};
