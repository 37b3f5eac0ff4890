import * as React from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Where an interactive feature (form, wallet, faucet) mounts. Until its code arrives the
 * visitor sees what the area is for, so the page is useful without JavaScript.
 */
export function IslandPlaceholder({ name, children }: { name: string; children?: React.ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <section className="island" data-island={name}>
      {children ?? <p className="muted">{t('comingSoon')}</p>}
    </section>
  );
}
