/**
 * What the browser build uses in place of two plugins' browser parts that do nothing on this
 * site (gatsby-node.ts, onCreateWebpackConfig), yet put code into every page's first load:
 *
 * - Gatsby's internal Partytown plugin: it acts only in `gatsby develop` (it injects the scripts
 *   of `<Script strategy="off-main-thread">`, which this site has none of), and it imports
 *   gatsby-script and Partytown's integration.
 * - gatsby-plugin-manifest: it acts only when the manifest is localized (this site's is not),
 *   and its helper requires all of `gatsby` through CommonJS, which keeps every export of it
 *   (gatsby-script again) in the app's script.
 *
 * Here no browser API is defined, so Gatsby calls nothing.
 */
export {};
