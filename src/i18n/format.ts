/**
 * Numbers, money, IBANs and dates always go through Intl for the page's language, in one place
 * shared with the server's emails (domain/format.ts), so every page and every email writes an
 * amount, an IBAN and a date alike.
 */
export {
  dateTimeFormat,
  formatDate,
  formatDateTime,
  formatDuration,
  formatEurPrice,
  formatIban,
  formatMinor,
  formatMoney,
  formatNumber,
  formatPercent,
  listFormat,
  numberFormat,
  plainEurAmount,
} from '../../domain/format';
