import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { usePolled } from '../../../app/use-polled';
import { formatDate, formatIban } from '../../../i18n/format';
import { Field } from '../../../ui/field';
import { usePageLanguage } from '../../../ui/localized-link';
import { Facts, LoadFailed, Money, OutcomeLine, useAction, useKeptItems, useOps, When } from './parts';
import type { BankPayment, PayoutReturnsAwaitingResponse } from '#domain/contracts/bank';

/**
 * The unmatched queue: bank payments from statements whose reason named no order and no deposit.
 * The operator assigns one to the order or deposit it was meant for (the intake then takes it as
 * if the payer had written that reason), or sends it back to the payer's IBAN. Each is resolved
 * once, whoever acts first. A return of one of Muntly's payouts that fit none (marked with the
 * bank's reason) cannot be sent back: its IBAN is the account that refused the money. Below the
 * queue, the payouts the payee's bank sent back that wait for the customer's new IBAN.
 */
export function Unmatched() {
  const { t } = useTranslation('ops');
  const { api, refreshQueues } = useOps();
  const payments = usePolled(() => api.unmatched(), 'unmatched');
  const { shown, keep } = useKeptItems(payments.data?.payments, paymentKey);
  return (
    <>
      <p className="lead">{t('unmatched.lead')}</p>
      {payments.error && !payments.data ? <LoadFailed error={payments.error} retry={payments.reload} /> : null}
      {shown && shown.length === 0 ? <p>{t('unmatched.none')}</p> : null}
      <ul className="ops-list">
        {shown?.map((payment) => (
          <PaymentItem
            key={payment.id}
            payment={payment}
            onDone={() => {
              keep(payment);
              payments.reload();
              refreshQueues();
            }}
          />
        ))}
      </ul>
      <ReturnsAwaitingIban />
    </>
  );
}

/** Returned payouts whose customer has not yet given another IBAN (GET /api/ops/bank/returns). */
function ReturnsAwaitingIban() {
  const { t } = useTranslation('ops');
  const { api } = useOps();
  const language = usePageLanguage();
  const returns = usePolled(() => api.payoutReturns(), 'payout-returns');
  const list: PayoutReturnsAwaitingResponse['returns'] | undefined = returns.data?.returns;
  return (
    <section aria-labelledby="returns-heading">
      <h2 id="returns-heading">{t('unmatched.returns.heading')}</h2>
      {returns.error && !returns.data ? <LoadFailed error={returns.error} retry={returns.reload} /> : null}
      {list && list.length === 0 ? <p>{t('unmatched.returns.none')}</p> : null}
      <ul className="ops-list">
        {list?.map((item) => (
          <li key={item.id} className="ops-item">
            <p className="ops-item-head">
              <strong>
                <Money amount={item.amount} currency="EUR" />
              </strong>{' '}
              · <code>{item.orderReference}</code> · <When iso={item.returnedAt} />
            </p>
            <Facts
              items={[
                [
                  t('unmatched.why'),
                  <code key="reason">{[item.reason, item.reasonInfo].filter(Boolean).join(' ') || '—'}</code>,
                ],
                [
                  t('unmatched.payer'),
                  item.anonymous
                    ? `${t('unmatched.returns.anonymous')}${item.linkExpiresAt ? `, ${t('unmatched.returns.linkUntil', { date: formatDate(new Date(item.linkExpiresAt), language) })}` : ''}`
                    : t('unmatched.returns.account'),
                ],
              ]}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

const paymentKey = (payment: BankPayment) => payment.id;

function PaymentItem({ payment, onDone }: { payment: BankPayment; onDone: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useOps();
  const action = useAction();
  const [target, setTarget] = React.useState('');
  const [resolved, setResolved] = React.useState(false);
  const id = `assign-${payment.id}`;

  const assign = async (event: React.FormEvent) => {
    event.preventDefault();
    const done = await action.run(
      () => api.assignPayment(payment.id, target.trim()),
      ({ order }) =>
        t('unmatched.assigned', {
          reference: order.reference,
          status: t(`orderStatus.${order.status}` as 'orderStatus.new', { defaultValue: order.status }),
        }),
    );
    if (done) {
      setResolved(true);
      onDone();
    }
  };
  const refund = async () => {
    const done = await action.run(
      () => api.refundPayment(payment.id),
      ({ payout }) =>
        t(payout.status === 'awaiting_approval' ? 'unmatched.refundWaits' : 'unmatched.refunded', {
          iban: formatIban(payout.destination),
        }),
    );
    if (done) {
      setResolved(true);
      onDone();
    }
  };

  return (
    <li className="ops-item">
      <p className="ops-item-head">
        <strong>
          <Money amount={payment.amount} currency={payment.currency} />
        </strong>{' '}
        · <When iso={payment.bookingDate} dateOnly />
      </p>
      {payment.returned ? (
        <p className="notice" role="note">
          {t('unmatched.return', {
            reason: [payment.returned.reason, payment.returned.info].filter(Boolean).join(' ') || '—',
          })}
        </p>
      ) : null}
      <Facts
        items={[
          [t('unmatched.payer'), payment.payerName ?? t('unmatched.unknown')],
          [
            t('unmatched.iban'),
            payment.payerIban ? (
              <code className="wrap-anywhere">{formatIban(payment.payerIban)}</code>
            ) : (
              t('unmatched.unknown')
            ),
          ],
          [t('unmatched.reason'), <q key="reason">{payment.remittance}</q>],
          [
            t('unmatched.why'),
            t(`unmatched.whyCodes.${payment.unmatchedReason ?? 'no_reason'}` as 'unmatched.whyCodes.not_found', {
              defaultValue: payment.unmatchedReason ?? '',
            }),
          ],
          [t('unmatched.bankReference'), <code key="ref">{payment.entryRef}</code>],
          // Several open orders or accounts named: one click puts a candidate in the assign field.
          ...(payment.candidates.length > 0 && !resolved
            ? [
                [
                  t('unmatched.candidates'),
                  <span key="candidates" className="candidate-list">
                    {payment.candidates.map((candidate) => (
                      <button
                        key={candidate}
                        type="button"
                        className="button small"
                        onClick={() => setTarget(candidate)}
                      >
                        <code>{candidate}</code>
                      </button>
                    ))}
                  </span>,
                ] as [string, React.ReactNode],
              ]
            : []),
        ]}
      />
      {resolved ? null : (
        <div className="ops-decision">
          <form className="inline-form" onSubmit={(event) => void assign(event)}>
            <Field
              id={id}
              label={t('unmatched.assignTo')}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              placeholder="ABCD-EFGH"
              autoComplete="off"
              required
              maxLength={140}
            />
            <button type="submit" className="button primary" disabled={action.busy || !target.trim()}>
              {t('unmatched.assign')}
            </button>
          </form>
          <p className="small muted">{t('unmatched.assignHint')}</p>
          {payment.returned ? null : (
            <button
              type="button"
              className="button"
              disabled={action.busy || !payment.payerIban}
              onClick={() => void refund()}
            >
              {t('unmatched.refund')}
            </button>
          )}
        </div>
      )}
      <OutcomeLine outcome={action.outcome} />
    </li>
  );
}
