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

/** The attribute on <html> that hides the cookie banner, in the page's HTML, once a choice is stored. */
export const CONSENT_CHOSEN_ATTRIBUTE = 'data-consent-chosen';

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
    // Storage disabled: the choice holds until the page is loaded again.
  }
  // The next page's banner, in its HTML, stays hidden (a client-side navigation runs no head script).
  document.documentElement.setAttribute(CONSENT_CHOSEN_ATTRIBUTE, '');
  window.gtag?.('consent', 'update', { analytics_storage: choice });
}

export function clearConsent(): void {
  try {
    window.localStorage.removeItem(consentStorageKey);
  } catch {
    // Nothing stored.
  }
  document.documentElement.removeAttribute(CONSENT_CHOSEN_ATTRIBUTE);
  window.gtag?.('consent', 'update', { analytics_storage: 'denied' });
  window.dispatchEvent(new Event('muntly:consent-cleared'));
}

/** The attribute of the banner's buttons that names their choice, read by the head script. */
export const CONSENT_CHOICE_ATTRIBUTE = 'data-consent-choice';
/** The banner's attribute once the app has started and answers its buttons itself. */
export const BANNER_LIVE_ATTRIBUTE = 'data-live';

/**
 * The inline head script: consent defaults, which must run before gtag's `config`; for a visitor
 * who has chosen before, the attribute that hides the banner the page's HTML carries (global.css)
 * before anything is painted; and, until the app has started, the answer to the banner's buttons
 * (the banner is painted with the page, and a tap on a phone can come seconds before the app's
 * scripts have run): the choice is stored and applied as saveConsent does, and the banner hides.
 */
export function consentDefaultsScript(): string {
  const key = JSON.stringify(consentStorageKey);
  const chosen = JSON.stringify(CONSENT_CHOSEN_ATTRIBUTE);
  return [
    'window.dataLayer=window.dataLayer||[];',
    'function gtag(){dataLayer.push(arguments);}',
    `var c=null;try{c=localStorage.getItem(${key})}catch(e){}`,
    "gtag('consent','default',{ad_storage:'denied',ad_user_data:'denied',ad_personalization:'denied',",
    "analytics_storage:c==='granted'?'granted':'denied'});",
    `if(c==='granted'||c==='denied')document.documentElement.setAttribute(${chosen},'');`,
    "document.addEventListener('click',function(e){",
    `var b=e.target instanceof Element?e.target.closest('[${CONSENT_CHOICE_ATTRIBUTE}]'):null;`,
    `if(!b||b.closest('[${BANNER_LIVE_ATTRIBUTE}]'))return;`,
    `var v=b.getAttribute('${CONSENT_CHOICE_ATTRIBUTE}');if(v!=='granted'&&v!=='denied')return;`,
    `try{localStorage.setItem(${key},v)}catch(x){}`,
    `document.documentElement.setAttribute(${chosen},'');`,
    "gtag('consent','update',{analytics_storage:v})});",
  ].join('');
}
