import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { SAMPLE_OPERATOR_CONTACT, type Operator, type OperatorIdentity } from '#domain/operator';
import { asTransition } from '../ui/transition';
import { askOnce } from './ask-once';

/**
 * Who operates Muntly (footer, imprint, terms, privacy policy). The server's configuration is
 * the truth, read when the page runs (GET /api/operator), so one build serves any operator. The
 * prerendered HTML holds what the build was given from the same OPERATOR_* variables
 * (gatsby-node.ts defines MUNTLY_OPERATOR), or the sample when it was given none; the sample is
 * always shown marked as such.
 */
function builtOperator(): Operator {
  const built = process.env.MUNTLY_OPERATOR;
  return built ? (JSON.parse(built) as Operator) : { sample: true };
}

let known: Operator | undefined;
const operatorConfig = askOnce<Operator>('/api/operator');
async function askServer(): Promise<Operator | undefined> {
  known = (await operatorConfig()) ?? known;
  return known;
}

/** The operator: what the build knew until the server has answered (and after, on every later page). */
export function useOperator(): Operator {
  // The first render matches the prerendered HTML; a later page starts from the server's answer.
  const [operator, setOperator] = React.useState<Operator>(() => known ?? builtOperator());
  React.useEffect(() => {
    let current = true;
    const update = asTransition(setOperator);
    void askServer().then((answer) => {
      if (current && answer) update(answer);
    });
    return () => {
      current = false;
    };
  }, []);
  return operator;
}

export type OperatorDetails = OperatorIdentity & { sample: boolean };

/** The operator's details to show, the sample's in the page's language. */
export function useOperatorDetails(): OperatorDetails {
  const operator = useOperator();
  const { t } = useTranslation('common');
  if (!operator.sample) return operator;
  return {
    sample: true,
    address: t('operator.sample.address'),
    representatives: t('operator.sample.representatives'),
    registration: t('operator.sample.registration'),
    supervisor: t('operator.sample.supervisor'),
    casp: t('operator.sample.casp'),
    ...SAMPLE_OPERATOR_CONTACT,
  };
}

/** The "Sample data — local mode" mark beside sample values. */
export function SampleBadge() {
  const { t } = useTranslation('common');
  return <strong className="sample-badge">{t('operator.sampleBadge')}</strong>;
}

/**
 * Who the customer deals with, where money is at stake (home page, order pages): the operator's
 * legal name (the name payments go to), its register entry and its licence or registration as a
 * crypto-asset service provider (MiCA), from the server's configuration; the sample, marked, in
 * local mode. A field the operator did not configure is left out.
 */
export function OperatorLicence({ className }: { className?: string }) {
  const { t } = useTranslation('common');
  const operator = useOperatorDetails();
  return (
    <aside
      className={['operator-licence', className].filter(Boolean).join(' ')}
      aria-label={t('operator.who')}
      data-testid="operator-licence"
    >
      <p className="small muted">{t('operator.who')}</p>
      <p>
        <strong>{operator.name}</strong>
        {operator.sample ? (
          <>
            {' '}
            <SampleBadge />
          </>
        ) : null}
      </p>
      {operator.registration ? (
        <p className="small">{t('operator.registered', { value: operator.registration })}</p>
      ) : null}
      {operator.casp ? <p className="small">{t('operator.licence', { value: operator.casp })}</p> : null}
    </aside>
  );
}
