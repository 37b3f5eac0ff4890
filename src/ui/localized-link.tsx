import { Link } from 'gatsby';
// The context's own module: the plugin's index re-exports all of react-i18next through CommonJS,
// which keeps every export of it (Trans and its HTML parser among them) in the app's first load.
import { I18nextContext } from 'gatsby-plugin-react-i18next/dist/i18nextContext';
import * as React from 'react';
import { localizePath, isLanguage, defaultLanguage } from '#domain/languages';
import { routes, type RouteName } from '../i18n/routes';

/**
 * The current page language, as set by gatsby-plugin-react-i18next for this page. A plain
 * context read: every link calls it, and `useTranslation` would subscribe each one to i18next.
 */
export function usePageLanguage() {
  const { language } = React.useContext(I18nextContext);
  return isLanguage(language) ? language : defaultLanguage;
}

type Props = Omit<React.ComponentProps<'a'>, 'href' | 'ref'> & {
  to: RouteName;
  activeClassName?: string;
  partiallyActive?: boolean;
};

/** A link to a named page in the current language; Gatsby prefetches it when seen or hovered. */
export function LocalizedLink({ to, children, ...rest }: Props) {
  const language = usePageLanguage();
  return (
    <Link to={localizePath(routes[to], language)} {...rest}>
      {children}
    </Link>
  );
}
