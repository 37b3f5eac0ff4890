import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../../../ui/localized-link';
import type { RouteName } from '../../../i18n/routes';

/** "See also": links to the pages that help next, with their localized titles. */
export function RelatedPages({ names }: { names: readonly RouteName[] }) {
  const { t } = useTranslation('common');
  const { t: ti } = useTranslation('info');
  return (
    <nav aria-labelledby="related-heading" className="related-pages">
      <h2 id="related-heading">{ti('related')}</h2>
      <ul>
        {names.map((name) => (
          <li key={name}>
            <LocalizedLink to={name}>{t(`pages.${name}.title`)}</LocalizedLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
