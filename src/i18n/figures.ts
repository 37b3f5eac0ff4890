import { FEES } from '../../domain/fees';
import { LEGAL_TEXTS_UPDATED } from '../../domain/legal';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
} from '../../domain/limits';
import { eur } from '../../domain/money';
import { formatDate, formatMoney, formatPercent } from './format';
import type { Language } from '../../domain/languages';

/**
 * The product's fixed figures (limits, fees, the legal texts' date) written for a language.
 * gatsby-node puts them into the page context of the pages that only show them (home, the legal
 * pages), so those are formatted once at build time: a browser that creates its first Intl
 * formatter spends tens of milliseconds on a phone loading locale data, which those pages would
 * otherwise spend while hydrating. Same Intl, same strings; a page without them in its context
 * (a component test) formats them itself.
 */
export function productFigures(language: Language) {
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  return {
    firstOrderLimit: money(FIRST_ORDER_LIMIT_EUR_MINOR),
    orderLimit: money(ORDER_LIMIT_EUR_MINOR),
    mobileLimit: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR),
    idLimit: money(ID_VERIFICATION_WEEKLY_EUR_MINOR),
    buyFee: formatPercent(FEES.buy.basisPoints, language),
    buyMinimum: money(FEES.buy.minimumEurMinor),
    sellFee: formatPercent(FEES.sell.basisPoints, language),
    swapFee: formatPercent(FEES.swap.basisPoints, language),
    legalTextsUpdated: formatDate(LEGAL_TEXTS_UPDATED, language),
  };
}

export type ProductFigures = ReturnType<typeof productFigures>;
