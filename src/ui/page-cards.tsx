import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from './localized-link';
import type { RouteName } from '../i18n/routes';

/** An area's landing page: a card per page, its title linked, with a line on what it is for. */
export function PageCards({ cards }: { cards: readonly (readonly [RouteName, string])[] }) {
  const { t } = useTranslation('common');
  return (
    <ul className="cards">
      {cards.map(([name, text]) => (
        <li key={name}>
          <h2>
            <LocalizedLink to={name}>{t(`pages.${name}.title`)}</LocalizedLink>
          </h2>
          <p>{text}</p>
        </li>
      ))}
    </ul>
  );
}
