import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { nextVerification, verificationUnlocks, type VerificationUnlock } from '#domain/gates';
import { WEEKLY_VOLUME_DAYS } from '#domain/limits';
import { eur } from '#domain/money';
import { formatMoney, formatNumber } from '../i18n/format';
import { LocalizedLink, usePageLanguage } from './localized-link';
import type { IdentityKind } from '#domain/contracts/identity';
import type { VerificationKind } from '#domain/verification';

/** What the steps need of a kind: its phase, whether it was asked for, how step 2 reaches the user. */
export type KindState = Pick<IdentityKind, 'kind' | 'phase' | 'requestedAt' | 'channel'>;

/** The kinds in the order a customer needs them (domain/gates.ts `verificationUnlocks`), each with what it unlocks. */
export function inUnlockOrder<K extends { kind: VerificationKind }>(
  kinds: readonly K[],
): { view: K; unlock: VerificationUnlock }[] {
  return verificationUnlocks().flatMap((unlock) => {
    const view = kinds.find((k) => k.kind === unlock.kind);
    return view ? [{ view, unlock }] : [];
  });
}

/** What a verification unlocks, in the page's language, with the amounts of the rule itself. */
export function useUnlockText() {
  const { t } = useTranslation('identity');
  const language = usePageLanguage();
  return (unlock: VerificationUnlock) =>
    unlock.unlocks === 'weekly'
      ? t('unlocks.weekly', {
          amount: formatMoney(eur(unlock.aboveEurMinor), 'EUR', language),
          days: formatNumber(WEEKLY_VOLUME_DAYS, language),
        })
      : t(`unlocks.${unlock.unlocks}`);
}

/** Where a kind stands, as a short word (done, in progress, asked for, not started). */
export function useStateText() {
  const { t } = useTranslation('identity');
  return (view: KindState) => {
    if (view.phase === 'verified') return t('steps.state.verified');
    if (view.phase === 'step_2' && view.channel === 'document') return t('steps.state.checking');
    if (view.phase === 'step_1' || view.phase === 'step_2') return t('steps.state.started');
    return view.requestedAt ? t('steps.state.requested') : t('steps.state.not_started');
  };
}

/** What the user does next for a kind that is not verified: ask for it, wait, enter details, enter the code. */
export function useNextActionText() {
  const { t } = useTranslation('identity');
  return (view: KindState) => {
    if (view.phase === 'step_2') return t(view.channel === 'document' ? 'steps.action.checking' : 'steps.action.code');
    if (view.phase === 'step_1') return t('steps.action.details');
    return view.requestedAt ? t('steps.action.requested') : t('steps.action.request');
  };
}

/**
 * The verifications as steps (issue 35): in the order they matter, each with what it unlocks,
 * how long it takes and where it stands, and the next one marked with what to do.
 */
export function VerificationSteps({ kinds, headingId }: { kinds: readonly KindState[]; headingId: string }) {
  const { t } = useTranslation('identity');
  const unlockText = useUnlockText();
  const stateText = useStateText();
  const actionText = useNextActionText();
  const phases = Object.fromEntries(kinds.map((k) => [k.kind, k.phase]));
  const next = nextVerification(phases);
  return (
    <section aria-labelledby={headingId} className="verification-steps">
      <h2 id={headingId}>{t('steps.heading')}</h2>
      <p className="muted">{t('steps.order')}</p>
      <ol className="steps-list">
        {inUnlockOrder(kinds).map(({ view, unlock }) => (
          <li
            key={view.kind}
            className={`vstep vstep-${view.phase === 'verified' ? 'done' : view.kind === next ? 'next' : 'open'}`}
            data-kind={view.kind}
          >
            <div className="vstep-head">
              <h3>{t(`overview.kinds.${view.kind}.title`)}</h3>
              <span className={`vstep-state phase-${view.phase}`}>{stateText(view)}</span>
            </div>
            <p>{unlockText(unlock)}</p>
            <p className="muted small">{t(`duration.${view.channel}`)}</p>
            {view.kind === next ? (
              <p className="vstep-todo">
                <strong>{t('steps.next')}</strong> {actionText(view)}{' '}
                <LocalizedLink to="my_identity">{t('steps.go')}</LocalizedLink>
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      {next === null ? <p>{t('steps.allDone')}</p> : null}
    </section>
  );
}

/**
 * The next verification to take up, as one line atop my identity page (issue 35), linking to its
 * section below; nothing when a personal account needs no more.
 */
export function NextVerification({ kinds }: { kinds: readonly KindState[] }) {
  const { t } = useTranslation('identity');
  const actionText = useNextActionText();
  const next = nextVerification(Object.fromEntries(kinds.map((k) => [k.kind, k.phase])));
  const view = kinds.find((k) => k.kind === next);
  if (!view) return <p className="next-verification">{t('steps.allDone')}</p>;
  return (
    <p className="next-verification" data-testid="next-verification">
      <strong>{t('steps.next')}</strong> <a href={`#identity-${view.kind}`}>{t(`overview.kinds.${view.kind}.title`)}</a>{' '}
      – {actionText(view)}
    </p>
  );
}
