import { Link } from 'gatsby';
import { I18nextContext } from 'gatsby-plugin-react-i18next/dist/i18nextContext';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { languages, languageMeta, localizePath, splitLanguage } from '#domain/languages';
import { usePageLanguage } from './localized-link';

/**
 * The current language, and a disclosure with links to the current page in every language: each
 * named in its own language, with its flag for English, German, French and Dutch (as docs/decisions/0016 says, the product shows
 * them). A native <details>: it opens and closes before the page's code has loaded, and screen
 * readers announce it as an expandable button.
 *
 * After hydration the links follow the browser's path rather than the i18n plugin's
 * `originalPath`: on a not-found page that is "/404/", and switching would lose the visitor's
 * path (/uk/x must lead to /de/x, the German not-found page). The first render uses the page's
 * own path so that it matches the server-rendered markup.
 */
export function LanguageSwitch({ pathname }: { pathname: string }) {
  const { t } = useTranslation('common');
  const current = usePageLanguage();
  // The page's path without its language (the plugin's context; see localized-link.tsx for why not its index).
  const { originalPath } = React.useContext(I18nextContext);
  const [path, setPath] = React.useState(originalPath);
  const disclosure = React.useRef<HTMLDetailsElement>(null);
  // Only a not-found page differs; elsewhere this sets the same value and React skips the render.
  const shownPath = React.useRef(pathname);
  React.useEffect(() => {
    setPath(splitLanguage(pathname).path);
    // Another page starts with the list closed (but a list opened before the code loaded stays open).
    if (shownPath.current !== pathname && disclosure.current) disclosure.current.open = false;
    shownPath.current = pathname;
  }, [pathname]);
  // Closed by a click elsewhere or Escape, as a menu is.
  React.useEffect(() => {
    const close = (event: Event) => {
      const details = disclosure.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !details.contains(event.target as Node))
        details.open = false;
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, []);

  const flag = (lng: (typeof languages)[number]) => {
    const code = languageMeta[lng].flag;
    return code ? (
      <img src={`/flags/${code}.svg`} alt="" width={24} height={16} />
    ) : (
      // The code is drawn by CSS (::before), not written as text: it is a picture like the flags, and
      // text inside the button that its name lacks would break "label in name" (WCAG 2.5.3).
      <span className="language-code" data-code={languageMeta[lng].badge ?? lng.toUpperCase()} aria-hidden="true" />
    );
  };
  return (
    <details className="language-switch" ref={disclosure}>
      <summary aria-label={t('a11y.languageChoice', { language: languageMeta[current].nativeName })}>
        {flag(current)}
        <span className="language-name">{languageMeta[current].nativeName}</span>
      </summary>
      <nav aria-label={t('a11y.languageSwitch')}>
        <ul>
          {languages.map((lng) => (
            <li key={lng}>
              <Link
                to={localizePath(path, lng)}
                hrefLang={lng}
                lang={lng}
                aria-current={lng === current ? 'true' : undefined}
              >
                {flag(lng)}
                <span>{languageMeta[lng].nativeName}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
