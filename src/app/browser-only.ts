/**
 * What the HTML renderer gets in place of modules the browser loads on demand and the server's
 * rendering never runs (gatsby-node.ts, BROWSER_ONLY): nothing, so the build does not compile
 * them a second time.
 */
export {};
