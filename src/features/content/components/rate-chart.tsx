import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENCIES } from '#domain/currencies';
import { languageMeta, type Language } from '#domain/languages';
import { SampleBadge } from '../../../app/operator';
import { formatDate, numberFormat } from '../../../i18n/format';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { useCurrencyName } from '../../../ui/currency-name';
import { CurrencyPicker, type CurrencyOption } from '../../../ui/currency-picker';
import { SelectField } from '../../../ui/field';
import { getRateHistory, type RateHistory } from '../api/get-rates';
import { usePolled } from '../api/use-polled';
import { formatRate } from '../format';

/** The chart's colours from the design tokens (src/styles/tokens.css), so it follows the light or dark theme. */
function chartColours(element: HTMLElement) {
  const style = getComputedStyle(element);
  const token = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: token('--color-text', '#10201a'),
    grid: token('--color-border', '#d5ddd9'),
    line: token('--color-chart-line', '#0b6b3a'),
    fillTop: token('--color-chart-fill-top', 'rgba(11, 107, 58, 0.35)'),
    fillBottom: token('--color-chart-fill-bottom', 'rgba(11, 107, 58, 0.02)'),
  };
}

export const CHART_PERIODS_DAYS = [7, 30, 90, 365] as const;

type Summary = {
  first: string;
  last: string;
  low: string;
  high: string;
  changeBasisPoints: number;
  from: Date;
  to: Date;
};

/** First, last, lowest and highest rate of a history, and the change in basis points. */
export function summarize(history: RateHistory): Summary | null {
  const points = history.points;
  if (points.length === 0) return null;
  let low = points[0]!;
  let high = points[0]!;
  for (const point of points) {
    if (Number(point.rate) < Number(low.rate)) low = point;
    if (Number(point.rate) > Number(high.rate)) high = point;
  }
  const first = points[0]!;
  const last = points[points.length - 1]!;
  return {
    first: first.rate,
    last: last.rate,
    low: low.rate,
    high: high.rate,
    changeBasisPoints: Math.round(((Number(last.rate) - Number(first.rate)) / Number(first.rate)) * 10_000),
    from: new Date(first.time),
    to: new Date(last.time),
  };
}

/**
 * The rate history chart (GET /api/rates/history). lightweight-charts is imported when the chart
 * mounts, so it is downloaded on this page only and never delays the rest of the site. The chart
 * is a picture; the figures are also written out below it for screen readers and for print.
 */
export function RateChart({ language }: { language: Language }) {
  const { t } = useTranslation('info');
  const nameOf = useCurrencyName();
  const [currency, setCurrency] = React.useState('BTC');
  const [days, setDays] = React.useState<number>(30);
  const { data, failed } = usePolled(() => getRateHistory(language, currency, days), `${currency}-${days}`);
  const box = React.useRef<HTMLDivElement>(null);
  const summary = data && data.currency === currency ? summarize(data) : null;

  React.useEffect(() => {
    if (!data || !box.current) return;
    let disposed = false;
    let remove: (() => void) | undefined;
    void import('lightweight-charts').then(({ createChart, AreaSeries, ColorType }) => {
      if (disposed || !box.current) return;
      const colours = chartColours(box.current);
      const intl = languageMeta[language].intl;
      const chart = createChart(box.current, {
        autoSize: true,
        layout: {
          attributionLogo: false,
          textColor: colours.text,
          background: { type: ColorType.Solid, color: 'transparent' },
          fontFamily: 'inherit',
        },
        localization: { locale: intl, priceFormatter: (price: number) => formatRate(String(price), language) },
        grid: { vertLines: { visible: false }, horzLines: { color: colours.grid } },
        rightPriceScale: { borderColor: colours.grid },
        // The chart shows the whole period and no more: with both edges fixed the library moves the
        // first and last labels inside the axis, which otherwise cut them ("12:0" at 320 px and at
        // 1280 px). Times without seconds ("13:00", not "13:00:56" for the live last point).
        timeScale: {
          timeVisible: days <= 30,
          secondsVisible: false,
          fixLeftEdge: true,
          fixRightEdge: true,
          borderColor: colours.grid,
        },
      });
      const series = chart.addSeries(AreaSeries, {
        lineColor: colours.line,
        topColor: colours.fillTop,
        bottomColor: colours.fillBottom,
        lineWidth: 2,
      });
      series.setData(
        data.points.map((p) => ({
          time: Math.floor(new Date(p.time).getTime() / 1000) as never,
          value: Number(p.rate),
        })),
      );
      chart.timeScale().fitContent();
      // The visitor switches the system between light and dark: the chart follows.
      const scheme = window.matchMedia?.('(prefers-color-scheme: dark)');
      const recolour = () => {
        if (!box.current) return;
        const next = chartColours(box.current);
        chart.applyOptions({
          layout: { textColor: next.text },
          grid: { horzLines: { color: next.grid } },
          rightPriceScale: { borderColor: next.grid },
          timeScale: { borderColor: next.grid },
        });
        series.applyOptions({ lineColor: next.line, topColor: next.fillTop, bottomColor: next.fillBottom });
      };
      scheme?.addEventListener?.('change', recolour);
      remove = () => {
        scheme?.removeEventListener?.('change', recolour);
        chart.remove();
      };
    });
    return () => {
      disposed = true;
      remove?.();
    };
  }, [data, language, days]);

  const name = nameOf(currency, CURRENCIES.find((c) => c.code === currency)?.name);
  const options = React.useMemo<CurrencyOption[]>(
    () => CURRENCIES.map((c) => ({ code: c.code, name: nameOf(c.code, c.name) })),
    [nameOf],
  );
  const percent = (basisPoints: number) =>
    numberFormat(language, {
      style: 'percent',
      signDisplay: 'exceptZero',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(basisPoints / 10_000);

  return (
    <section aria-labelledby="chart-heading">
      <div className="inline-form">
        <CurrencyPicker
          id="chart-currency"
          label={t('charts.currency')}
          options={options}
          value={currency}
          onChange={setCurrency}
        />
        <SelectField
          id="chart-period"
          label={t('charts.period')}
          value={String(days)}
          onChange={(e) => setDays(Number(e.target.value))}
        >
          {CHART_PERIODS_DAYS.map((d) => (
            <option key={d} value={d}>
              {t('charts.days', { count: d })}
            </option>
          ))}
        </SelectField>
      </div>
      <h2 id="chart-heading">
        <WithCurrencyIcon code={currency}>
          {t('charts.heading', { name, code: currency, period: t('charts.days', { count: days }) })}
        </WithCurrencyIcon>
      </h2>
      {failed ? <p role="alert">{t('charts.failed')}</p> : null}
      {data?.sample ? (
        <p>
          <SampleBadge />
        </p>
      ) : null}
      <figure className="chart-figure">
        {/* The canvas is a picture of the figures below; screen readers get the caption and the figures. */}
        <div ref={box} className="chart-box" aria-hidden="true" />
        <figcaption className="visually-hidden">
          {summary
            ? t('charts.chartLabel', {
                name,
                from: formatRate(summary.first, language),
                to: formatRate(summary.last, language),
              })
            : t('charts.loading')}
        </figcaption>
      </figure>
      {summary ? (
        <dl className="identity-data chart-summary" aria-live="polite">
          <dt>{t('charts.period')}</dt>
          <dd>
            {formatDate(summary.from, language)} – {formatDate(summary.to, language)}
          </dd>
          <dt>{t('charts.last')}</dt>
          <dd data-testid="chart-last">{formatRate(summary.last, language)}</dd>
          <dt>{t('charts.low')}</dt>
          <dd>{formatRate(summary.low, language)}</dd>
          <dt>{t('charts.high')}</dt>
          <dd>{formatRate(summary.high, language)}</dd>
          <dt>{t('charts.change')}</dt>
          <dd>{percent(summary.changeBasisPoints)}</dd>
        </dl>
      ) : (
        <p className="muted">{data && data.currency === currency ? t('charts.failed') : t('charts.loading')}</p>
      )}
      <p className="small muted">
        {t('charts.note')}{' '}
        {/* lightweight-charts' licence asks for this attribution (instead of its logo inside the chart). */}
        <a href="https://www.tradingview.com/lightweight-charts/">TradingView Lightweight Charts™</a>
      </p>
    </section>
  );
}
