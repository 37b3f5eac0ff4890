import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { routeEvents } from './route-events';

/** "This page is taking longer than usual…" once a route change has taken over a second. */
export function SlowLoadNotice() {
  const { t } = useTranslation('common');
  const [slow, setSlow] = React.useState(false);
  React.useEffect(() => routeEvents.subscribe((event) => setSlow(event === 'delayed')), []);
  return (
    <div role="status" aria-live="polite" className={slow ? 'slow-load visible' : 'slow-load'}>
      {slow ? t('slowLoad') : null}
    </div>
  );
}
