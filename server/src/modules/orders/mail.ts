import { displayIban } from '../../../../domain/identity';
import { phrase, fillTemplate, formatMoney, emailText } from '../notify/service';
import type { Language } from '../../../../domain/languages';
import type { BankDetails } from './views';

/**
 * The confirmation email of a placed order, with what the customer must do next, so that one who
 * closed the tab can still pay: for a buy paid by bank transfer the account (beneficiary, IBAN,
 * BIC when there is one), the amount and the payment reason, the same as the confirmation page
 * (orderView's paymentDetails); for a sell or swap paid from outside the address (and XRP tag) to
 * send the crypto to; for a sell, the account the euros go to and its holder's name. Amounts are
 * formatted for the order's language.
 */
export type PlacedMailOrder = {
  reference: string;
  shortReference: string;
  type: string;
  currencyFrom: string;
  currencyTo: string;
  /** The amount paid, as a decimal string of currencyFrom. */
  amount: string;
  useMyWallet: boolean;
  /** Where a sell or swap's crypto goes (XRP: "address:tag"), if Muntly receives it from outside. */
  receivingAddress: string | null;
  /** Where the result goes: for a sell, the IBAN paid out to, with its holder's name. */
  address?: string | null;
  beneficiary?: string | null;
};

export function orderPlacedMail(language: Language, order: PlacedMailOrder, bank: BankDetails) {
  const amount = formatMoney(language, order.amount, order.currencyFrom);
  const line = (key: 'beneficiary' | 'iban' | 'bic' | 'amount' | 'reason' | 'address' | 'tag' | 'holder', value: string) => fillTemplate(phrase(language, 'orderPayment', key), { value });
  let payment: string[] = [];
  if (order.type === 'buy' && !order.useMyWallet) {
    payment = [
      fillTemplate(phrase(language, 'orderPayment', 'bankIntro'), { amount }),
      [line('beneficiary', bank.beneficiary), line('iban', bank.iban), ...(bank.bic.trim() ? [line('bic', bank.bic)] : []), line('amount', amount), line('reason', order.shortReference)].join('\n'),
      phrase(language, 'orderPayment', 'bankNote'),
    ];
  } else if (order.receivingAddress) {
    const [address, tag] = order.currencyFrom === 'XRP' ? order.receivingAddress.split(':') : [order.receivingAddress];
    payment = [
      fillTemplate(phrase(language, 'orderPayment', 'cryptoIntro'), { amount }),
      [line('address', address!), ...(tag ? [line('tag', tag)] : []), line('amount', amount)].join('\n'),
      phrase(language, 'orderPayment', 'cryptoNote'),
    ];
  }
  // A sell names the account the euros go to, with the holder's name as the transfer carries it:
  // the customer can still see a misspelt name before sending the coins.
  if (order.type === 'sell' && order.address && order.beneficiary) {
    payment.push(
      phrase(language, 'orderPayment', 'payoutIntro'),
      [line('holder', order.beneficiary), line('iban', displayIban(order.address))].join('\n'),
      phrase(language, 'orderPayment', 'payoutNote'),
    );
  }
  return emailText(language, 'orderPlaced', {
    reference: order.reference,
    amount,
    currencyTo: order.currencyTo,
    payment: payment.map((paragraph) => `${paragraph}\n\n`).join(''),
  });
}
