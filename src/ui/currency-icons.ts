/**
 * Currency logos: the colour SVGs of the `cryptocurrency-icons` package (CC0-1.0), copied into
 * the build by gatsby-node.ts and served by the site itself. The directory carries the package's
 * version, so the server lets browsers keep the files (server/src/plugins/site.ts).
 * Codes the package has no logo for get a neutral circle with their first letter.
 */
import { CURRENCIES } from '../../domain/currencies';

export const CURRENCY_ICONS_VERSION = '0.18.1';
export const CURRENCY_ICON_DIR = `currency-icons/${CURRENCY_ICONS_VERSION}`;

/** Every code a page can show a logo for: the listed currencies and EUR. */
export const ICON_CODES: readonly string[] = ['EUR', ...CURRENCIES.map((c) => c.code)];

/** The site path of a currency's logo. */
export const currencyIconPath = (code: string): string => `/${CURRENCY_ICON_DIR}/${code.toLowerCase()}.svg`;

/** A neutral lettered circle for a code without a logo in the package (SHIB, AXS). */
export function letterIconSvg(code: string): string {
  const letter = code
    .slice(0, 1)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '?');
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
    '<circle cx="16" cy="16" r="16" fill="#6b7280"/>' +
    `<text x="16" y="21.5" text-anchor="middle" font-family="system-ui,sans-serif" font-size="16" font-weight="700" fill="#fff">${letter}</text>` +
    '</svg>'
  );
}
