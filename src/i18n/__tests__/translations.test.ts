import fs from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { CURRENCIES } from '#domain/currencies';
import { languages, type Language } from '#domain/languages';

/**
 * Translations are complete, idiomatic enough to have no English left in them, and use the
 * plural forms each language needs (Russian and Ukrainian: one, few, many, other).
 */
const localesDir = path.join(__dirname, '../../../locales');
type Json = string | Json[] | { [key: string]: Json };

function flatten(value: Json, prefix: string, out: Record<string, string>) {
  if (typeof value === 'string') out[prefix] = value;
  else
    for (const [key, child] of Object.entries(value))
      flatten(child, prefix.endsWith(':') ? `${prefix}${key}` : `${prefix}.${key}`, out);
  return out;
}

function texts(language: Language): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of fs.readdirSync(path.join(localesDir, language)).filter((f) => f.endsWith('.json'))) {
    flatten(
      JSON.parse(fs.readFileSync(path.join(localesDir, language, file), 'utf8')),
      `${file.replace(/\.json$/, '')}:`,
      out,
    );
  }
  return out;
}

function resources(language: Language) {
  const dir = path.join(localesDir, language);
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace(/\.json$/, ''), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))]),
  );
}

/**
 * The words of a text. Placeholders, e-mail and web addresses, storage keys (muntly-session) and
 * quoted examples of what to type («deposit 7kq2m9 btc») are not words; "QR-коды" is the code QR
 * and a word.
 */
function words(text: string): string[] {
  return text
    .replace(/\{\{\s*\w+\s*\}\}/g, ' ')
    .replace(/[«“„"]([^«»“”„"]*\d[^«»“”„"]*)[»”“"]/g, ' ')
    .split(/[\s,;:!?()«»„“”"‘’'…—–/]+/)
    .map((token) => token.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((token) => token && !/[\d@_.]/.test(token) && !/^[a-z]+(-[a-z]+)+$/.test(token))
    .flatMap((token) => token.split('-'))
    .filter(Boolean);
}

// Names that stay as they are in every language: the product, currencies, services, projects.
const NAMES = new Set(
  [
    'Muntly',
    'PostgreSQL',
    'Google',
    'Analytics',
    'SEPA',
    'Instant',
    'No',
    'More',
    'Ransom',
    'Crypto',
    'Sheriff',
    'Europol',
    'TradingView',
    'Lightweight',
    'Charts',
    'Ether',
    'XRP',
    'GiroCode',
    'Bitcoin',
    // MiCA, the EU regulation a licence is granted under; networks and token standards by name.
    'MiCA',
    'Lightning',
    'Arbitrum',
    'Optimism',
    'Base',
    'Smart',
    'Chain',
    'Ledger',
    'CashTokens',
    'Ethereum',
    'Ripple',
    'Litecoin',
    'Dogecoin',
    'Cash',
    // The XRP Ledger's own term, as wallets display it, given next to its translation.
    'destination',
    'tag',
    ...CURRENCIES.flatMap((c) => c.name.split(' ')),
  ].map((name) => name.toLowerCase()),
);
const isCode = (word: string) => /^[A-Z0-9]{2,}$/.test(word) || /^[A-Z](-[A-Z])*$/.test(word);

/** English words that are not also words of German, French or Dutch. */
const ENGLISH_ONLY = new Set([
  'the',
  'and',
  'your',
  'you',
  'with',
  'please',
  'our',
  'will',
  'been',
  'which',
  'should',
  'would',
  'could',
  'their',
  'there',
  'this',
  'that',
  'these',
  'those',
  'from',
  'have',
  'has',
  'what',
  'when',
  'where',
  'why',
  'how',
  'about',
  'only',
  'than',
  'they',
  'them',
  'into',
  'are',
  'for',
  'it',
  'its',
  'not',
  'can',
  'cannot',
  'yet',
  'may',
  'must',
  'first',
  'any',
]);

const latinWords = (text: string) =>
  words(text).filter((w) => /[A-Za-z]/.test(w) && !isCode(w) && !NAMES.has(w.toLowerCase()));

describe('translations', () => {
  describe.each(['ru', 'uk'] as const)('%s', (language) => {
    it('contains no Latin-script words except names and codes', () => {
      const leftovers = Object.entries(texts(language))
        .map(([key, text]) => [key, latinWords(text)] as const)
        .filter(([, found]) => found.length > 0)
        .map(([key, found]) => `${key}: ${found.join(' ')}`);
      expect(leftovers).toEqual([]);
    });
  });

  describe.each(['de', 'fr', 'nl'] as const)('%s', (language) => {
    it('contains no English phrases', () => {
      const leftovers = Object.entries(texts(language))
        .map(
          ([key, text]) => [key, words(text).filter((w) => !isCode(w) && ENGLISH_ONLY.has(w.toLowerCase()))] as const,
        )
        .filter(([, found]) => found.length > 0)
        .map(([key, found]) => `${key}: ${found.join(' ')}`);
      expect(leftovers).toEqual([]);
    });
  });

  // One register per language, as the rest of the site speaks: Dutch "je" (never "u"), German "Sie" (never "du"), French "vous" (never "tu").
  it.each([
    ['nl', /(?<![\p{L}])(u|uw|U|Uw)(?![\p{L}])/u],
    ['de', /(?<![\p{L}])(du|Du|dich|Dich|dein\p{L}*|Dein\p{L}*)(?![\p{L}])/u],
    ['fr', /(?<![\p{L}'’])(tu|toi|ton|tes)(?![\p{L}])/u],
  ] as const)('%s addresses the reader in one register everywhere', (language, other) => {
    expect(
      Object.entries(texts(language)).filter(([, text]) => other.test(text.replace(/\{\{[^}]*\}\}/g, ''))),
    ).toEqual([]);
  });

  it('Dutch calls the Muntly wallet "portemonnee" everywhere (a wallet elsewhere may stay a wallet)', () => {
    expect(
      Object.entries(texts('nl')).filter(([, text]) =>
        /Muntly-wallet|\bje wallet\b|\buit de wallet\b|\bvia de wallet\b/i.test(text),
      ),
    ).toEqual([]);
  });

  it('the check catches English left in a translation', () => {
    expect(latinWords('Курс обновляется every 30 seconds')).toEqual(['every', 'seconds']);
    expect(
      latinWords(
        'Bitcoin, SEPA Instant и файлы куки; ключ muntly-session, адрес support@muntly.example, QR-код, ABCD-EFGH-IJKL-MNOP',
      ),
    ).toEqual([]);
    expect(latinWords('Регистр не важен: «deposit 7kq2m9 btc» тоже подойдёт, а deposit — нет')).toEqual(['deposit']);
    expect(words('Bitte geben Sie your reference an').filter((w) => ENGLISH_ONLY.has(w))).toEqual(['your']);
  });

  describe.each(languages)('plural forms in %s', (language) => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories.slice().sort();
    it('has exactly the plural forms of the language for every counted text', () => {
      const forms = new Map<string, string[]>();
      for (const key of Object.keys(texts(language))) {
        const match = /^(.*)_(zero|one|two|few|many|other)$/.exec(key);
        if (match) forms.set(match[1]!, [...(forms.get(match[1]!) ?? []), match[2]!]);
      }
      expect(forms.size).toBeGreaterThan(0);
      for (const [key, found] of forms) expect({ key, forms: found.sort() }).toEqual({ key, forms: categories });
    });
  });

  it('says 1, 3, 5 and 21 in Russian and Ukrainian the way people do', async () => {
    const say = async (language: Language, key: string, count: number) => {
      const i18n = i18next.createInstance();
      await i18n.init({
        lng: language,
        resources: { [language]: resources(language) },
        interpolation: { escapeValue: false },
      });
      return (i18n.t as unknown as (key: string, options: { count: number }) => string)(key, { count });
    };
    expect(await Promise.all([1, 3, 5, 21].map((n) => say('ru', 'info:news.indexHeading', n)))).toEqual([
      '1 статья',
      '3 статьи',
      '5 статей',
      '21 статья',
    ]);
    expect(await Promise.all([1, 3, 5, 21].map((n) => say('uk', 'info:charts.days', n)))).toEqual([
      '1 день',
      '3 дні',
      '5 днів',
      '21 день',
    ]);
    expect(await Promise.all([1, 7].map((n) => say('de', 'info:charts.days', n)))).toEqual(['1 Tag', '7 Tage']);
  });
});
