import type { Language } from './languages';

/** What gatsby-plugin-react-i18next puts in each page's context. */
export type I18nPageContext = {
  language: Language;
  i18n: { language: Language; originalPath: string; path: string; routed: boolean };
};

export type LocaleNode = { ns: string; data: string; language: string };
/** The result of every page query: the page's translation namespaces. */
export type LocalesData = { locales: { edges: { node: LocaleNode }[] } };
