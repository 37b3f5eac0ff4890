import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../i18n/format';
import { LocalizedLink } from '../../../ui/localized-link';
import { useBankVerification, useWalletApi } from './use-wallet-api';
import type { RouteName } from '../../../i18n/routes';
import type { SecurityOverview } from '../api/wallet';

export type PathStep = { key: 'bank' | 'book' | 'hold' | 'code'; state: 'done' | 'todo' | 'waiting'; until?: Date };

/**
 * The path every send to an outside address walks (issue 35), in order: a verified bank account
 * (the wallet's gate), the address in the address book, its hold run out, then the code emailed
 * for the send itself. Null once an address is usable: the path is walked, the form is enough.
 */
export function sendPath(
  bankVerified: boolean | null,
  overview: SecurityOverview,
  now = Date.now(),
): PathStep[] | null {
  const usable = overview.addressBook.some((entry) => Date.parse(entry.usableFrom) <= now);
  if (bankVerified && usable) return null;
  const entries = overview.addressBook.map((entry) => Date.parse(entry.usableFrom));
  const firstUsable = entries.length ? new Date(Math.min(...entries)) : null;
  return [
    { key: 'bank', state: bankVerified ? 'done' : 'todo' },
    { key: 'book', state: entries.length ? 'done' : 'todo' },
    usable
      ? { key: 'hold', state: 'done' }
      : firstUsable
        ? { key: 'hold', state: 'waiting', until: firstUsable }
        : { key: 'hold', state: 'todo' },
    { key: 'code', state: 'todo' },
  ];
}

export function SendPath({ overview }: { overview: SecurityOverview | null }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const bank = useBankVerification();
  if (!overview || bank === undefined) return null;
  const steps = sendPath(bank ? bank.phase === 'verified' : null, overview);
  if (!steps) return null;
  const when = (date: Date) => formatDateTime(date, language);
  const hours = formatNumber(overview.holdHours, language);
  const links: Partial<Record<PathStep['key'], RouteName>> = { bank: 'my_identity', book: 'wallet_security' };
  return (
    <section className="send-path" aria-labelledby="send-path-heading" data-testid="send-path">
      <h2 id="send-path-heading">{t('send.path.heading')}</h2>
      <ol>
        {steps.map((step) => {
          const link = links[step.key];
          return (
            <li key={step.key} className={`path-step path-${step.state}`}>
              <span className="path-state">
                {step.state === 'waiting' && step.until
                  ? t('send.path.waiting', { when: when(step.until) })
                  : t(`send.path.${step.state}`)}
              </span>
              <strong>{t(`send.path.${step.key}.title`)}</strong>{' '}
              <span>{t(`send.path.${step.key}.text`, { hours })}</span>{' '}
              {link && step.state === 'todo' ? (
                <LocalizedLink to={link}>{t(`send.path.${step.key}.link` as 'send.path.bank.link')}</LocalizedLink>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
