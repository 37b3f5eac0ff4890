import { I18nextContext } from 'gatsby-plugin-react-i18next/dist/i18nextContext';
import i18next, { type i18n as I18n, type InitOptions, type Resource } from 'i18next';
import * as React from 'react';
import { I18nextProvider } from 'react-i18next';
import type { I18NextContext, PluginOptions } from 'gatsby-plugin-react-i18next/dist/types';

/**
 * gatsby-plugin-react-i18next's wrapPageElement (its dist/plugin/wrapPageElement.js, version
 * 3.0.1), which the build uses in its place (gatsby-node.ts, onCreateWebpackConfig). It gives the
 * page the same i18next instance and context. The difference: the plugin creates a new i18next
 * instance, parses the page's translation JSON and initializes i18next on every render of the
 * page element, and Gatsby renders it twice while a page starts (hydration, then once its
 * resources are confirmed), about 10 ms each on a fast machine and several times that on a
 * phone, while the page cannot answer a tap. Here the instance is made once per page data object
 * (the loader keeps that object for as long as it keeps the page), so the second render, and a
 * return to a page opened before, reuse it.
 *
 * The plugin's language redirect (`redirect: true`) is not carried over: this site chooses the
 * language by URL only (gatsby-config.ts says why), so the build refuses that option.
 */

type LocaleNode = { ns: string; data: string | Resource; language: string };
type PageProps = {
  data?: Record<string, { edges?: { node: LocaleNode }[] } | undefined>;
  pageContext: {
    i18n: Pick<I18NextContext, 'routed' | 'language' | 'languages' | 'originalPath' | 'defaultLanguage' | 'path'>;
  };
};
type Wrapped = { i18n: I18n; context: I18NextContext };

const byPageData = new WeakMap<object, Wrapped>();

function wrapped(props: PageProps, options: PluginOptions): Wrapped {
  const { i18nextOptions = {}, generateDefaultLanguagePage = false, siteUrl, localeJsonNodeName = 'locales' } = options;
  const { routed, language, languages, originalPath, defaultLanguage, path } = props.pageContext.i18n;
  const localeNodes = props.data?.[localeJsonNodeName]?.edges ?? [];
  const namespaces = localeNodes.map(({ node }) => node.ns);

  // As in the plugin: the page's first namespace other than the configured default is the
  // default, the others are fallbacks, so a page's texts need no namespace prefix.
  const configuredDefault = i18nextOptions.defaultNS?.toString() || 'translation';
  const defaultNS = namespaces.find((ns) => ns !== configuredDefault) || configuredDefault;
  const resources: Resource = {};
  for (const { node } of localeNodes) {
    const bundles = (resources[node.language] ??= {});
    bundles[node.ns || defaultNS] = typeof node.data === 'object' ? node.data : JSON.parse(node.data);
  }

  const i18n = i18next.createInstance();
  const init: InitOptions = {
    ...i18nextOptions,
    resources,
    lng: language,
    fallbackLng: defaultLanguage,
    defaultNS,
    fallbackNS: namespaces.filter((ns) => ns !== defaultNS),
    react: { ...i18nextOptions.react, useSuspense: false },
  };
  // With resources given, init and the language change finish before they return.
  void i18n.init(init);
  if (i18n.language !== language) void i18n.changeLanguage(language);
  return {
    i18n,
    context: { routed, language, languages, originalPath, defaultLanguage, generateDefaultLanguagePage, siteUrl, path },
  };
}

export function wrapPageElement(
  { element, props }: { element: React.ReactElement; props?: PageProps },
  options: PluginOptions,
) {
  if (!props) return undefined;
  if (options.redirect !== false)
    throw new Error(
      'gatsby-plugin-react-i18next: set `redirect: false`; src/i18n/wrap-page-element.tsx does not redirect by browser language.',
    );
  const key = props.data;
  let value = key ? byPageData.get(key) : undefined;
  if (
    !value ||
    value.context.path !== props.pageContext.i18n.path ||
    value.context.language !== props.pageContext.i18n.language
  ) {
    value = wrapped(props, options);
    if (key) byPageData.set(key, value);
  }
  return (
    <I18nextProvider i18n={value.i18n}>
      <I18nextContext.Provider value={value.context}>{element}</I18nextContext.Provider>
    </I18nextProvider>
  );
}
