import { Link } from 'gatsby';
import { useI18next } from 'gatsby-plugin-react-i18next';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { languages, languageMeta, localizePath, splitLanguage } from '../../domain/languages';
import { usePageLanguage } from './localized-link';

/**
 * Links to the current page in every language: flags for English, German, French and Dutch
 * (as the spec shows them) and text for Russian and Ukrainian.
 *
 * After hydration the links follow the browser's path rather than the i18n plugin's
 * `originalPath`: on a not-found page that is "/404/", and switching would lose the visitor's
 * path (/uk/x must lead to /de/x, the German not-found page). The first render uses the page's
 * own path so that it matches the server-rendered markup.
 */
export function LanguageSwitch({ pathname }: { pathname: string }) {
  const { t } = useTranslation('common');
  const current = usePageLanguage();
  const { originalPath } = useI18next();
  const [path, setPath] = React.useState(originalPath);
  // Only a not-found page differs; elsewhere this sets the same value and React skips the render.
  React.useEffect(() => setPath(splitLanguage(pathname).path), [pathname]);

  return (
    <nav aria-label={t('a11y.languageSwitch')} className="language-switch">
      <ul>
        {languages.map((lng) => {
          const { flag, nativeName } = languageMeta[lng];
          return (
            <li key={lng}>
              <Link to={localizePath(path, lng)} hrefLang={lng} lang={lng} aria-current={lng === current ? 'true' : undefined} title={nativeName}>
                {flag ? <img src={`/flags/${flag}.svg`} alt={nativeName} width={24} height={16} /> : nativeName}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
