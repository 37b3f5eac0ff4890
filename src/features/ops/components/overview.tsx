import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '#domain/languages';
import { opsRoutes, type OpsRouteName } from '../../../i18n/ops-routes';
import { useOps } from './parts';

/** The console's first page: what waits in each queue, and where the rest of the work is. */
export function Overview() {
  const { t } = useTranslation('ops');
  const { queues, language } = useOps();
  const cards: { name: OpsRouteName; count: number | null }[] = [
    { name: 'ops_verifications', count: queues ? queues.verificationRequests + queues.documents : null },
    { name: 'ops_unmatched', count: queues?.unmatchedPayments ?? null },
    { name: 'ops_payouts', count: queues?.payoutsAwaitingApproval ?? null },
    { name: 'ops_bank', count: null },
    { name: 'ops_orders', count: null },
    { name: 'ops_accounts', count: null },
    { name: 'ops_faucet', count: null },
    { name: 'ops_audit', count: null },
  ];
  return (
    <>
      <p className="lead">{t('overview.lead')}</p>
      {queues && queues.chainAlerts + queues.chainUnmatched > 0 ? (
        <p className="notice" role="alert">
          {t('overview.chain', { alerts: queues.chainAlerts, unmatched: queues.chainUnmatched })}
        </p>
      ) : null}
      <ul className="cards ops-cards">
        {cards.map(({ name, count }) => (
          <li key={name} className={count ? 'waiting' : undefined}>
            <h2>
              <Link to={localizePath(opsRoutes[name], language)}>{t(`pages.${name}.title`)}</Link>
            </h2>
            {count !== null ? <p className="ops-card-count">{t('overview.waiting', { count })}</p> : null}
            <p className="muted">{t(`overview.about.${name}` as 'overview.about.ops_bank')}</p>
            {name === 'ops_verifications' && queues ? (
              <p className="small">
                {t('overview.verificationsSplit', {
                  requests: queues.verificationRequests,
                  documents: queues.documents,
                })}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
