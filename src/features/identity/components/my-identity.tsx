import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { STEP_TWO_CODE_VALIDITY, VERIFICATION_TRANSFER_EUR } from '#domain/code-validity';
import { CODE_LENGTH } from '#domain/codes';
import { IDENTITY_MAILBOX } from '#domain/contact';
import { ChunkBoundary } from '../../../app/chunk-boundary';
import { errorKeyOf, useErrorText } from '../../../app/error-text';
import { useSession } from '../../../app/session';
import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatIban,
  formatMoney,
  formatNumber,
} from '../../../i18n/format';
import { LocalizedLink, usePageLanguage } from '../../../ui/localized-link';
import { inUnlockOrder, NextVerification, useUnlockText } from '../../../ui/verification-steps';
import {
  getIdentity,
  submitStepOne,
  confirmCode,
  requestVerification,
  textFields,
  type IdentityKind,
} from '../api/identity';
import { CodeForm } from './code-form';
import { STEP_ONE_FIELDS } from './step-one-fields';
import type { Language } from '#domain/languages';

/**
 * The step 1 form carries the phone-number and IBAN rules (~60 KB gzipped): the browser
 * downloads its chunk in idle time (webpack's prefetch link) and it runs when a form is on screen.
 */
const loadStepOneForm = () => import(/* webpackPrefetch: true */ './step-one-form');
const LazyStepOneForm = React.lazy(() => loadStepOneForm().then((m) => ({ default: m.StepOneForm })));

function StepOneForm(props: React.ComponentProps<typeof LazyStepOneForm>) {
  const errorText = useErrorText();
  return (
    <ChunkBoundary fallback={<p role="alert">{errorText('try_again_soon')}</p>}>
      <React.Suspense fallback={<p className="muted">…</p>}>
        <LazyStepOneForm {...props} />
      </React.Suspense>
    </ChunkBoundary>
  );
}

/**
 * my_identity: the user's own data and the phase of each verification kind, with the forms of
 * step 1 (details) and step 2 (the code), and how the code arrives. The kinds stand in the order
 * a customer needs them, each saying what it unlocks and how long it takes (issue 35), after the
 * next one to take up.
 */
export function MyIdentity() {
  const { t } = useTranslation('identity');
  const errorText = useErrorText();
  const language = usePageLanguage();
  const { getAccessTokenSilently } = useSession();
  const [kinds, setKinds] = React.useState<IdentityKind[] | null>(null);
  const [failed, setFailed] = React.useState(false);
  const token = React.useCallback(async () => String(await getAccessTokenSilently()), [getAccessTokenSilently]);

  React.useEffect(() => {
    token()
      .then((value) => getIdentity(value, language))
      .then(setKinds, () => setFailed(true));
  }, [token, language]);

  if (failed) return <p role="alert">{errorText('generic')}</p>;
  if (!kinds) return <p className="muted">…</p>;
  return (
    <div className="identity-kinds">
      <p className="muted">{t('steps.order')}</p>
      <NextVerification kinds={kinds} />
      {inUnlockOrder(kinds).map(({ view }, index) => (
        <KindSection
          key={view.kind}
          position={index + 1}
          view={view}
          onSubmit={async (data) => setKinds(await submitStepOne(await token(), language, view.kind, data))}
          onRequest={async () => setKinds(await requestVerification(await token(), language, view.kind))}
          onConfirm={async (code) => {
            const value = await token();
            try {
              setKinds(await confirmCode(value, language, view.kind, code));
            } catch (error) {
              // A wrong code used an attempt: show how many are left, and the error next to the code.
              void getIdentity(value, language).then(setKinds, () => undefined);
              throw error;
            }
          }}
        />
      ))}
    </div>
  );
}

export function KindSection({
  view,
  position,
  onSubmit,
  onConfirm,
  onRequest,
}: {
  view: IdentityKind;
  /** Its place in the order a customer needs the kinds (1: first). */
  position?: number;
  onSubmit: (data: Record<string, unknown>) => Promise<void>;
  onConfirm: (code: string) => Promise<void>;
  onRequest?: () => Promise<void>;
}) {
  const { t } = useTranslation('identity');
  const language = usePageLanguage();
  const unlockText = useUnlockText();
  const unlock = inUnlockOrder([view])[0]?.unlock;
  const title = t(`overview.kinds.${view.kind}.title`);
  const headingId = `identity-${view.kind}`;
  const date = (iso: string | null) => (iso ? formatDate(new Date(iso), language) : '');
  const data = textFields(view.data);
  // The ID has no code: its second step is the document the user emails and the operator checks.
  const byDocument = view.phase === 'step_2' && view.channel === 'document';
  return (
    <section aria-labelledby={headingId} className="identity-kind" data-kind={view.kind} data-phase={view.phase}>
      <h2 id={headingId}>
        {position ? (
          <span className="kind-position" aria-hidden="true">
            {formatNumber(position, language)}
          </span>
        ) : null}
        {title}
      </h2>
      <p className={`phase phase-${view.phase}`}>
        {t('me.status', { phase: byDocument ? t('me.phases.step_2_document') : t(`me.phases.${view.phase}`) })}
      </p>
      {unlock ? (
        <p className="kind-unlocks">
          {unlockText(unlock)} <span className="muted">{t(`duration.${view.channel}`)}</span>
        </p>
      ) : null}
      {view.kind === 'id' && view.phase === 'step_1' ? <DocumentSafety /> : null}

      {view.phase === 'not_enabled' ? <RequestKind view={view} onRequest={onRequest} /> : null}

      {view.phase === 'step_1' && view.rejection ? (
        <p className="notice" role="status">
          {t('me.rejected', {
            date: date(view.rejection.at),
            reason: t(`me.rejectionReasons.${view.rejection.reason}`),
          })}
        </p>
      ) : null}
      {view.phase === 'step_1' ? (
        <StepOneForm
          kind={view.kind}
          initial={view.rejection ? data : undefined}
          submitLabel={t('me.submit')}
          onSubmit={onSubmit}
        />
      ) : null}

      {view.phase === 'step_2' ? (
        <>
          <p>{t(`me.howCodeArrives.${view.channel}`, codeFacts(view.channel, language))}</p>
          {view.channel === 'document' ? (
            <>
              <IdentityMailbox />
              <DocumentSafety />
              <p className="muted">{t('me.waitingForCheck')}</p>
            </>
          ) : (
            <>
              <CodeForm kind={view.kind} onConfirm={onConfirm} />
              {view.attemptsLeft !== null ? (
                <p className="muted">{t('me.attemptsLeft', { count: view.attemptsLeft })}</p>
              ) : null}
            </>
          )}
          <details>
            <summary>{byDocument ? t('me.resubmitDocument') : t('me.resubmit')}</summary>
            {view.nextCodeAt && Date.parse(view.nextCodeAt) > Date.now() ? (
              <p className="muted">
                {t(byDocument ? 'me.nextSubmitAt' : 'me.nextCodeAt', {
                  time: formatDateTime(new Date(view.nextCodeAt), language),
                })}
              </p>
            ) : null}
            <StepOneForm
              kind={view.kind}
              initial={data}
              submitLabel={byDocument ? t('me.resubmitDocument') : t('me.resubmit')}
              onSubmit={onSubmit}
            />
          </details>
        </>
      ) : null}

      {view.phase === 'verified' ? <p>{t('me.verifiedOn', { date: date(view.verifiedAt) })}</p> : null}
      {view.dataDeletedAt && !view.data ? (
        <p className="muted">{t('me.dataDeleted', { date: date(view.dataDeletedAt) })}</p>
      ) : null}

      {view.data && view.phase !== 'step_1' ? (
        <>
          <h3>{t('me.yourData')}</h3>
          <dl className="identity-data">
            {STEP_ONE_FIELDS[view.kind]
              .filter(({ name }) => data[name])
              .map(({ name }) => (
                <React.Fragment key={name}>
                  <dt>{t(`fields.${name}`)}</dt>
                  <dd>
                    {name === 'salutation'
                      ? t(`fields.salutations.${data[name] as 'mr'}`)
                      : name === 'iban'
                        ? formatIban(data[name]!) // grouped by four, as on every page (domain/format.ts)
                        : data[name]}
                  </dd>
                </React.Fragment>
              ))}
          </dl>
          {view.retainUntil ? <p className="muted">{t('me.retention', { date: date(view.retainUntil) })}</p> : null}
        </>
      ) : null}
    </section>
  );
}

/**
 * Where the copy of the ID goes (issue 35): shown only here, to the logged-in user whose details
 * are in, and in emails under their anti-phishing phrase — never on a public page, so that no
 * one can send a stranger there with a look-alike address.
 */
/** The numbers the step 2 sentence says, from the rules the server applies, in the page's language. */
function codeFacts(channel: IdentityKind['channel'], language: Language): Record<string, string> {
  const validity = channel !== 'document' ? STEP_TWO_CODE_VALIDITY[channel] : undefined;
  return {
    letters: formatNumber(CODE_LENGTH, language),
    amount: formatMoney(VERIFICATION_TRANSFER_EUR, 'EUR', language),
    ...(validity ? { validity: formatDuration(validity.count, validity.unit, language) } : {}),
  };
}

function IdentityMailbox() {
  const { t } = useTranslation('identity');
  return (
    <p className="identity-mailbox" data-testid="identity-mailbox">
      {t('document.mailbox')} <a href={`mailto:${IDENTITY_MAILBOX}`}>{IDENTITY_MAILBOX}</a>
    </p>
  );
}

/**
 * Why sending the copy is safe, and how to send less (issue 35, after the EU's guidance on copies
 * of identity documents): Muntly never asks for it by email first; everything not needed for the
 * identification may be blacked out; the copy is marked as one; the receipt comes by email under
 * the anti-phishing phrase.
 */
function DocumentSafety() {
  const { t } = useTranslation('identity');
  return (
    <div className="document-safety" role="note">
      <h3>{t('document.safetyHeading')}</h3>
      <ul>
        <li>{t('document.neverFirst')}</li>
        <li>{t('document.blackOut')}</li>
        <li>{t('document.markCopy')}</li>
        <li>
          {t('document.receipt')} <LocalizedLink to="wallet_security">{t('document.phraseLink')}</LocalizedLink>
        </li>
      </ul>
    </div>
  );
}

/** A kind not enabled yet: one click asks Muntly to enable it; then when it was asked and what happens next. */
function RequestKind({ view, onRequest }: { view: IdentityKind; onRequest?: () => Promise<void> }) {
  const { t } = useTranslation('identity');
  const language = usePageLanguage();
  const errorText = useErrorText();
  const [busy, setBusy] = React.useState(false);
  const [error, setError] = React.useState<unknown>(null);
  if (view.requestedAt)
    return <p role="status">{t('me.requested', { date: formatDate(new Date(view.requestedAt), language) })}</p>;
  const request = async () => {
    setBusy(true);
    setError(null);
    try {
      await onRequest?.();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>{t('me.notEnabledRequest')}</p>
      <p>
        <button type="button" className="button" disabled={busy} onClick={() => void request()}>
          {busy ? t('me.requesting') : t('me.request')}
        </button>
      </p>
      {error ? <p role="alert">{errorText(errorKeyOf(error))}</p> : null}
    </>
  );
}
