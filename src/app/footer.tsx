import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { legalNav, footerNav, type RouteName } from '../i18n/routes';
import { LocalizedLink } from '../ui/localized-link';
import { SampleBadge, useOperatorDetails } from './operator';

function LinkList({ heading, names }: { heading: string; names: RouteName[] }) {
  const { t } = useTranslation('common');
  return (
    <div>
      <h2>{heading}</h2>
      <ul>
        {names.map((name) => (
          <li key={name}>
            <LocalizedLink to={name}>{t(`pages.${name}.nav`)}</LocalizedLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Who operates Muntly, on every page (the imprint has the full details). */
function OperatorLine() {
  const { t } = useTranslation('common');
  const operator = useOperatorDetails();
  return (
    <p className="container footer-operator">
      {t('operator.operatedBy', { name: operator.name, address: operator.address })}
      {operator.sample ? (
        <>
          {' '}
          <SampleBadge />
        </>
      ) : null}
    </p>
  );
}

export function Footer() {
  const { t } = useTranslation('common');
  return (
    <footer className="site-footer">
      <nav aria-label={t('a11y.footerNavigation')} className="container footer-columns">
        <LinkList heading={t('footer.legal')} names={legalNav} />
        <LinkList heading={t('footer.more')} names={footerNav} />
      </nav>
      <OperatorLine />
      <p className="container copyright">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
