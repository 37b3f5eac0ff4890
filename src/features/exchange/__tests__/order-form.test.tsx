import '../../../../__tests__/support/polyfills';
import { screen, waitFor, fireEvent, act } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { OrderForm } from '../components/order-form';
import { StaticSession } from '../session';
import { mockApi, apiError, CURRENCIES, QUOTE, ORDER } from './fetch-mock';

const de = loadResources('de').exchange as any;
const en = loadResources('en').exchange as any;
const deErrors = loadResources('de').errors as any;
const enErrors = loadResources('en').errors as any;

function setup(type: 'buy' | 'sell' | 'swap', language: 'en' | 'de' = 'en', session?: 'authenticated') {
  const onPlaced = jest.fn();
  const onDisabled = jest.fn();
  const ui = <OrderForm type={type} onPlaced={onPlaced} onDisabled={onDisabled} />;
  renderInLanguage(
    session ? (
      <StaticSession value={{ status: 'authenticated', getToken: async () => 'token-1' }}>{ui}</StaticSession>
    ) : (
      ui
    ),
    language,
  );
  return { onPlaced, onDisabled };
}

const field = (label: RegExp | string) => screen.getByLabelText(label);
const type = (label: RegExp | string, value: string) => fireEvent.change(field(label), { target: { value } });
/** Chooses a currency in the searchable picker: types its code, Enter takes the best match. */
function pick(label: RegExp | string, code: string) {
  const input = field(label);
  fireEvent.change(input, { target: { value: code } });
  fireEvent.keyDown(input, { key: 'Enter' });
}
/** The error shown next to a field: its aria-describedby points at it. */
function errorOf(label: RegExp | string): string | null {
  const input = field(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.length ? (document.getElementById(ids[0]!)?.textContent ?? null) : null;
}

beforeEach(() => {
  jest.useRealTimers();
});

describe('OrderForm', () => {
  it('checks every field in the browser and shows the errors next to them, in German', async () => {
    const api = mockApi({ 'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }) });
    setup('buy', 'de');
    await screen.findByLabelText(de.form.to.buy);
    fireEvent.click(screen.getByRole('button', { name: de.form.submit.buy }));
    await waitFor(() => expect(errorOf(/Betrag in EUR/)).toBe(deErrors.required));
    expect(errorOf(de.form.email)).toBe(deErrors.required);
    expect(errorOf('Ihre BTC-Adresse')).toBe(deErrors.required);

    type(/Betrag in EUR/, '10,555');
    type(de.form.email, 'not-an-email');
    type('Ihre BTC-Adresse', 'bc1-no-address');
    fireEvent.click(screen.getByRole('button', { name: de.form.submit.buy }));
    await waitFor(() => expect(errorOf(/Betrag in EUR/)).toBe('EUR erlaubt höchstens 2 Nachkommastellen.'));
    expect(errorOf(de.form.email)).toBe(deErrors.invalid_email);
    expect(errorOf('Ihre BTC-Adresse')).toBe(deErrors.invalid_address);
    expect(api.callsTo('POST /api/orders')).toHaveLength(0);
  });

  it('uses the decimals of the currency sent: 8 for BTC when selling, and the IBAN as the address', async () => {
    mockApi({ 'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }) });
    setup('sell');
    await screen.findByLabelText(en.form.from.sell);
    type(/Amount in BTC/, '0.123456789');
    type(en.form.iban, 'DE00 1234');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.sell }));
    await waitFor(() => expect(errorOf(/Amount in BTC/)).toBe('BTC allows at most 8 digits after the decimal point.'));
    expect(errorOf(en.form.iban)).toBe(enErrors.invalid_iban);
  });

  it('places a buy with an Idempotency-Key, reusing it when the same attempt is retried', async () => {
    let failures = 1;
    const api = mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
      'POST /api/orders': () => (failures-- > 0 ? apiError(503, 'try_again_soon') : { status: 201, body: ORDER }),
    });
    const { onPlaced } = setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    type(/Amount in EUR/, '80');
    type(en.form.email, 'ada@example.com');
    type('Your BTC address', ' bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq ');
    fireEvent.change(field(en.form.paymentMethod), { target: { value: 'sepa_instant' } });
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    expect(await screen.findByRole('alert')).toHaveTextContent(enErrors.try_again_soon);
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    await waitFor(() => expect(onPlaced).toHaveBeenCalledWith(ORDER, 'ada@example.com'));

    const [first, second] = api.callsTo('POST /api/orders');
    expect(first!.body).toEqual({
      type: 'buy',
      currencyFrom: 'EUR',
      currencyTo: 'BTC',
      amount: '80',
      email: 'ada@example.com',
      address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      paymentMethod: 'sepa_instant',
    });
    expect(first!.headers['idempotency-key']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(first!.headers.authorization).toBeUndefined();
  });

  it('starts a new attempt (new key) when the details change', async () => {
    const api = mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
      'POST /api/orders': () => apiError(409, 'first_order_limit', 'amount'),
    });
    setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    type(/Amount in EUR/, '150');
    type(en.form.email, 'new@example.com');
    type('Your BTC address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    // The API's code, localized, next to the field the API names, with the limit from domain/limits.
    await waitFor(() =>
      expect(errorOf(/Amount in EUR/)).toBe(
        'Order rejected. The first order of each new customer is limited to €100.00.',
      ),
    );
    type(/Amount in EUR/, '90');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    await waitFor(() => expect(api.callsTo('POST /api/orders')).toHaveLength(2));
    const [a, b] = api.callsTo('POST /api/orders');
    expect(a!.headers['idempotency-key']).not.toBe(b!.headers['idempotency-key']);
  });

  it('shows the network-fee rejection next to the amount of a swap', async () => {
    mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => apiError(409, 'network_fee_exceeds_amount', 'amount'),
      'POST /api/orders': () => apiError(409, 'network_fee_exceeds_amount', 'amount'),
    });
    setup('swap', 'de');
    await screen.findByLabelText(de.form.from.swap);
    type(/Betrag in BTC/, '0,00000001');
    type(de.form.email, 'ada@example.com');
    type('Ihre ETH-Adresse', '0x52908400098527886E0F7030069857D2E4169EE7');
    // The live estimate already says so …
    await waitFor(() => expect(screen.getByTestId('quote')).toHaveTextContent(deErrors.network_fee_exceeds_amount), {
      timeout: 3000,
    });
    fireEvent.click(screen.getByRole('button', { name: de.form.submit.swap }));
    // … and the rejected order shows it next to the amount.
    await waitFor(() => expect(errorOf(/Betrag in BTC/)).toBe(deErrors.network_fee_exceeds_amount));
  });

  it('shows a live estimate for what is typed, stating the floating rate', async () => {
    const api = mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
    });
    setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    type(/Amount in EUR/, '8');
    type(/Amount in EUR/, '80');
    const quote = screen.getByTestId('quote');
    expect(quote).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(quote).toHaveTextContent('0.000975 BTC'));
    expect(quote).toHaveTextContent('€2.00');
    expect(quote).toHaveTextContent('1 BTC ≈ €80,000.00'); // a buy's rate, read the usual way round
    expect(screen.getByText(en.quote.floating)).toBeInTheDocument();
    // Debounced: one question for the last input only.
    expect(api.callsTo('POST /api/quotes').map((c) => c.body)).toEqual([
      { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '80' },
    ]);
  });

  it('asks anonymous visitors to log in for the own-wallet options', async () => {
    const api = mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
    });
    setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    fireEvent.click(screen.getByLabelText(en.form.sendToMyWallet));
    expect(screen.queryByLabelText('Your BTC address')).toBeNull(); // delivered into the wallet
    expect(screen.getByRole('link', { name: en.form.loginLink })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/login\/\?returnTo=/),
    );
    type(/Amount in EUR/, '50');
    type(en.form.email, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    await waitFor(() => expect(errorOf(en.form.sendToMyWallet)).toBe(enErrors.login_required));
    expect(api.callsTo('POST /api/orders')).toHaveLength(0);
  });

  it('tells an anonymous visitor paying from a business account what that needs (an account and a verified business), not the wallet options', async () => {
    const api = mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
    });
    setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    fireEvent.click(screen.getByLabelText(en.form.fromBusinessAccount));
    type(/Amount in EUR/, '50');
    type(en.form.email, 'ada@example.com');
    type('Your BTC address', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    await waitFor(() => expect(errorOf(en.form.fromBusinessAccount)).toBe(enErrors.login_required_business));
    expect(enErrors.login_required_business).not.toMatch(/Send to my wallet/);
    expect(api.callsTo('POST /api/orders')).toHaveLength(0);
  });

  it('sends the access token with the own-wallet options when logged in', async () => {
    const api = mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
      'POST /api/orders': () => ({
        status: 201,
        body: {
          ...ORDER,
          currencyTo: 'SOL',
          sendToMyWallet: true,
          useMyWallet: true,
          address: null,
          paymentDetails: null,
        },
      }),
    });
    const { onPlaced } = setup('buy', 'en', 'authenticated');
    await screen.findByLabelText(en.form.to.buy);
    pick(en.form.to.buy, 'SOL');
    expect(screen.getByText(en.form.partialNotice)).toBeInTheDocument();
    type(/Amount in EUR/, '50');
    type(en.form.email, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    // Solana is only partially supported: it needs the own-wallet option.
    await waitFor(() => expect(errorOf(en.form.to.buy)).toBe(enErrors.own_wallet_only));
    fireEvent.click(screen.getByLabelText(en.form.sendToMyWallet));
    fireEvent.click(screen.getByLabelText(en.form.useMyWallet));
    expect(screen.queryByLabelText(en.form.paymentMethod)).toBeNull(); // paid from the wallet
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    await waitFor(() => expect(onPlaced).toHaveBeenCalled());
    const [call] = api.callsTo('POST /api/orders');
    expect(call!.headers.authorization).toBe('Bearer token-1');
    expect(call!.body).toEqual({
      type: 'buy',
      currencyFrom: 'EUR',
      currencyTo: 'SOL',
      amount: '50',
      email: 'ada@example.com',
      sendToMyWallet: true,
      useMyWallet: true,
    });
  });

  it.each([
    ['en', 'Your ETH address', /standard address of an ordinary account.*not a smart contract.*21,000 gas/],
    ['de', 'Ihre ETH-Adresse', /Standardadresse eines gewöhnlichen Kontos.*kein Smart Contract.*21\.000 Gas/],
  ] as const)(
    'tells, in %s, that an ETH address must be a standard one (21,000 gas, no contract) and what an XRP destination tag is',
    async (language, ethLabel, ethHint) => {
      mockApi({
        'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
        'POST /api/quotes': () => ({ body: QUOTE }),
      });
      setup('buy', language);
      const texts = language === 'de' ? de : en;
      await screen.findByLabelText(texts.form.to.buy);
      pick(texts.form.to.buy, 'ETH');
      const hintOf = (label: string) =>
        document.getElementById(
          (field(label).getAttribute('aria-describedby') ?? '').split(' ').find((id) => id.endsWith('-hint'))!,
        )!.textContent;
      expect(hintOf(ethLabel)).toMatch(ethHint);
      pick(texts.form.to.buy, 'XRP');
      expect(hintOf(ethLabel.replace('ETH', 'XRP'))).toBe(texts.form.xrpHint);
      expect(texts.form.xrpHint).toMatch(
        language === 'de' ? /Börsen .* verlangen ihn fast immer/ : /exchanges .* almost always require it/,
      );
    },
  );

  it('accepts an XRP address without a tag (the API stores tag 0) and explains the tag', async () => {
    const api = mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
      'POST /api/orders': () => ({ status: 201, body: ORDER }),
    });
    setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    pick(en.form.to.buy, 'XRP');
    expect(screen.getByText(en.form.xrpHint)).toBeInTheDocument();
    type(/Amount in EUR/, '50');
    type(en.form.email, 'ada@example.com');
    type('Your XRP address', 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    await waitFor(() => expect(api.callsTo('POST /api/orders')).toHaveLength(1));
    expect((api.callsTo('POST /api/orders')[0]!.body as { address: string }).address).toBe(
      'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY',
    );
  });

  it('shows an API error for a field the page does not show (EUR side of a sell) above the button', async () => {
    mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
      'POST /api/orders': () => apiError(409, 'order_limit', 'currencyTo'),
    });
    setup('sell');
    await screen.findByLabelText(en.form.from.sell);
    type(/Amount in BTC/, '1');
    type(en.form.email, 'ada@example.com');
    type(en.form.iban, 'DE89 3704 0044 0532 0130 00');
    type(en.form.beneficiary, 'Ada Lovelace');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.sell }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Order rejected. An order can be at most €30,000.00.');
  });

  it('says how long to wait when placing is limited (429 with retryAfter)', async () => {
    mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
      'POST /api/orders': () => ({
        status: 429,
        body: { error: { code: 'try_again_soon', message: 'Try again soon!', retryAfter: 1800 } },
      }),
    });
    setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    type(/Amount in EUR/, '50');
    type(en.form.email, 'ada@example.com');
    type('Your BTC address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 30 minutes.');
  });

  it('reports a switched-off buy (buy_sell_disabled) to the page', async () => {
    mockApi({
      'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
      'POST /api/quotes': () => ({ body: QUOTE }),
      'POST /api/orders': () => apiError(403, 'buy_sell_disabled'),
    });
    const { onDisabled } = setup('buy');
    await screen.findByLabelText(en.form.to.buy);
    type(/Amount in EUR/, '50');
    type(en.form.email, 'ada@example.com');
    type('Your BTC address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: en.form.submit.buy }));
    });
    await waitFor(() => expect(onDisabled).toHaveBeenCalled());
  });

  describe("a sell's account holder (verification of payee)", () => {
    const ru = loadResources('ru').exchange as any;
    const ruErrors = loadResources('ru').errors as any;
    const sellIn = async (language: 'en' | 'ru', answer: () => unknown) => {
      const api = mockApi({
        'GET /api/currencies': () => ({ body: { currencies: CURRENCIES } }),
        'POST /api/quotes': () => ({ body: QUOTE }),
        'POST /api/orders': answer as never,
      });
      const onPlaced = jest.fn();
      renderInLanguage(<OrderForm type="sell" onPlaced={onPlaced} onDisabled={jest.fn()} />, language);
      const texts = language === 'ru' ? ru : en;
      await screen.findByLabelText(texts.form.from.sell);
      type(language === 'ru' ? /Сумма в BTC/ : /Amount in BTC/, '0.5');
      type(texts.form.email, 'yulia@example.com');
      type(texts.form.iban, 'gb82 west 1234 5698 7654 32');
      return { api, onPlaced, texts };
    };

    it('shows the Latin spelling of a Cyrillic name, which the customer corrects, and sends the corrected one', async () => {
      const { api, onPlaced, texts } = await sellIn('ru', () => ({
        status: 201,
        body: { ...ORDER, type: 'sell', currencyFrom: 'BTC', currencyTo: 'EUR', beneficiary: 'Yulia Kovalenko' },
      }));
      expect(screen.queryByLabelText(texts.form.beneficiaryLatin)).toBeNull();
      type(texts.form.beneficiary, 'Юлия Коваленко');
      const latin = (await screen.findByLabelText(texts.form.beneficiaryLatin)) as HTMLInputElement;
      expect(latin.value).toBe('Yuliya Kovalenko');
      expect(document.getElementById('order-beneficiaryLatin-hint')!.textContent).toBe(texts.form.beneficiaryLatinHint);
      // The spelling follows the name until the customer corrects it; then it is theirs.
      type(texts.form.beneficiary, 'Юлия Коваленко-Шевченко');
      expect(latin.value).toBe('Yuliya Kovalenko-Shevchenko');
      type(texts.form.beneficiaryLatin, 'Yulia Kovalenko');
      type(texts.form.beneficiary, 'Юлия Коваленко');
      expect(latin.value).toBe('Yulia Kovalenko');
      fireEvent.click(screen.getByRole('button', { name: texts.form.submit.sell }));
      await waitFor(() => expect(onPlaced).toHaveBeenCalled());
      expect(api.callsTo('POST /api/orders')[0]!.body).toMatchObject({
        address: 'gb82 west 1234 5698 7654 32',
        beneficiary: 'Yulia Kovalenko',
      });
    });

    it('refuses a missing or too short name next to its field, in Russian, and puts the API’s refusals next to theirs', async () => {
      const { api, texts } = await sellIn('ru', () => apiError(400, 'muntly_iban', 'address'));
      fireEvent.click(screen.getByRole('button', { name: texts.form.submit.sell }));
      await waitFor(() => expect(errorOf(texts.form.beneficiary)).toBe(ruErrors.required));
      type(texts.form.beneficiary, 'Л');
      fireEvent.click(screen.getByRole('button', { name: texts.form.submit.sell }));
      await waitFor(() => expect(errorOf(texts.form.beneficiaryLatin)).toBe(ruErrors.invalid_beneficiary));
      expect(api.callsTo('POST /api/orders')).toHaveLength(0);
      // Muntly's own IBAN: the API refuses it, the page says so next to the IBAN.
      type(texts.form.beneficiary, 'Юлия Коваленко');
      fireEvent.click(screen.getByRole('button', { name: texts.form.submit.sell }));
      await waitFor(() => expect(errorOf(texts.form.iban)).toBe(ruErrors.muntly_iban));
    });

    it('sends a Latin name as typed, without a second field, and shows the API’s name refusal next to it', async () => {
      const { api, texts } = await sellIn('en', () => apiError(400, 'invalid_beneficiary', 'beneficiary'));
      type(texts.form.beneficiary, 'Jürgen Müßig');
      fireEvent.click(screen.getByRole('button', { name: texts.form.submit.sell }));
      await waitFor(() => expect(errorOf(texts.form.beneficiary)).toBe(enErrors.invalid_beneficiary));
      expect(screen.queryByLabelText(texts.form.beneficiaryLatin)).toBeNull();
      expect(api.callsTo('POST /api/orders')[0]!.body).toMatchObject({ beneficiary: 'Jürgen Müßig' });
    });
  });
});
