import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORT_MAILBOX } from '#domain/contact';
import { SampleBadge, useOperatorDetails, type OperatorDetails } from '../../../app/operator';
import type { OperatorIdentity } from '#domain/operator';

/** The imprint's rows, in the order § 5 DDG lists them; a row the operator did not configure is left out. */
const ROWS: (keyof OperatorIdentity)[] = [
  'name',
  'address',
  'representatives',
  'email',
  'phone',
  'registration',
  'vatId',
  'supervisor',
  'casp',
];

function Value({ field, operator }: { field: keyof OperatorIdentity; operator: OperatorDetails }) {
  const value = operator[field];
  if (field === 'email') return <a href={`mailto:${value}`}>{value}</a>;
  if (field === 'phone') return <a href={`tel:${value?.replace(/[^\d+]/g, '')}`}>{value}</a>;
  return <>{value}</>;
}

/** The imprint (Impressum): who operates Muntly, from the server's configuration, or the marked sample. */
export function Imprint() {
  const { t } = useTranslation('legal');
  const operator = useOperatorDetails();
  return (
    <>
      <p className="lead">{t('imprint.lead')}</p>
      {operator.sample ? (
        <div className="sample-notice" role="note">
          <SampleBadge />
          <p>{t('imprint.sampleNotice')}</p>
        </div>
      ) : null}
      <dl className="identity-data imprint-data">
        {ROWS.filter((field) => operator[field]).map((field) => (
          <React.Fragment key={field}>
            <dt>{t(`imprint.labels.${field}`)}</dt>
            <dd>
              <Value field={field} operator={operator} />
            </dd>
          </React.Fragment>
        ))}
      </dl>
      <p>{t('imprint.support', { supportMailbox: SUPPORT_MAILBOX })}</p>
    </>
  );
}
