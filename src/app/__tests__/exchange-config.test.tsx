import { act, screen } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../__tests__/support/render';
import { WhenBuySellDisabled } from '../buy-sell';
import { exchangeConfig } from '../exchange-config';
import { TxHash } from '../tx-hash';

const de = loadResources('de').common as any;
const BANK = { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', beneficiary: 'Muntly' };

/** The server's answers to GET /api/exchange/config, one per request (the last one repeats). */
function serve(...answers: ({ status: number; body?: unknown } | 'offline')[]) {
  const fetchMock = jest.fn(async () => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer === 'offline') throw new TypeError('Failed to fetch');
    return { ok: answer.status < 400, status: answer.status, json: async () => answer.body };
  });
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return fetchMock;
}

describe('the exchange configuration', () => {
  it('is asked once per visit by everything that reads it: the buy/sell switch and the explorer links of a German page', async () => {
    const fetchMock = serve({
      status: 200,
      body: { buySellEnabled: false, bank: BANK, explorers: { BTC: 'https://mempool.space/tx/{txid}' } },
    });
    renderInLanguage(
      <>
        <WhenBuySellDisabled>
          <p>paused</p>
        </WhenBuySellDisabled>
        <TxHash txid="ab12" currency="BTC" />
        <TxHash txid="cd34" currency="LTC" />
      </>,
      'de',
    );
    expect(await screen.findByText('paused')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: `ab12 ${de.txHash.explorer}` })).toHaveAttribute(
      'href',
      'https://mempool.space/tx/ab12',
    );
    // No explorer for LTC: the hash stays text, copyable whole.
    expect(screen.queryByRole('link', { name: /cd34/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: `${de.txHash.copy} kopieren` })).toHaveLength(2);
    expect(await exchangeConfig()).toEqual({
      buySellEnabled: false,
      bank: BANK,
      explorers: { BTC: 'https://mempool.space/tx/{txid}' },
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('is asked again after a failure, whether the server failed or the visitor was offline', async () => {
    const fetchMock = serve({ status: 503 }, 'offline', {
      status: 200,
      body: { buySellEnabled: true, bank: BANK, explorers: {} },
    });
    expect(await exchangeConfig()).toBeUndefined();
    expect(await exchangeConfig()).toBeUndefined();
    expect(await exchangeConfig()).toEqual({ buySellEnabled: true, bank: BANK, explorers: {} });
    expect(await exchangeConfig()).toEqual({ buySellEnabled: true, bank: BANK, explorers: {} });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('takes an API without the endpoint as "on", with no account and no explorers; "paused" texts stay hidden', async () => {
    serve({ status: 404, body: { error: { code: 'not_found' } } });
    renderInLanguage(
      <WhenBuySellDisabled>
        <p>paused</p>
      </WhenBuySellDisabled>,
    );
    await act(async () => expect(await exchangeConfig()).toEqual({ buySellEnabled: true, bank: null, explorers: {} }));
    expect(screen.queryByText('paused')).toBeNull();
  });
});
