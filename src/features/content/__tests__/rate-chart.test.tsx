import { fireEvent, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { loadResources, renderInLanguage } from '../../../../__tests__/support/render';
import { RateChart } from '../components/rate-chart';

/** The chart library, recorded: the options each chart was made with. */
const charts: { options: any }[] = [];
jest.mock(
  'lightweight-charts',
  () => ({
    ColorType: { Solid: 'solid' },
    AreaSeries: 'Area',
    createChart: (_box: HTMLElement, options: unknown) => {
      charts.push({ options });
      const series = { setData: jest.fn(), applyOptions: jest.fn() };
      return {
        addSeries: () => series,
        timeScale: () => ({ fitContent: jest.fn() }),
        applyOptions: jest.fn(),
        remove: jest.fn(),
      };
    },
    // The package is ESM-only, which jest's resolver does not find: stood in for by name.
  }),
  { virtual: true },
);

const ru = loadResources('ru').info as any;
const asked: string[] = [];
beforeEach(() => {
  charts.length = 0;
  asked.length = 0;
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
    const query = new URLSearchParams(url.split('?')[1]);
    asked.push(`${query.get('currency')} ${query.get('days')}`);
    const body = {
      currency: query.get('currency'),
      points: [
        { time: '2026-01-01T12:00:00.000Z', rate: '80000' },
        { time: '2026-01-02T12:00:00.000Z', rate: '81000' },
      ],
    };
    return { ok: true, status: 200, json: async () => body };
  });
});

describe('RateChart', () => {
  it('chooses the currency in the styled picker with its logo, beside the heading too (Russian)', async () => {
    renderInLanguage(<RateChart language="ru" />, 'ru', '/ru/charts/');
    // In the server's HTML a plain select; once React runs, the picker.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: ru.charts.currency })).toHaveValue('Биткоин (BTC)'),
    );
    expect(document.querySelector('#chart-heading img')).toHaveAttribute('src', '/currency-icons/0.18.1/btc.svg');
    const input = screen.getByRole('combobox', { name: ru.charts.currency });
    fireEvent.change(input, { target: { value: 'эфир' } });
    expect(screen.getAllByRole('option')[0]).toHaveTextContent('Эфириум');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(
      await screen.findByRole('heading', { level: 2, name: /Эфириум \(ETH\) в евро за 30 дней/ }),
    ).toBeInTheDocument();
    expect(document.querySelector('#chart-heading img')).toHaveAttribute('src', '/currency-icons/0.18.1/eth.svg');
    expect(input.parentElement!.querySelector('img')).toHaveAttribute('src', '/currency-icons/0.18.1/eth.svg');
    await waitFor(() => expect(asked).toContain('ETH 30'));
  });

  it('keeps the time axis labels inside the chart: both edges fixed (the library then moves the first and last label in), no seconds', async () => {
    renderInLanguage(<RateChart language="de" />, 'de', '/de/charts/');
    await waitFor(() => expect(charts).toHaveLength(1));
    expect(charts[0]!.options.timeScale).toMatchObject({
      fixLeftEdge: true,
      fixRightEdge: true,
      secondsVisible: false,
      timeVisible: true,
    });
    expect(charts[0]!.options.localization.locale).toBe('de-DE');
    fireEvent.change(screen.getByLabelText((loadResources('de').info as any).charts.period), {
      target: { value: '365' },
    });
    // A year: dates without the time of day.
    await waitFor(() => expect(asked).toContain('BTC 365'));
    await waitFor(() =>
      expect(charts.at(-1)!.options.timeScale).toMatchObject({
        fixLeftEdge: true,
        fixRightEdge: true,
        timeVisible: false,
      }),
    );
  });
});
