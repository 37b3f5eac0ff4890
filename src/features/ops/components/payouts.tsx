import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { usePolled } from '../../../app/use-polled';
import { TextAreaField } from '../../../ui/field';
import { Facts, LoadFailed, Money, Operator, OutcomeLine, useAction, useKeptItems, useOps, When } from './parts';
import type { Payout } from '#domain/contracts/payouts';

/**
 * Payouts waiting for four eyes: two different operators approve, neither the one who triggered
 * it. Each shows why it waits, who reviewed it first and what it waits for now; an operator who
 * reviewed or triggered it is told why they cannot approve it, before they try.
 */
export function Payouts() {
  const { t } = useTranslation('ops');
  const { api, refreshQueues } = useOps();
  const payouts = usePolled(() => api.payoutsAwaitingApproval(), 'payouts');
  const { shown, keep } = useKeptItems(payouts.data?.payouts, payoutKey);
  return (
    <>
      <p className="lead">{t('payouts.lead')}</p>
      {payouts.error && !payouts.data ? <LoadFailed error={payouts.error} retry={payouts.reload} /> : null}
      {shown && shown.length === 0 ? <p>{t('payouts.none')}</p> : null}
      <ul className="ops-list">
        {shown?.map((payout) => (
          <PayoutItem
            key={payout.id}
            payout={payout}
            onDone={() => {
              keep(payout);
              payouts.reload();
              refreshQueues();
            }}
          />
        ))}
      </ul>
    </>
  );
}

const payoutKey = (payout: Payout) => payout.id;

function PayoutItem({ payout, onDone }: { payout: Payout; onDone: () => void }) {
  const { t } = useTranslation('ops');
  const { api, operator } = useOps();
  const action = useAction();
  const [reason, setReason] = React.useState('');
  const [decided, setDecided] = React.useState(false);
  const approval = payout.approval;
  const triggeredByMe = payout.triggeredBy !== null && payout.triggeredBy === operator;
  const reviewedByMe = approval?.reviewedBy !== null && approval?.reviewedBy === operator;
  const id = `reject-${payout.id}`;
  // Local mode lets one admin mint a second operator (dev-token + grant-admin): who minted whom is
  // shown next to the approval, and a review by someone the viewer minted (or who minted the
  // viewer) is called what it is — one person's eyes twice.
  const issued = approval?.issued ?? [];
  const reviewer = approval?.reviewedBy ?? null;
  const oneOfUs =
    reviewer !== null &&
    !reviewedByMe &&
    issued.some(
      (row) => (row.operator === reviewer && row.by === operator) || (row.operator === operator && row.by === reviewer),
    );

  const approve = async () => {
    const done = await action.run(
      () => api.approvePayout(payout.id),
      ({ released }) => t(released ? 'payouts.released' : 'payouts.reviewed'),
    );
    if (done) {
      setDecided(done.released);
      onDone();
    }
  };
  const reject = async (event: React.FormEvent) => {
    event.preventDefault();
    const done = await action.run(
      () => api.rejectPayout(payout.id, reason.trim()),
      () => t('payouts.rejected'),
    );
    if (done) {
      setDecided(true);
      onDone();
    }
  };

  const waitsFor = triggeredByMe
    ? t('payouts.state.triggeredByYou')
    : reviewedByMe
      ? t('payouts.state.reviewedByYou')
      : approval?.reviewedBy
        ? t('payouts.state.reviewed')
        : t('payouts.state.waiting');

  return (
    <li className="ops-item" data-payout={payout.id}>
      <p className="ops-item-head">
        <strong>
          <Money amount={payout.amount} currency={payout.currency} />
        </strong>
        {payout.eurValue && payout.currency !== 'EUR' ? (
          <>
            {' '}
            (<Money amount={payout.eurValue} currency="EUR" />)
          </>
        ) : null}{' '}
        · {t(`payouts.purposes.${payout.purpose}`)}
      </p>
      <p className="ops-why">{approval ? t(`payouts.reasons.${approval.reason}`) : null}</p>
      <Facts
        items={[
          [
            t('payouts.to'),
            payout.destination ? <code className="wrap-anywhere">{payout.destination}</code> : t('payouts.toPayer'),
          ],
          [t('payouts.reference'), payout.reference],
          [t('payouts.requested'), <When key="at" iso={payout.createdAt} />],
          [t('payouts.triggeredBy'), payout.triggeredBy ? <Operator id={payout.triggeredBy} /> : t('payouts.customer')],
          [
            t('payouts.reviewedBy'),
            approval?.reviewedBy ? (
              <>
                <Operator id={approval.reviewedBy} /> · <When iso={approval.reviewedAt} />
              </>
            ) : (
              t('payouts.nobodyYet')
            ),
          ],
          [
            t('payouts.issued.label'),
            issued.length ? (
              <ul className="ops-issued">
                {issued.map((row, i) => (
                  <li key={i}>
                    <Operator id={row.operator} /> ·{' '}
                    {t(row.action === 'dev.token' ? 'payouts.issued.token' : 'payouts.issued.admin')}{' '}
                    <Operator id={row.by} /> · <When iso={row.at} />
                  </li>
                ))}
              </ul>
            ) : null,
          ],
        ]}
      />
      {oneOfUs && !decided ? (
        <p className="notice" role="note" data-one-person="">
          {t('payouts.issued.onePerson')}
        </p>
      ) : null}
      {decided ? null : (
        <>
          <p className="notice" role="note">
            {waitsFor}
          </p>
          <div className="ops-decision">
            <button
              type="button"
              className="button primary"
              disabled={action.busy || triggeredByMe || reviewedByMe}
              onClick={() => void approve()}
            >
              {approval?.reviewedBy ? t('payouts.approveSecond') : t('payouts.approveFirst')}
            </button>
            <form className="ops-reject" onSubmit={(event) => void reject(event)}>
              <TextAreaField
                id={id}
                label={t('payouts.rejectReason')}
                hint={t('payouts.rejectHint')}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                maxLength={500}
                rows={2}
              />
              <button type="submit" className="button" disabled={action.busy || triggeredByMe || !reason.trim()}>
                {t('payouts.reject')}
              </button>
            </form>
          </div>
        </>
      )}
      <OutcomeLine outcome={action.outcome} />
    </li>
  );
}
