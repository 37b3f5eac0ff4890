import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { verificationUnlocks } from '#domain/gates';
import { eur } from '#domain/money';
import { formatMoney } from '../../../i18n/format';
import { usePageLanguage } from '../../../ui/localized-link';

/**
 * The verifications as the public identity page lists them: in the order a customer needs them
 * (domain/gates.ts `verificationUnlocks`, as the wallet's home and my identity list them), each
 * with what it takes; a weekly one names its amount from the rule.
 */
export function IdentityOverview() {
  const { t } = useTranslation('identity');
  const language = usePageLanguage();
  return (
    <ol className="cards">
      {verificationUnlocks().map((unlock) => (
        <li key={unlock.kind} data-kind={unlock.kind}>
          <h2>{t(`overview.kinds.${unlock.kind}.title`)}</h2>
          <p>
            {t(`overview.kinds.${unlock.kind}.text`, {
              amount: unlock.unlocks === 'weekly' ? formatMoney(eur(unlock.aboveEurMinor), 'EUR', language) : '',
            })}
          </p>
        </li>
      ))}
    </ol>
  );
}
