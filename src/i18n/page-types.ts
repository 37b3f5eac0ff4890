import type { Language } from '#domain/languages';
import type { ProductFigures } from './figures';

/** What gatsby-plugin-react-i18next puts in each page's context, and gatsby-node's figures (some pages). */
export type I18nPageContext = {
  language: Language;
  i18n: { language: Language; originalPath: string; path: string; routed: boolean };
  figures?: ProductFigures;
};

export type LocaleNode = { ns: string; data: string; language: string };
/** The result of every page query: the page's translation namespaces. */
export type LocalesData = { locales: { edges: { node: LocaleNode }[] } };
