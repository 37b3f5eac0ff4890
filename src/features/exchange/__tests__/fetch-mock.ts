/**
 * A scripted API for the exchange islands' tests: each route answers from a handler, every call
 * is recorded (method, path, headers, body).
 */
export type Call = { method: string; path: string; headers: Record<string, string>; body: unknown };
type Answer = { status?: number; body: unknown };
type Handler = (call: Call) => Answer | Promise<Answer>;

export const CURRENCIES = [
  { code: 'BTC', name: 'Bitcoin', decimals: 8, support: 'full', ownWalletOnly: false },
  { code: 'ETH', name: 'Ethereum', decimals: 9, support: 'full', ownWalletOnly: false },
  { code: 'XRP', name: 'Ripple', decimals: 6, support: 'full', ownWalletOnly: false },
  { code: 'SOL', name: 'Solana', decimals: 9, support: 'partial', ownWalletOnly: true },
];

export const QUOTE = {
  rate: '0.00001250000',
  fee: '2.00',
  feeCurrency: 'EUR',
  networkFee: '0.00002000',
  networkFeeCurrency: 'BTC',
  amountConverted: '0.00097500',
  amountEur: '80.00',
  rateType: 'floating',
  note: '',
};

export function apiError(status: number, code: string, field?: string): Answer {
  return { status, body: { error: { code, message: code, ...(field ? { field } : {}) } } };
}

export function mockApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = jest.fn(async (url: string, init: RequestInit = {}) => {
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const call: Call = {
      method: init.method ?? 'GET',
      path,
      headers: (init.headers ?? {}) as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const key = `${call.method} ${path.split('?')[0]}`;
    const handler = routes[key];
    const answer = handler ? await handler(call) : apiError(404, 'not_found');
    return {
      ok: (answer.status ?? 200) < 400,
      status: answer.status ?? 200,
      headers: { get: () => 'application/json' },
      json: async () => answer.body,
      text: async () => JSON.stringify(answer.body),
    };
  });
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return {
    calls,
    fetchMock,
    callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path.split('?')[0]}` === key),
  };
}

export const ORDER = {
  reference: 'ABCD-EFGH-IJKL-MNOP',
  shortReference: 'ABCD-EFGH',
  type: 'buy',
  currencyFrom: 'EUR',
  currencyTo: 'BTC',
  amount: '80.00',
  amountEur: '80.00',
  address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  rateType: 'floating',
  paymentMethod: 'sepa',
  estimatedRate: '0.00001250000',
  estimatedAmountConverted: '0.00097500',
  estimatedNetworkFee: '0.00002000',
  fee: '2.00',
  status: 'new',
  date: '2025-03-01T10:00:00.000Z',
  sendToMyWallet: false,
  useMyWallet: false,
  paymentDetails: {
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    beneficiary: 'Muntly',
    amount: '80.00',
    reason: 'ABCD-EFGH',
    methods: ['sepa', 'sepa_instant'],
    epcPayload: 'BCD\n002\n1\nSCT\nCOBADEFFXXX\nMuntly\nDE89370400440532013000\nEUR80.00\n\n\nABCD-EFGH\n',
  },
  receiving: null,
  amountReceived: null,
  actualRate: null,
  actualAmountConverted: null,
  actualNetworkFee: null,
  actualFee: null,
  payoutTxid: null,
  failure: null,
  completedAt: null,
  businessHold: false,
  payoutAwaitingApproval: false,
  awaitingCode: false,
  reviewHold: false,
  keptInEuros: null,
} as const;
