import fs from 'node:fs';
import path from 'node:path';
import { CURRENCIES } from '#domain/currencies';
import { languages } from '#domain/languages';

/**
 * Every text exists in all six languages with the same keys and placeholders, and the other
 * languages are translations, not English copies.
 */
const localesDir = path.join(__dirname, '../locales');
type Json = string | Json[] | { [key: string]: Json };

function flatten(value: Json, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.entries(value).reduce<Record<string, string>>(
    (out, [key, child]) => ({ ...out, ...flatten(child, prefix ? `${prefix}.${key}` : key) }),
    {},
  );
}

function load(language: string): Record<string, string> {
  const dir = path.join(localesDir, language);
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .reduce<Record<string, string>>((out, file) => {
      const ns = file.replace(/\.json$/, '');
      return { ...out, ...flatten(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), `${ns}:`) };
    }, {});
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

// Words that stay the same in several languages (names, codes, international loanwords).
const sameInOtherLanguages = new Set([
  'Muntly',
  'Forum',
  'Status',
  'Chatbots',
  'Contact',
  'Menu', // French and Dutch write it as English does
  'Transactions',
  'Wallet',
  'Deposit',
  'IBAN',
  'BIC',
  'IBAN: {{value}}', // a line of the payment details in emails
  'BIC: {{value}}',
  'Contact: {{value}}', // Dutch writes the email footer's contact line as English does
  'Mx',
  'Postcode',
  'Status: {{phase}}',
  'Code (ABCD-EFGH-IJKL-MNOP)',
  'Date',
  'Type',
  'Label',
  'Order',
  'API',
  'Website',
  'Database',
  'Bitcoin', // the chain a draw mixes a block of (faucet), a name
  '{{count}} article',
  '{{count}} articles',
]);

const en = load('en');

/** Currency names (currencies:names.*) are brand names, written alike in the languages of Latin script; Russian and Ukrainian write them in Cyrillic. */
const CURRENCY_NAME = /^currencies:\.names\./;
const CYRILLIC = ['ru', 'uk'];

/**
 * Plural forms (i18next's key_one, key_few, key_many, key_other) differ per language: Russian and
 * Ukrainian need four, French three, English two. They are compared by their base key, and each
 * language must have exactly the forms its plural rules use.
 */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseKeys = (texts: Record<string, string>) =>
  [...new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')))].sort();
const englishForm = (key: string) => en[key] ?? en[`${key.replace(PLURAL, '')}_other`];

describe('locales', () => {
  it('has a folder per interface language', () => {
    expect(fs.readdirSync(localesDir).sort()).toEqual([...languages].sort());
  });

  it('has the namespaces of English in every language', () => {
    const namespaces = (lng: string) => fs.readdirSync(path.join(localesDir, lng)).sort();
    for (const language of languages) expect(namespaces(language)).toEqual(namespaces('en'));
  });

  describe.each(languages.filter((l) => l !== 'en'))('%s', (language) => {
    const translated = load(language);

    it('has exactly the keys of English', () => {
      expect(baseKeys(translated)).toEqual(baseKeys(en));
    });

    it('keeps every placeholder of the English text', () => {
      for (const [key, text] of Object.entries(translated)) {
        expect({ key, placeholders: placeholders(text) }).toEqual({
          key,
          placeholders: placeholders(englishForm(key) ?? ''),
        });
      }
    });

    it('translates every phrase (no English copies)', () => {
      const copies = Object.entries(en)
        .filter(([key, text]) => translated[key] === text && !sameInOtherLanguages.has(text))
        .filter(([key]) => CYRILLIC.includes(language) || !CURRENCY_NAME.test(key))
        .map(([key]) => key);
      expect(copies).toEqual([]);
    });
  });

  it('names every listed currency, in Cyrillic in Russian and Ukrainian', () => {
    expect(CURRENCIES.map((c) => [c.code, en[`currencies:.names.${c.code}`]])).toEqual(
      CURRENCIES.map((c) => [c.code, c.name]),
    );
    for (const language of CYRILLIC) {
      const latinOnly = Object.entries(load(language)).filter(
        ([key, name]) => CURRENCY_NAME.test(key) && !/[а-яёіїєґ]/i.test(name),
      );
      expect(latinOnly).toEqual([]);
    }
  });

  /** The texts of a language and its news articles, by file and key. */
  const prose = (language: string): [string, string][] => {
    const newsDir = path.join(__dirname, '../content/news', language);
    const news = fs
      .readdirSync(newsDir)
      .map((file): [string, string] => [`news/${file}`, fs.readFileSync(path.join(newsDir, file), 'utf8')]);
    return [...Object.entries(load(language)), ...news];
  };

  it.each(languages)('%s writes amounts of euros as it writes money, never with the code ("0.01 EUR")', (language) => {
    // The site formats amounts with "€" (src/i18n/format.ts); a text says an amount the same way, or in words.
    const withCode = prose(language).filter(([, text]) => /\d[ \u00a0]?EUR\b|\bEUR[ \u00a0]?\d/.test(text));
    expect(withCode.map(([key]) => key)).toEqual([]);
  });

  it.each(CYRILLIC)('%s names the euro and the crypto-currencies in its own words in running text', (language) => {
    // "евро"/"євро", "биткоин"/"біткоїн": the code EUR only to gloss the euro once, "(EUR)".
    const latin = prose(language).filter(([, text]) =>
      /\b(Bitcoin|Ethereum|Ether|Ripple|Litecoin|Dogecoin|Tether)\b|(?<!\()\bEUR\b(?!\))/.test(text),
    );
    expect(latin.map(([key]) => key)).toEqual([]);
  });

  it.each(languages)('%s has exactly the plural forms its grammar needs', (language) => {
    const texts = load(language);
    const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories.slice().sort();
    const plurals = new Map<string, string[]>();
    for (const key of Object.keys(texts)) {
      const match = PLURAL.exec(key);
      if (match) plurals.set(key.slice(0, match.index), [...(plurals.get(key.slice(0, match.index)) ?? []), match[1]!]);
    }
    for (const [key, forms] of plurals) expect({ key, forms: forms.sort() }).toEqual({ key, forms: needed });
  });

  it('names the request button by its own words where a next step says to press it', () => {
    for (const language of languages) {
      const identity = JSON.parse(fs.readFileSync(path.join(localesDir, language, 'identity.json'), 'utf8'));
      expect({ language, step: identity.steps.action.request }).toEqual({
        language,
        step: expect.stringContaining(identity.me.request),
      });
    }
  });

  it('has no empty texts', () => {
    for (const language of languages) {
      const empty = Object.entries(load(language)).filter(([, text]) => text.trim() === '');
      expect(empty).toEqual([]);
    }
  });
});
