/**
 * The interface languages. English is the default and has no URL prefix; every other
 * language lives under its code (/de/, /fr/, ...). This list is the single source for the
 * Gatsby config, the language switch, the server's 404 routing and the tests.
 */
export const languages = ['en', 'de', 'fr', 'nl', 'ru', 'uk'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** BCP 47 tags for Intl and Open Graph (og:locale wants language_TERRITORY). */
export const languageMeta: Record<
  Language,
  { intl: string; ogLocale: string; nativeName: string; flag?: string; badge?: string }
> = {
  // The spec shows flags for the first four languages only; Russian and Ukrainian show a short
  // name in their own script (never "UK", which reads as the United Kingdom under the British flag).
  en: { intl: 'en-GB', ogLocale: 'en_GB', nativeName: 'English', flag: 'gb' },
  de: { intl: 'de-DE', ogLocale: 'de_DE', nativeName: 'Deutsch', flag: 'de' },
  fr: { intl: 'fr-FR', ogLocale: 'fr_FR', nativeName: 'Français', flag: 'fr' },
  nl: { intl: 'nl-NL', ogLocale: 'nl_NL', nativeName: 'Nederlands', flag: 'nl' },
  ru: { intl: 'ru-RU', ogLocale: 'ru_RU', nativeName: 'Русский', badge: 'РУС' },
  uk: { intl: 'uk-UA', ogLocale: 'uk_UA', nativeName: 'Українська', badge: 'УКР' },
};

/** Splits a URL path into its language and the language-neutral rest ("/de/fees/" -> de, "/fees/"). */
export function splitLanguage(pathname: string): { language: Language; path: string } {
  const match = /^\/([a-z]{2})(\/.*|$)/.exec(pathname);
  if (match && isLanguage(match[1]) && match[1] !== defaultLanguage) {
    return { language: match[1], path: match[2] || '/' };
  }
  return { language: defaultLanguage, path: pathname || '/' };
}

/** The path of a language-neutral path in a given language ("/fees/", "uk" -> "/uk/fees/"). */
export function localizePath(path: string, language: Language): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return language === defaultLanguage ? clean : `/${language}${clean}`;
}
