import { consentStorageKey } from '../config';

/**
 * Analytics consent (Google consent mode). The default, "denied" unless the visitor accepted
 * before, is set by an inline script in the head before gtag's own configuration
 * (gatsby-ssr.tsx); this module reads and changes the choice afterwards.
 */
export type ConsentChoice = 'granted' | 'denied';

declare global {
  interface Window {
    gtag?: (...args: unknown[]) => void;
    dataLayer?: unknown[];
  }
}

export function readConsent(): ConsentChoice | null {
  try {
    const value = window.localStorage.getItem(consentStorageKey);
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null; // storage disabled: ask again, store nothing
  }
}

export function saveConsent(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(consentStorageKey, choice);
  } catch {
    // Storage disabled: the choice holds for this page view only.
  }
  window.gtag?.('consent', 'update', { analytics_storage: choice });
}

export function clearConsent(): void {
  try {
    window.localStorage.removeItem(consentStorageKey);
  } catch {
    // Nothing stored.
  }
  window.gtag?.('consent', 'update', { analytics_storage: 'denied' });
  window.dispatchEvent(new Event('muntly:consent-cleared'));
}

/** The inline head script: consent defaults, which must run before gtag's `config`. */
export function consentDefaultsScript(): string {
  return [
    'window.dataLayer=window.dataLayer||[];',
    'function gtag(){dataLayer.push(arguments);}',
    `var c=null;try{c=localStorage.getItem(${JSON.stringify(consentStorageKey)})}catch(e){}`,
    "gtag('consent','default',{ad_storage:'denied',ad_user_data:'denied',ad_personalization:'denied',",
    "analytics_storage:c==='granted'?'granted':'denied'});",
  ].join('');
}
