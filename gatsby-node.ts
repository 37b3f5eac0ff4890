import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isLanguage } from './domain/languages';
import { operatorFromEnv } from './domain/operator';
import { productFigures } from './src/i18n/figures';
import { legalNav, routes } from './src/i18n/routes';
import type { GatsbyNode } from 'gatsby';

/** Pages that show the product's fixed figures get them formatted at build time (src/i18n/figures.ts). */
const PAGES_WITH_FIGURES = new Set<string>([
  routes.home,
  ...legalNav.filter((name) => name !== 'imprint').map((name) => routes[name]),
]);

/**
 * Pages come from src/pages; gatsby-plugin-react-i18next copies each one under every
 * language prefix. Home and the legal pages get the product's figures in their context. Two
 * corrections to what the plugin creates:
 *
 * - Its language copies of the 404 page get the match path "/de/de/*" instead of "/de/*" (the
 *   prefix is added twice), so in the browser an unknown /de/… path matched no page and React
 *   failed to hydrate the German not-found page the server had sent. We set "/de/*".
 * - The offline plugin's app shell is one page for all languages: it only hosts whichever page
 *   the service worker restores, so it gets no language copies.
 */
export const onCreatePage: GatsbyNode['onCreatePage'] = ({ page, actions }) => {
  if (/^\/?[a-z]{2}\/offline-plugin-app-shell-fallback\/?$/.test(page.path)) {
    actions.deletePage(page);
    return;
  }
  const context = page.context as { language?: string; i18n?: { originalPath?: string }; figures?: unknown };
  const { language } = context;
  if (!context.figures && isLanguage(language) && PAGES_WITH_FIGURES.has(context.i18n?.originalPath ?? '')) {
    actions.deletePage(page);
    actions.createPage({ ...page, context: { ...context, figures: productFigures(language) } });
    return;
  }
  const notFound = /^\/?([a-z]{2})\/404\/?$/.exec(page.path);
  if (notFound && page.matchPath !== `/${notFound[1]}/*`) {
    actions.deletePage(page);
    actions.createPage({ ...page, matchPath: `/${notFound[1]}/*` });
  }
};

/**
 * gatsby-plugin-react-i18next imports `outdent`, whose ES module build also assigns
 * `module.exports`; webpack forbids that in an ES module and throws, and the package catches it.
 * An exception thrown while the app's script is first run makes V8 re-parse that whole script
 * for the stack trace's line numbers: about 10 ms on every page load on a fast machine, several
 * times that on a phone, inside the longest startup task. Its CommonJS build does the same
 * without throwing (e2e/budgets.spec.ts: pages start without exceptions).
 */
const OUTDENT_COMMONJS = 'outdent/lib/index.js';

/**
 * The scripts every page runs as it starts (the entry's chunks: webpack's runtime, React, Gatsby's
 * runtime with i18next) begin with V8's explicit compile hint (v8.dev/blog/explicit-compile-hints,
 * Chrome 136 and later): their functions are compiled while the script downloads, on a background
 * thread, instead of one by one on the main thread as each is first called while the page starts.
 * Nearly all of them are called then (every module of these chunks runs at start), and that
 * compiling was the largest part of the app script's first run: on this machine, with the CPU
 * slowed 4× as on a phone, total blocking time on /exchange/buy/ went from a median of 110 ms to
 * 15 ms (Playwright, 8 loads each). Browsers without the hint read a comment. It goes in after
 * minification (which drops comments) and before the source maps are written (which it shifts).
 */
const COMPILE_HINT = {
  banner: '//# allFunctionsCalledOnLoad',
  raw: true,
  entryOnly: true,
  test: /\.js$/,
  // Right after webpack's PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE (400), where Terser minifies.
  stage: 401,
};

type WebpackRule = { test?: unknown; use?: { loader?: string }[] | unknown; oneOf?: WebpackRule[] };
type WebpackConfig = {
  devtool?: unknown;
  module: { rules: WebpackRule[] };
  optimization?: {
    splitChunks?: false | { cacheGroups?: Record<string, false | { minSize?: number }> };
    minimizer?: unknown[];
  };
};

/** Gatsby's Terser plugin as far as it is used here (terser-webpack-plugin). */
type Minimizer = {
  options: { exclude?: unknown };
  constructor: (new (options: object) => unknown) & { esbuildMinify?: unknown };
};

/**
 * The files of code a page loads only on demand (webpack's numbered chunks, the "lib" chunks of
 * large packages, the login SDK): never part of a page's first load, and mostly packages that
 * were published minified already (the login SDK, the chart library, the transliteration and phone
 * number tables, the curves). Terser spent most of the build's minifying time on them; esbuild
 * minifies them some thirty times faster, about 4 % larger. The first-load files (the runtime,
 * React, the app, the pages and what they share) stay with Terser, which makes them smallest.
 */
const ON_DEMAND_CHUNK = /^(\d+|[0-9a-f]{8}|auth-sdk)-[0-9a-f]+\.js$/;

/** Whether esbuild can be loaded (it comes with tsx); without it Terser minifies everything. */
function esbuildAvailable(): boolean {
  try {
    // createRequire: the compiled gatsby-node.js has no require.resolve of its own.
    createRequire(`${__dirname}/package.json`).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

/**
 * The site's own modules that need nothing of Gatsby's Babel preset but TypeScript and JSX: every
 * file of domain/ and src/ but the pages and templates (their page queries and exports are
 * Babel's work) and any file that asks Gatsby for data (`graphql`, `useStaticQuery`). esbuild
 * compiles those about twenty times faster than Babel; Babel keeps everything else.
 */
const plainSource = (() => {
  const roots = [`${__dirname}/src/`, `${__dirname}/domain/`];
  const gatsbyOnly = /[\\/]src[\\/](pages|templates)[\\/]/;
  const asksGatsby = /\bgraphql`|\buseStaticQuery\b|\bStaticQuery\b/;
  const known = new Map<string, boolean>();
  return (file: string): boolean => {
    let plain = known.get(file);
    if (plain === undefined) {
      plain =
        /\.tsx?$/.test(file) &&
        roots.some((r) => file.startsWith(r)) &&
        !gatsbyOnly.test(file) &&
        !asksGatsby.test(readFileSync(file, 'utf8'));
      known.set(file, plain);
    }
    return plain;
  };
})();

/** The rule Gatsby compiles the site's code with (babel-loader and its preset, `rules.js()`). */
const isSiteBabelRule = (rule: WebpackRule) =>
  String(rule.test) === String(/\.(js|mjs|jsx|ts|tsx)$/) && typeof rule.use === 'function';

/**
 * gatsby-plugin-typescript's rule: babel-loader again over every .ts and .tsx file, which Gatsby's
 * own rule above already compiles (TypeScript included, through the preset the same plugin adds
 * to the Babel configuration). Webpack applies every rule that matches, so each file went through
 * Babel twice.
 */
const isTypeScriptPluginRule = (rule: WebpackRule) =>
  String(rule.test) === String(/\.tsx?$/) && typeof rule.use === 'function';

/**
 * The smallest chunk of code shared by several pages that the browser build makes a file of its
 * own (Gatsby's "shared" group: 20,000 bytes before minification). Smaller shared code goes into
 * each page's own file instead: a page then starts with one file of its own rather than half a
 * dozen small ones, each compressed alone (about 2 KB gzipped more in all), and requested alone.
 */
const SHARED_CHUNK_MIN_BYTES = 150_000;

/**
 * The production build (issue 36: it took about 2.4× a bare Gatsby site's). Its time is nearly all
 * webpack's, twice over: the browser's bundles and the server's renderer of the HTML, each
 * compiling every module of every page. What those compilations did that the site does not need:
 *
 * - Source maps, for both (Gatsby's default for the production stages). Nothing serves or reads
 *   them; a build made with MUNTLY_SOURCE_MAPS=1 has them, to see what a chunk is made of.
 * - A second Babel pass over every npm package's code ("dependencies": preset-env and its
 *   polyfills for the browsers Gatsby targets), on top of parsing it. The site's browser list is
 *   Gatsby's default, which every package here already runs on as published; the site's own code
 *   still goes through Babel (Gatsby's preset: JSX, TypeScript, the page queries).
 * - A second Babel pass over every TypeScript file (isTypeScriptPluginRule).
 * - Babel over the site's own modules that need only TypeScript and JSX compiled (plainSource):
 *   esbuild compiles those instead.
 *
 * - Terser over the code pages load on demand (ON_DEMAND_CHUNK): esbuild minifies it instead.
 *
 * And one change to what the browser gets: fewer, larger files per page (SHARED_CHUNK_MIN_BYTES).
 */
function leanerBuild(config: WebpackConfig): WebpackConfig {
  if (!process.env.MUNTLY_SOURCE_MAPS) config.devtool = false;
  const babelOfPackages = (rule: WebpackConfig['module']['rules'][number]) =>
    Array.isArray(rule.use) &&
    rule.use.some((use: { loader?: string }) => /[\\/]node_modules[\\/]babel-loader[\\/]/.test(use.loader ?? ''));
  config.module.rules = config.module.rules
    .filter((rule) => !babelOfPackages(rule) && !isTypeScriptPluginRule(rule))
    .map((rule) =>
      isSiteBabelRule(rule)
        ? {
            oneOf: [
              {
                test: plainSource,
                type: 'javascript/auto',
                use: [
                  {
                    loader: createRequire(`${__dirname}/package.json`).resolve('esbuild-loader'),
                    options: { target: 'es2020' },
                  },
                ],
              },
              rule,
            ],
          }
        : rule,
    );
  const shared = config.optimization?.splitChunks ? config.optimization.splitChunks.cacheGroups?.shared : undefined;
  if (shared) shared.minSize = SHARED_CHUNK_MIN_BYTES;
  const minimizers = config.optimization?.minimizer;
  const terser = minimizers?.find(
    (plugin): plugin is Minimizer => (plugin as object | undefined)?.constructor?.name === 'TerserPlugin',
  );
  if (minimizers && terser?.constructor.esbuildMinify && esbuildAvailable()) {
    terser.options.exclude = [/\.min\.js/, ON_DEMAND_CHUNK];
    const TerserPlugin = terser.constructor;
    minimizers.push(
      new TerserPlugin({
        include: ON_DEMAND_CHUNK,
        minify: TerserPlugin.esbuildMinify,
        terserOptions: { legalComments: 'eof' },
      }),
    );
  }
  return config;
}

/** Gatsby's Partytown plugin's and gatsby-plugin-manifest's browser parts (app/no-browser-part.ts). */
const NO_BROWSER_PART =
  /(gatsby[\\/]dist[\\/]internal-plugins[\\/]partytown|gatsby-plugin-manifest)[\\/]gatsby-browser\.js$/;

/**
 * Modules the browser loads on demand and the server's rendering never runs, which the HTML
 * renderer therefore gets as an empty module (app/browser-only.ts): the address rules
 * (curves, hashes, encodings), the payee name rules (transliteration tables), the login SDK (its
 * island renders nothing of it on the server) and the chart library (drawn in an effect). If a
 * rendering ever called one, the build would fail on it rather than write a wrong page.
 */
const BROWSER_ONLY =
  /([\\/]domain[\\/](addresses|payee)\.ts|[\\/]src[\\/]app[\\/]auth-sdk\.tsx|[\\/]node_modules[\\/]lightweight-charts[\\/].*\.m?js)$/;

/**
 * The operator the prerendered pages name (footer, imprint, terms, privacy policy): the build
 * reads the same OPERATOR_* variables as the server, so that the HTML a visitor without
 * JavaScript or a search engine reads names the real operator. Without them the HTML shows the
 * marked sample. In the browser the server's answer (/api/operator) replaces either, so one
 * build still serves any operator (app/operator.tsx, docs/configuration.md).
 */
export const onCreateWebpackConfig: GatsbyNode['onCreateWebpackConfig'] = ({ stage, actions, plugins, getConfig }) => {
  if (stage === 'build-javascript' || stage === 'build-html')
    actions.replaceWebpackConfig(leanerBuild(getConfig() as WebpackConfig));
  actions.setWebpackConfig({
    plugins: [
      ...(stage === 'build-javascript' ? [plugins.banner(COMPILE_HINT)] : []),
      plugins.define({ 'process.env.MUNTLY_OPERATOR': JSON.stringify(JSON.stringify(operatorFromEnv(process.env))) }),
      // gatsby-plugin-offline's browser part, with the worker's caching of the page spread over idle time.
      plugins.normalModuleReplacement(
        /gatsby-plugin-offline[\\/]gatsby-browser\.js$/,
        `${__dirname}/src/app/offline-browser.ts`,
      ),
      // gatsby-plugin-react-i18next's page wrapper, with one i18next instance per page instead of one per render.
      plugins.normalModuleReplacement(
        /gatsby-plugin-react-i18next[\\/]dist[\\/]plugin[\\/]wrapPageElement\.js$/,
        `${__dirname}/src/i18n/wrap-page-element.tsx`,
      ),
      // Browser parts of plugins that do nothing on this site (app/no-browser-part.ts).
      ...(stage === 'build-javascript'
        ? [plugins.normalModuleReplacement(NO_BROWSER_PART, `${__dirname}/src/app/no-browser-part.ts`)]
        : []),
      // What the server's rendering never runs (see BROWSER_ONLY) is not compiled for it.
      ...(stage === 'build-html'
        ? [plugins.normalModuleReplacement(BROWSER_ONLY, `${__dirname}/src/app/browser-only.ts`)]
        : []),
    ],
    resolve: { alias: { outdent$: OUTDENT_COMMONJS } },
  });
};

/**
 * Currency logos (ui/currency-icons.ts): the package's SVGs for the listed currencies and
 * EUR, a lettered circle where it has none, written to public/ so the site serves them itself
 * (in development too, hence before bootstrapping as well as after the build).
 */
async function writeCurrencyIcons(): Promise<void> {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { CURRENCY_ICON_DIR, ICON_CODES, letterIconSvg } = await import('./src/ui/currency-icons');
  const source = path.join(__dirname, 'node_modules', 'cryptocurrency-icons', 'svg', 'color');
  const target = path.join(__dirname, 'public', CURRENCY_ICON_DIR);
  fs.mkdirSync(target, { recursive: true });
  for (const code of ICON_CODES) {
    const file = `${code.toLowerCase()}.svg`;
    const from = path.join(source, file);
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(target, file));
    else fs.writeFileSync(path.join(target, file), letterIconSvg(code));
  }
}

/**
 * The script gatsby-plugin-offline appends to its service worker (gatsby-config.ts,
 * `appendScript`): the localized offline page (src/i18n/offline-page.ts). Written before the
 * build, since the plugin's onPostBuild reads it before ours runs.
 */
export const onPreBootstrap: GatsbyNode['onPreBootstrap'] = async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { offlineServiceWorkerScript } = await import('./src/i18n/offline-page');
  fs.mkdirSync(path.join(__dirname, '.cache'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, '.cache', 'muntly-offline-sw.js'), offlineServiceWorkerScript());
  await writeCurrencyIcons();
};

/**
 * robots.txt names the sitemap by its absolute URL, which depends on GATSBY_SITE_URL. The
 * offline page is written in every language (the service worker keeps them when it installs).
 */
export const onPostBuild: GatsbyNode['onPostBuild'] = async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { robotsTxt } = await import('./src/i18n/sitemap');
  const { siteUrl } = await import('./src/config');
  const file = path.join(__dirname, 'public', 'robots.txt');
  if (fs.existsSync(file)) fs.writeFileSync(file, robotsTxt(fs.readFileSync(file, 'utf8'), siteUrl));
  await writeCurrencyIcons();

  // Each page's shared scripts, prefetched with it so that it opens offline (app/page-chunks.ts).
  const { PAGE_CHUNKS_FILE, sharedPageChunks } = await import('./src/app/page-chunks');
  const stats = JSON.parse(fs.readFileSync(path.join(__dirname, 'public', 'webpack.stats.json'), 'utf8'));
  fs.writeFileSync(
    path.join(__dirname, 'public', PAGE_CHUNKS_FILE),
    JSON.stringify(sharedPageChunks(stats.namedChunkGroups)),
  );

  const { languages } = await import('./domain/languages');
  const { OFFLINE_DIR, offlinePageHtml } = await import('./src/i18n/offline-page');
  fs.mkdirSync(path.join(__dirname, 'public', OFFLINE_DIR), { recursive: true });
  for (const language of languages) {
    const common = JSON.parse(fs.readFileSync(path.join(__dirname, 'locales', language, 'common.json'), 'utf8'));
    const html = offlinePageHtml(language, { ...common.offline, home: common.notFound.home });
    fs.writeFileSync(path.join(__dirname, 'public', OFFLINE_DIR, `${language}.html`), html);
  }
};
