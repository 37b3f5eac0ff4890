import * as React from 'react';
import { useTranslation } from 'react-i18next';
import {
  VERIFICATION_REJECTION_REASONS,
  type VerificationKind,
  type VerificationRejectionReason,
} from '#domain/verification';
import { usePolled } from '../../../app/use-polled';
import { SelectField } from '../../../ui/field';
import { LoadFailed, OutcomeLine, useAction, useKeptItems, useOps, When } from './parts';
import type { VerificationDocumentsResponse } from '#domain/contracts/console';
import type { IdentityKind } from '#domain/contracts/identity';
import type { VerificationRequestsResponse } from '#domain/contracts/ops';

type Request = VerificationRequestsResponse['requests'][number];
type Document = VerificationDocumentsResponse['documents'][number];

/**
 * The verification queue: kinds customers asked for with one click (enable them), and details
 * whose document waits for a check by hand (verify, or send back with a reason the customer reads
 * in their language). A customer's submitted details are shown on request only: every read is in
 * the audit trail.
 */
export function Verifications() {
  const { t } = useTranslation('ops');
  const { api, refreshQueues } = useOps();
  const requests = usePolled(() => api.verificationRequests(), 'requests');
  const documents = usePolled(() => api.verificationDocuments(), 'documents');
  const keptRequests = useKeptItems(requests.data?.requests, itemKey);
  const keptDocuments = useKeptItems(documents.data?.documents, itemKey);
  const changed = () => {
    requests.reload();
    documents.reload();
    refreshQueues();
  };
  return (
    <>
      <section aria-labelledby="ops-requests">
        <h2 id="ops-requests">{t('verifications.requests.title')}</h2>
        <p className="muted">{t('verifications.requests.lead')}</p>
        {requests.error && !requests.data ? <LoadFailed error={requests.error} retry={requests.reload} /> : null}
        {keptRequests.shown && keptRequests.shown.length === 0 ? <p>{t('verifications.requests.none')}</p> : null}
        <ul className="ops-list">
          {keptRequests.shown?.map((request) => (
            <RequestItem
              key={itemKey(request)}
              request={request}
              onDone={() => {
                keptRequests.keep(request);
                changed();
              }}
            />
          ))}
        </ul>
      </section>
      <section aria-labelledby="ops-documents">
        <h2 id="ops-documents">{t('verifications.documents.title')}</h2>
        <p className="muted">{t('verifications.documents.lead')}</p>
        {documents.error && !documents.data ? <LoadFailed error={documents.error} retry={documents.reload} /> : null}
        {keptDocuments.shown && keptDocuments.shown.length === 0 ? <p>{t('verifications.documents.none')}</p> : null}
        <ul className="ops-list">
          {keptDocuments.shown?.map((document) => (
            <DocumentItem
              key={itemKey(document)}
              document={document}
              onDone={() => {
                keptDocuments.keep(document);
                changed();
              }}
            />
          ))}
        </ul>
      </section>
    </>
  );
}

const itemKey = (item: { accountKey: string; kind: string }) => `${item.accountKey}:${item.kind}`;

function Customer({ email, accountKey }: { email: string | null; accountKey: string }) {
  const { t } = useTranslation('ops');
  return (
    <>
      <span className="wrap-anywhere">{email ?? t('common.noEmail')}</span> · <code>{accountKey}</code>
    </>
  );
}

function RequestItem({ request, onDone }: { request: Request; onDone: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useOps();
  const action = useAction();
  const [enabled, setEnabled] = React.useState(false);
  const kind = t(`kinds.${request.kind}`);
  const enable = async () => {
    if (!request.email) return;
    const done = await action.run(
      () => api.enableVerification(request.email!, request.kind),
      () => t('verifications.requests.enabled', { kind }),
    );
    if (done) {
      setEnabled(true);
      onDone();
    }
  };
  return (
    <li className="ops-item">
      <p className="ops-item-head">
        <strong>{kind}</strong> · <Customer email={request.email} accountKey={request.accountKey} />
      </p>
      <p className="small muted">
        {t('verifications.requests.asked')} <When iso={request.requestedAt} />
      </p>
      {enabled ? null : (
        <div className="actions">
          <button
            type="button"
            className="button primary"
            disabled={action.busy || !request.email}
            onClick={() => void enable()}
          >
            {t('verifications.requests.enable', { kind })}
          </button>
        </div>
      )}
      <OutcomeLine outcome={action.outcome} />
    </li>
  );
}

function DocumentItem({ document, onDone }: { document: Document; onDone: () => void }) {
  const { t } = useTranslation('ops');
  const { t: ti } = useTranslation('identity');
  const { api } = useOps();
  const action = useAction();
  const details = useAction();
  const [data, setData] = React.useState<IdentityKind['data'] | undefined>(undefined);
  const [reason, setReason] = React.useState<VerificationRejectionReason>('unreadable');
  const [decided, setDecided] = React.useState(false);
  const kind = t(`kinds.${document.kind}`);
  const email = document.email;
  const id = `reject-${document.accountKey}-${document.kind}`;

  const show = async () => {
    if (!email) return;
    const answer = await details.run(
      () => api.identity(email),
      () => t('verifications.documents.detailsRead'),
    );
    if (answer) setData(answer.kinds.find((k) => k.kind === document.kind)?.data ?? null);
  };
  const decide = async (what: 'verify' | 'reject') => {
    if (!email) return;
    const done =
      what === 'verify'
        ? await action.run(
            () => api.verify(email, document.kind as VerificationKind),
            () => t('verifications.documents.verified', { kind }),
          )
        : await action.run(
            () => api.rejectVerification(email, document.kind as VerificationKind, reason),
            () => t('verifications.documents.rejected', { kind }),
          );
    if (done) {
      setDecided(true);
      onDone();
    }
  };

  return (
    <li className="ops-item">
      <p className="ops-item-head">
        <strong>{kind}</strong> · <Customer email={email} accountKey={document.accountKey} />
      </p>
      <p className="small muted">
        {t('verifications.documents.submitted')} <When iso={document.submittedAt} />
      </p>
      {data === undefined ? (
        <button type="button" className="button small" disabled={details.busy || !email} onClick={() => void show()}>
          {t('verifications.documents.showDetails')}
        </button>
      ) : (
        <SubmittedData data={data} />
      )}
      <OutcomeLine outcome={details.outcome?.kind === 'failed' ? details.outcome : null} />
      <div className="ops-decision" hidden={decided}>
        <button type="button" className="button primary" disabled={action.busy} onClick={() => void decide('verify')}>
          {t('verifications.documents.verify')}
        </button>
        <div className="ops-reject">
          <SelectField
            id={id}
            label={t('verifications.documents.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value as VerificationRejectionReason)}
          >
            {VERIFICATION_REJECTION_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`verifications.reasons.${r}`)}
              </option>
            ))}
          </SelectField>
          <p className="small">
            {t('verifications.documents.customerReads')} <q>{ti(`me.rejectionReasons.${reason}`)}</q>
          </p>
          <button type="button" className="button" disabled={action.busy} onClick={() => void decide('reject')}>
            {t('verifications.documents.reject')}
          </button>
        </div>
      </div>
      <OutcomeLine outcome={action.outcome} />
    </li>
  );
}

/** What the customer entered in step 1: each field under its label, as their own identity page shows it. */
function SubmittedData({ data }: { data: IdentityKind['data'] }) {
  const { t } = useTranslation('ops');
  const { t: ti } = useTranslation('identity');
  const entries = Object.entries(data ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
  );
  if (entries.length === 0) return <p className="muted">{t('verifications.documents.noData')}</p>;
  return (
    <dl className="identity-data ops-facts">
      {entries.map(([name, value]) => (
        <React.Fragment key={name}>
          <dt>{ti(`fields.${name}` as 'fields.firstName', { defaultValue: name })}</dt>
          <dd>
            {name === 'salutation'
              ? ti(`fields.salutations.${value}` as 'fields.salutations.mr', { defaultValue: value })
              : value}
          </dd>
        </React.Fragment>
      ))}
    </dl>
  );
}
