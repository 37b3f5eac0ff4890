import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { displayName, useSession } from '../../../app/session';
import { formatMoney } from '../../../i18n/format';
import { usePageLanguage } from '../../../ui/localized-link';
import { useMe } from '../api/get-me';

/** Who is logged in, and their account key, deposit reference and deposit limit, as labelled tiles (issue 35). */
export function AccountSummary() {
  const { t } = useTranslation('auth');
  const language = usePageLanguage();
  const session = useSession();
  const { me, error } = useMe();
  return (
    <section aria-labelledby="account-heading" className="account-summary">
      <h2 id="account-heading">{t('account.heading')}</h2>
      <p>{t('session.loggedInAs', { name: session.status === 'signed-in' ? displayName(session.user) : '' })}</p>
      {error ? <p role="alert">{t('account.loadError')}</p> : null}
      {me ? (
        <dl className="account-tiles">
          <div>
            <dt>{t('account.accountKey')}</dt>
            <dd>
              <code>{me.accountKey}</code>
            </dd>
          </div>
          <div>
            <dt>{t('account.depositReference')}</dt>
            <dd>
              <code>{me.depositReference}</code>
            </dd>
          </div>
          <div>
            <dt>{t('account.depositLimit')}</dt>
            <dd>{formatMoney(me.depositLimitEur, 'EUR', language)}</dd>
          </div>
        </dl>
      ) : !error ? (
        <p className="muted">{t('session.checking')}</p>
      ) : null}
    </section>
  );
}
