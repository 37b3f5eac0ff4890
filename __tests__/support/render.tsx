import './polyfills';
import fs from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import { I18nextContext } from 'gatsby-plugin-react-i18next';
import i18next, { type Resource } from 'i18next';
import * as React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { languages, type Language } from '#domain/languages';

/** The real translations of a language, as the i18n plugin would load them for a page. */
export function loadResources(language: Language): Record<string, unknown> {
  const dir = path.join(__dirname, '../../locales', language);
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.replace(/\.json$/, ''), JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))]),
  );
}

/** The same providers gatsby-plugin-react-i18next sets up, around `ui`. */
function inLanguage(ui: React.ReactElement, language: Language, originalPath: string) {
  const i18n = i18next.createInstance();
  void i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: { [language]: loadResources(language) } as Resource,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initImmediate: false,
  });
  const context = {
    language,
    languages: [...languages],
    routed: language !== 'en',
    defaultLanguage: 'en',
    generateDefaultLanguagePage: false,
    originalPath,
    path: originalPath,
  };
  return (
    <I18nextProvider i18n={i18n}>
      <I18nextContext.Provider value={context}>{ui}</I18nextContext.Provider>
    </I18nextProvider>
  );
}

/** Renders a component inside the same providers gatsby-plugin-react-i18next sets up. */
export function renderInLanguage(ui: React.ReactElement, language: Language = 'en', originalPath = '/') {
  return render(inLanguage(ui, language, originalPath));
}

/** The HTML the build writes for a component (server rendering: no effects run), in a language. */
export function htmlInLanguage(ui: React.ReactElement, language: Language = 'en', originalPath = '/'): string {
  return renderToStaticMarkup(inLanguage(ui, language, originalPath));
}
