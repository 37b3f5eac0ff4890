/**
 * @jest-environment node
 */
import fc from 'fast-check';
import {
  findReferences,
  hasCheckLetter,
  MAX_REMITTANCE_SCANNED,
  parseDepositReference,
  referenceCheckLetter,
  withCheckLetter,
} from '../references';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letters = (n: number) => fc.string({ unit: fc.constantFrom(...LETTERS), minLength: n, maxLength: n });
const isCurrency = (code: string) => ['BTC', 'ETH', 'EUR', 'XRP'].includes(code);
/** A short reference with its check letter, as a new order has it. */
const reference = (seven: string) => `${seven.slice(0, 4)}-${seven.slice(4)}${referenceCheckLetter(seven)}`;

describe('the check letter of an order reference (ISO/IEC 7064 MOD 27,26)', () => {
  it('catches every single wrong letter', () => {
    fc.assert(
      fc.property(letters(7), fc.integer({ min: 0, max: 7 }), fc.constantFrom(...LETTERS), (seven, at, letter) => {
        const full = seven + referenceCheckLetter(seven);
        fc.pre(full[at] !== letter);
        expect(hasCheckLetter(full.slice(0, at) + letter + full.slice(at + 1))).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('catches all but a few in a thousand swaps of two neighbouring letters', () => {
    let swaps = 0;
    let missed = 0;
    fc.assert(
      fc.property(letters(7), (seven) => {
        const full = seven + referenceCheckLetter(seven);
        for (let i = 0; i < 7; i++) {
          if (full[i] === full[i + 1]) continue;
          swaps++;
          if (hasCheckLetter(full.slice(0, i) + full[i + 1] + full[i] + full.slice(i + 2))) missed++;
        }
      }),
      { numRuns: 3000 },
    );
    expect(missed / swaps).toBeLessThan(0.01);
  });

  it('makes the 8th letter of a 16-letter reference the check letter of the first seven, and leaves the rest', () => {
    fc.assert(
      fc.property(letters(16), (sixteen) => {
        const made = withCheckLetter(sixteen);
        expect(made.slice(0, 7)).toBe(sixteen.slice(0, 7));
        expect(made.slice(8)).toBe(sixteen.slice(8));
        expect(hasCheckLetter(made.slice(0, 8))).toBe(true);
      }),
    );
  });
});

describe('references found where payers write them', () => {
  const ref = reference('DWACTPU');

  it.each([
    ['words around it', `Betaling order ${ref} dank u`],
    ['lower case, no dash', `zahlung ${ref.toLowerCase().replace('-', '')}`],
    ['a space instead of the dash', ref.replace('-', ' ')],
    ['wrapped by the bank in the middle', `Bestellung ${ref.slice(0, 7)}\n${ref.slice(7)} danke`],
    ['dots and slashes around it', `Ref./${ref}/Kauf`],
    ['the whole 16-letter reference', `${ref}-QWER-TYUI`],
    [
      'in full-width letters (a phone keyboard)',
      `注文 ${[...ref].map((c) => (c === '-' ? c : String.fromCharCode(c.charCodeAt(0) + 0xfee0))).join('')}`,
    ],
    ['with accents a keyboard added', `Zahlung ${ref.replace('A', 'Á')}`],
  ])('finds a short reference with %s', (_, text) => {
    expect(findReferences(text, isCurrency).orders).toContain(ref);
  });

  it('finds an old reference (no check letter) only when it is the whole reason, or a whole line of it', () => {
    const seven = 'ABCDEFG';
    const old = `ABCD-EFG${[...LETTERS].find((c) => c !== referenceCheckLetter(seven))}`;
    expect(findReferences(` ${old.toLowerCase()} `, isCurrency).orders).toEqual([old]);
    expect(findReferences(`Zahlung ${old}`, isCurrency).orders).not.toContain(old);
    // Alone on its line beside what the bank added (the entry's additional information): still the whole of that piece.
    expect(findReferences(`${old}\nSEPA-Gutschrift`, isCurrency).orders).toContain(old);
  });

  it('names a reference written twice once, and two different references both', () => {
    const other = reference('QWERTYU');
    expect(findReferences(`${ref} ${ref}`, isCurrency).orders.filter((r) => r === ref)).toHaveLength(1);
    expect(findReferences(`${ref} and ${other}`, isCurrency).orders).toEqual(expect.arrayContaining([ref, other]));
  });

  it('finds deposit references among words, the key wrapped or spaced, with a currency only when the next word is one', () => {
    expect(findReferences('Einzahlung deposit 7kq2 m9xa eth danke', isCurrency).deposits).toEqual([
      { accountKey: '7KQ2M9XA', currency: 'ETH' },
    ]);
    expect(findReferences('Einzahlung DEPOSIT7KQ2\nM9XA danke', isCurrency).deposits).toEqual([
      { accountKey: '7KQ2M9XA' },
    ]);
    expect(findReferences('DEPOSIT7KQ2M9XABTC', isCurrency).deposits).toEqual([
      { accountKey: '7KQ2M9XA', currency: 'BTC' },
    ]);
    expect(findReferences('DEPOSIT 7KQ2M9XA ABC', isCurrency).deposits).toEqual([{ accountKey: '7KQ2M9XA' }]);
    // 0, O, 1, I and L are not in account keys: no key.
    expect(findReferences('DEPOSIT 7KQ2M9X0', isCurrency).deposits).toEqual([]);
  });

  it('agrees with the strict deposit reader on every reason that reader accepts', () => {
    const keySymbol = fc.constantFrom(...'ABCDEFGHJKMNPQRSTUVWXYZ23456789');
    fc.assert(
      fc.property(
        fc.string({ unit: keySymbol, minLength: 8, maxLength: 8 }),
        fc.constantFrom('', ' BTC', ' eth', 'XRP'),
        (key, currency) => {
          const reason = `deposit ${key}${currency}`;
          const strict = parseDepositReference(reason);
          fc.pre(strict !== null && (!strict.currency || isCurrency(strict.currency)));
          expect(findReferences(reason, isCurrency).deposits).toEqual([strict]);
        },
      ),
    );
  });

  it('in a reason without a reference, finds no deposit and only about one run of letters in 26 as a candidate (looked up among open orders, which rules them out)', () => {
    expect(findReferences('Rechnung 4711 vielen Dank', isCurrency).deposits).toEqual([]);
    const prose = 'Miete November Nebenkosten Abrechnung Wohnung Hauptstrasse '.repeat(10);
    expect(findReferences(prose, isCurrency).orders.length).toBeLessThan(prose.length / 10);
  });

  it('reads only the first MAX_REMITTANCE_SCANNED characters of an oversized reason: a megabyte of letters makes no more than a few dozen candidates', () => {
    const huge = `${ref} ${'QWERTZUIOPASDFGHJKLYXCVBNM'.repeat(40_000)}`;
    const found = findReferences(huge, isCurrency);
    expect(found.orders).toContain(ref);
    expect(found.orders.length).toBeLessThan(MAX_REMITTANCE_SCANNED / 10);
  });
});
