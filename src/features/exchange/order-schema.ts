import { isCurrencyCode, knownDecimals } from '#domain/currencies';
import { EMAIL_PATTERN } from '#domain/email';
import { normalizeAmountInput } from '#domain/money';
import { amountProblem as orderAmountProblem, deliveryKind, pairProblem } from '#domain/order-input';
import { loadAddressRules } from '../../app/address-rules';
import type { PaymentMethod } from '#domain/contracts/orders';
import type { Rules } from '../../app/form-rules';
import type { CurrencyInfo, OrderType } from './api/types';

/**
 * The order form's rules, checked in the browser before the API checks them again (the API is
 * the authority; the amount and the pair are one rule for both, in domain/order-input.ts). Messages are error codes: the form shows their text (`errors:<code>`) in the
 * page's language next to the field.
 *
 * - amount: in currencyFrom, positive, at most that currency's decimals (EUR 2); a decimal comma
 *   is accepted and sent as a point.
 * - address: for crypto delivered outside Muntly a valid address of currencyTo (XRP address:tag,
 *   tag 0 when none is needed); for a sell, the IBAN that receives the euros. None when the
 *   result goes into the Muntly wallet.
 * - beneficiary: for a sell to an IBAN, the account holder's name (the payee's bank checks it,
 *   verification of payee), 2–70 Latin characters once transliterated; a name in another script
 *   is sent as its Latin spelling (beneficiaryLatin), which the customer sees and may correct.
 * - partially supported currencies only with the own-wallet options, which need a login.
 *
 * The address rules load in their own chunk (app/address-rules.ts), downloaded while the
 * page is idle and run at the first check of an address; the rules are async, so that check
 * waits for them instead of being skipped.
 */

export type OrderFormValues = {
  currencyFrom: string;
  currencyTo: string;
  amount: string;
  email: string;
  address: string;
  /** A sell to an IBAN: the account holder's name as typed, in any script. */
  beneficiary: string;
  /** Its Latin spelling, shown (and sent) when the name has letters of another script; the customer may correct it. */
  beneficiaryLatin: string;
  paymentMethod: PaymentMethod;
  sendToMyWallet: boolean;
  useMyWallet: boolean;
  fromBusinessAccount: boolean;
};

export { EMAIL_PATTERN };

/**
 * The payee name rules and their transliteration tables (domain/payee.ts) in their own chunk,
 * fetched in the browser's idle time: only the sell form needs them.
 */
export const loadPayeeRules = () => import(/* webpackPrefetch: true */ '../../../domain/payee');
export type PayeeRules = Awaited<ReturnType<typeof loadPayeeRules>>;

/** The IBAN rules (domain/sepa.ts, with the IBAN library: ~4 KB gzipped) likewise: only a sell's IBAN needs them. */
const loadSepaRules = () => import(/* webpackPrefetch: true */ '../../../domain/sepa');

/** The name a sell sends as `beneficiary`: the Latin spelling when the form shows it, else the name as typed. */
export function beneficiaryToSend(
  values: Pick<OrderFormValues, 'beneficiary' | 'beneficiaryLatin'>,
  rules: PayeeRules,
): string {
  return (rules.needsLatinSpelling(values.beneficiary) ? values.beneficiaryLatin : values.beneficiary).trim();
}

/** What people type in any of the six languages, as the API reads it (one rule for every amount field, in domain/). */
export const normalizeAmount = normalizeAmountInput;

/**
 * The decimals of the currency chosen to pay with (`knownDecimals`, the one lookup of a minor unit),
 * or null while none is: nothing chosen, or a code Muntly does not list (a draft kept from an older
 * page), which the currency field reports rather than the amount being read at 0 decimals.
 */
export const chosenDecimals = (code: string): number | null => (isCurrencyCode(code) ? knownDecimals(code) : null);

/** null when the amount as typed is fine, else the error code (the rule is the API's: domain/order-input.ts). */
export const amountProblem = (input: string, decimals: number) => orderAmountProblem(normalizeAmount(input), decimals);

export { deliveryKind };

export function orderFormRules(
  type: OrderType,
  currencies: readonly CurrencyInfo[],
  loggedIn: boolean,
): Rules<OrderFormValues> {
  const byCode = (code: string) => currencies.find((c) => c.code === code);
  // Every rule reports at once; each message is the key of its text (a misspelt one does not compile).
  return async (values, fail) => {
    const fromDecimals = chosenDecimals(values.currencyFrom);
    if (fromDecimals === null) fail('currencyFrom', 'required');
    if (!values.currencyTo) fail('currencyTo', 'required');
    const email = values.email.trim();
    if (!email) fail('email', 'required');
    else if (email.length > 254 || !EMAIL_PATTERN.test(email)) fail('email', 'invalid_email');
    const problem = fromDecimals === null ? null : amountProblem(values.amount, fromDecimals);
    if (problem) fail('amount', problem);
    if (values.currencyFrom && pairProblem(type, values.currencyFrom, values.currencyTo) === 'same_currency')
      fail('currencyTo', 'same_currency');
    if (byCode(values.currencyTo)?.ownWalletOnly && !values.sendToMyWallet) fail('currencyTo', 'own_wallet_only');
    if (byCode(values.currencyFrom)?.ownWalletOnly && !values.useMyWallet) fail('currencyFrom', 'own_wallet_only');
    if (!loggedIn) {
      if (values.sendToMyWallet) fail('sendToMyWallet', 'login_required');
      if (values.useMyWallet) fail('useMyWallet', 'login_required');
      if (values.fromBusinessAccount && type === 'buy' && !values.useMyWallet)
        fail('fromBusinessAccount', 'login_required_business');
    }
    if (!values.sendToMyWallet) {
      const address = values.address.trim();
      if (!address) fail('address', 'required');
      else if (deliveryKind(type) === 'iban') {
        const checked = (await loadSepaRules()).sepaIban(address);
        if (!checked.ok) fail('address', checked.code);
      } else if (!(await loadAddressRules()).normalizeAddress(values.currencyTo, address))
        fail('address', 'invalid_address');
      if (deliveryKind(type) === 'iban') {
        const rules = await loadPayeeRules();
        const latin = rules.needsLatinSpelling(values.beneficiary);
        if (!values.beneficiary.trim()) fail('beneficiary', 'required');
        else if (latin && !values.beneficiaryLatin.trim()) fail('beneficiaryLatin', 'required');
        else {
          const checked = rules.payeeName(beneficiaryToSend(values, rules));
          if (!checked.ok) fail(latin ? 'beneficiaryLatin' : 'beneficiary', checked.code);
        }
      }
    }
  };
}
