import { displayIban } from '#domain/identity';
import { phrase, fillTemplate, formatMoment, formatMoney, emailText, sendOnlyText } from './service';
import type { BankAccount } from '#domain/contracts/orders';
import type { Language } from '#domain/languages';

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

/**
 * What else the email carries: the signed link to the order, the days it has to be paid
 * (ORDER_EXPIRY_DAYS), and when it was placed (the pay-by date counts from then, however much
 * later the email is written).
 */
export type PlacedMailExtras = { link?: string; expiryDays?: number; now?: Date };

/**
 * Everything the confirmation email is written from, as the outbox keeps it until it is written
 * (template `orderPlaced`: the placement stores these few hundred bytes, not the email).
 */
export type OrderPlacedParams = {
  language: Language;
  order: PlacedMailOrder;
  bank: BankAccount;
  link?: string;
  expiryDays?: number;
  /** When the order was placed, ISO 8601. */
  placedAt: string;
};

export function orderPlacedMail(
  language: Language,
  order: PlacedMailOrder,
  bank: BankAccount,
  extras: PlacedMailExtras = {},
) {
  const amount = formatMoney(language, order.amount, order.currencyFrom);
  const line = (
    key: 'beneficiary' | 'iban' | 'bic' | 'amount' | 'reason' | 'address' | 'tag' | 'holder',
    value: string,
  ) => fillTemplate(phrase(language, 'orderPayment', key), { value });
  let payment: string[] = [];
  if (order.type === 'buy' && !order.useMyWallet) {
    payment = [
      fillTemplate(phrase(language, 'orderPayment', 'bankIntro'), { amount }),
      [
        line('beneficiary', bank.beneficiary),
        // Grouped by four, as the order page and every other page write it.
        line('iban', displayIban(bank.iban)),
        ...(bank.bic.trim() ? [line('bic', bank.bic)] : []),
        line('amount', amount),
        line('reason', order.shortReference),
      ].join('\n'),
      // Local mode's sample account is said to be one, as the page marks it.
      ...(bank.sample ? [phrase(language, 'orderPayment', 'sampleAccount')] : []),
      phrase(language, 'orderPayment', 'bankNote'),
      phrase(language, 'orderPayment', 'bankOutcomes'),
    ];
  } else if (order.receivingAddress) {
    const [address, tag] = order.currencyFrom === 'XRP' ? order.receivingAddress.split(':') : [order.receivingAddress];
    payment = [
      fillTemplate(phrase(language, 'orderPayment', 'cryptoIntro'), { amount }),
      [line('address', address!), ...(tag ? [line('tag', tag)] : []), line('amount', amount)].join('\n'),
      ...[sendOnlyText(language, order.currencyFrom), phrase(language, 'orderPayment', 'cryptoNote')].filter(
        (text): text is string => Boolean(text),
      ),
      phrase(language, 'orderPayment', 'cryptoOutcomes'),
    ];
  }
  // By when: an order still unpaid then expires, and a payment after that goes back.
  if (payment.length && extras.expiryDays) {
    const payBy = new Date((extras.now ?? new Date()).getTime() + extras.expiryDays * 86_400_000);
    payment.push(
      // Coins are sent, not paid: a sell or swap says so.
      fillTemplate(phrase(language, 'orderPayment', order.receivingAddress ? 'deadlineSend' : 'deadline'), {
        days: String(extras.expiryDays),
        // To the minute: the order expires then, not at the end of that day.
        date: formatMoment(language, payBy),
      }),
    );
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
  if (extras.link) payment.push(fillTemplate(phrase(language, 'orderPayment', 'link'), { link: extras.link }));
  return emailText(language, 'orderPlaced', {
    reference: order.reference,
    amount,
    currencyTo: order.currencyTo,
    payment: payment.map((paragraph) => `${paragraph}\n\n`).join(''),
  });
}
