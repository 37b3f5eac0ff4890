import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../app/error-text';
import { SampleBadge } from '../../../app/operator';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { formatMoney, rateCurrency, rateText } from '../format';
import type { Language } from '#domain/languages';
import type { LiveQuote } from '../use-live-quote';

/** The live estimate, announced politely as it changes; the rate is floating. */
export function QuotePanel({
  quote,
  from,
  to,
  language,
  toWallet,
}: {
  quote: LiveQuote;
  from: string;
  to: string;
  language: Language;
  toWallet: boolean;
}) {
  const { t } = useTranslation('exchange');
  const errorText = useErrorText();
  return (
    <section className="quote-panel" aria-labelledby="quote-heading">
      <h2 id="quote-heading">
        {t('quote.heading')}
        {quote.state === 'ready' && quote.quote.sample ? (
          <>
            {' '}
            <SampleBadge />
          </>
        ) : null}
      </h2>
      <div aria-live="polite" aria-atomic="true" data-testid="quote">
        {quote.state === 'idle' ? <p className="muted">{t('quote.waiting')}</p> : null}
        {quote.state === 'loading' ? <p className="muted">{t('quote.loading')}</p> : null}
        {quote.state === 'error' ? <p className="form-error">{errorText(quote.code)}</p> : null}
        {quote.state === 'ready' ? (
          <dl className="order-data">
            <dt>{t('quote.rate')}</dt>
            <dd>
              <WithCurrencyIcon code={rateCurrency(from, to)}>
                {rateText(from, to, quote.quote.rate, language)}
              </WithCurrencyIcon>
            </dd>
            <dt>{t('quote.fee')}</dt>
            <dd>
              <WithCurrencyIcon code={quote.quote.feeCurrency}>
                {formatMoney(quote.quote.fee, quote.quote.feeCurrency, language)}
              </WithCurrencyIcon>
            </dd>
            <dt>{t('quote.networkFee')}</dt>
            <dd>
              {toWallet ? (
                t('quote.noNetworkFee')
              ) : (
                <WithCurrencyIcon code={quote.quote.networkFeeCurrency}>
                  {formatMoney(quote.quote.networkFee, quote.quote.networkFeeCurrency, language)}
                </WithCurrencyIcon>
              )}
            </dd>
            <dt>{t('quote.converted')}</dt>
            <dd>
              <WithCurrencyIcon code={to}>
                <strong>{formatMoney(quote.quote.amountConverted, to, language)}</strong>
              </WithCurrencyIcon>
            </dd>
            <dt>{t('quote.valueEur')}</dt>
            <dd>
              <WithCurrencyIcon code="EUR">{formatMoney(quote.quote.amountEur, 'EUR', language)}</WithCurrencyIcon>
            </dd>
          </dl>
        ) : null}
      </div>
      <p className="small muted">{t('quote.floating')}</p>
    </section>
  );
}
