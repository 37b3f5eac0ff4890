/**
 * Build-time settings of the site. Gatsby inlines GATSBY_* variables into the bundle, so
 * these are fixed per build; a deployment sets them before `gatsby build`.
 */

/** Absolute origin of the site, used for hreflang alternates and canonical links. */
export const siteUrl = (process.env.GATSBY_SITE_URL || 'http://localhost:8000').replace(/\/$/, '');

/**
 * A placeholder Google Analytics id for local builds: the gtag calls and the consent mode run
 * and are tested, but the Google script itself is not loaded (it could not be reached here and
 * there is nothing to report to).
 */
export const placeholderTrackingId = 'G-MUNTLYLOCAL';
export const gaTrackingId = process.env.GATSBY_GA_TRACKING_ID || placeholderTrackingId;

/** The localStorage key holding the visitor's analytics choice: "granted" or "denied". */
export const consentStorageKey = 'muntly-analytics-consent';

/**
 * Where the API lives. Empty: the same origin as the site (npm start). A site on a CDN sets it
 * to the API's origin, which then lists the site's origin in SITE_ORIGIN for CORS.
 */
export const apiOrigin = (process.env.GATSBY_API_ORIGIN || '').replace(/\/$/, '');
