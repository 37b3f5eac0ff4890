/**
 * @jest-environment node
 */
import fc from 'fast-check';
import unhomoglyph from 'unhomoglyph';
import { emailLinkKey } from '../customer-key';

const CYRILLIC_A = '\u0430';
const CYRILLIC_CAPITAL_A = '\u0410';
const CYRILLIC_IE = '\u0435';

describe('emailLinkKey: one key per person, whatever the spelling', () => {
  it.each([
    [`${CYRILLIC_CAPITAL_A}nna.Smith+promo@GoogleMail.com`, 'leading Cyrillic А, dots, +tag, googlemail'],
    ['a.n.n.a.s.m.i.t.h@gmail.com', 'Gmail ignores dots'],
    ['ANNASMITH@gmail.com', 'upper case'],
    ['annasmith+x@gmail.com', 'sub-address'],
    [`${CYRILLIC_A}nn${CYRILLIC_A}smith@gm${CYRILLIC_A}il.com`, 'Cyrillic а, also in the domain'],
    ['ａｎｎａｓｍｉｔｈ＠ｇｍａｉｌ．ｃｏｍ', 'fullwidth letters, ＠ and ．'],
  ])('%j is annasmith@gmail.com (%s)', (input) => {
    expect(emailLinkKey(input)).toBe('annasmith@gmail.com');
  });

  it('keeps dots outside Gmail: anna.smith and annasmith are different mailboxes at example.com', () => {
    expect(emailLinkKey('anna.smith@example.com')).toBe('anna.smith@example.com');
    expect(emailLinkKey('annasmith@example.com')).toBe('annasmith@example.com');
  });
});

describe('emailLinkKey: each rule', () => {
  it('1. normalises with NFKC, then trims', () => {
    expect(emailLinkKey('  anna@example.com \n')).toBe('anna@example.com');
    expect(emailLinkKey('\u3000anna@example.com\u00a0')).toBe('anna@example.com'); // ideographic and no-break space
    expect(emailLinkKey('anna\uff20example\uff0ecom')).toBe('anna@example.com'); // FULLWIDTH COMMERCIAL AT and FULL STOP
    expect(emailLinkKey('\ufb01ona@example.com')).toBe('fiona@example.com'); // the ligature ﬁ
  });

  it('2. folds case fully: upper case, ß and ẞ as ss, final ς as σ', () => {
    expect(emailLinkKey('ANNA@EXAMPLE.COM')).toBe('anna@example.com');
    expect(emailLinkKey('straße@example.de')).toBe('strasse@example.de');
    expect(emailLinkKey('STRAẞE@example.de')).toBe('strasse@example.de');
    expect(emailLinkKey('STRASSE@example.de')).toBe('strasse@example.de');
    // ς, σ and Σ are one letter; its skeleton is Latin o (confusables.txt 03C3 ; 006F).
    const sigmas = ['ς@example.gr', 'σ@example.gr', 'Σ@example.gr'].map(emailLinkKey);
    expect(new Set(sigmas)).toEqual(new Set(['o@example.gr']));
  });

  it('3. folds confusables to their skeleton: Cyrillic е for a Latin e, and other look-alikes', () => {
    expect(emailLinkKey(`p${CYRILLIC_IE}ter@example.com`)).toBe('peter@example.com');
    expect(emailLinkKey('\u0441\u043e\u0440\u0430@example.com')).toBe('copa@example.com'); // Cyrillic с о р а
    expect(emailLinkKey('ge\u03bfrge@example.com')).toBe('george@example.com'); // Greek ο
    expect(emailLinkKey('\u217fary@example.com')).toBe('mary@example.com'); // SMALL ROMAN NUMERAL ONE THOUSAND
    expect(emailLinkKey('an\u200bna@example.com')).toBe('anna@example.com'); // a zero-width space is dropped
    expect(emailLinkKey('p\u0435ter@\u0435xample.com')).toBe(emailLinkKey('peter@example.com'));
  });

  // What the skeleton does to plain ASCII: confusables.txt maps m → rn, 1 → l, 0 → O, | → l,
  // I → l, ` → ', " → '' and % → º/₀. Case is folded first, so I is i before the skeleton and
  // stays apart from l. rn is written back as m, so m and rn meet at m.
  it.each([
    ['corn@example.com', 'com@example.com', 'rn and m'],
    ['anna1@example.com', 'annal@example.com', '1 and l'],
    ['b0b@example.com', 'bob@example.com', '0 and o'],
    ['an|a@example.com', 'anla@example.com', '| and l'],
    ['bernd@example.com', 'bemd@example.com', 'rn and m inside a name'],
  ])('%s and %s collide on purpose (%s): the standard calls them confusable', (a, b) => {
    expect(emailLinkKey(a)).toBe(emailLinkKey(b));
  });

  it('documents the keys of ASCII that the skeleton changes', () => {
    expect(emailLinkKey('corn@example.com')).toBe('com@example.com');
    expect(emailLinkKey('anna1@example.com')).toBe('annal@example.com');
    expect(emailLinkKey('b0b@example.com')).toBe('bob@example.com');
    expect(emailLinkKey('mia@163.com')).toBe('mia@l63.com');
    expect(emailLinkKey('Ivan@example.com')).toBe('ivan@example.com');
    expect(emailLinkKey('Ivan@example.com')).not.toBe(emailLinkKey('lvan@example.com'));
    expect(emailLinkKey('"a@b"@example.com')).toBe("''a@b''@example.com");
  });

  it('4. splits at the last @; the domain in lower case, an IDN as punycode, no trailing dot, googlemail.com as gmail.com', () => {
    expect(emailLinkKey('müller@bücher.de')).toBe('müller@xn--bcher-kva.de');
    expect(emailLinkKey('MÜLLER@BÜCHER.DE.')).toBe('müller@xn--bcher-kva.de');
    expect(emailLinkKey('müller@xn--bcher-kva.de')).toBe('müller@xn--bcher-kva.de');
    expect(emailLinkKey('anna@Example.COM.')).toBe('anna@example.com');
    expect(emailLinkKey('anna@googlemail.com')).toBe('anna@gmail.com');
    expect(emailLinkKey('anna@GOOGLEMAIL.COM')).toBe('anna@gmail.com');
    expect(emailLinkKey('a@b@example.com')).toBe('a@b@example.com');
  });

  it('5. drops a sub-address from the first + at every provider', () => {
    expect(emailLinkKey('anna+tag@example.com')).toBe('anna@example.com');
    expect(emailLinkKey('anna+tag+more@example.org')).toBe('anna@example.org');
    expect(emailLinkKey('anna.smith+shop@outlook.com')).toBe('anna.smith@outlook.com');
  });

  it('6. drops dots in the local part at Gmail only', () => {
    expect(emailLinkKey('a.n.n.a@gmail.com')).toBe('anna@gmail.com');
    expect(emailLinkKey('a.n.n.a@googlemail.com')).toBe('anna@gmail.com');
    expect(emailLinkKey('a.n.n.a@outlook.com')).toBe('a.n.n.a@outlook.com');
  });

  it('7. returns the folded form of text without @', () => {
    expect(emailLinkKey('ANNA.Smith')).toBe('anna.smith');
    expect(emailLinkKey('  ')).toBe('');
    expect(emailLinkKey('')).toBe('');
  });

  it('folds a domain named like an Object property as plain text', () => {
    expect(emailLinkKey('anna@__proto__')).toBe('anna@__proto__');
    expect(emailLinkKey('anna@constructor')).toBe('anna@constructor');
  });

  it('gives the same key for a key', () => {
    for (const input of [
      `${CYRILLIC_CAPITAL_A}nna.Smith+promo@GoogleMail.com`,
      'müller@bücher.de',
      'corn1@163.com',
      'straße@example.de',
      'ᐃ@example.com',
    ]) {
      const key = emailLinkKey(input);
      expect(emailLinkKey(key)).toBe(key);
    }
  });
});

describe('emailLinkKey: ordinary addresses stay apart', () => {
  it('gives different keys to addresses a person tells apart', () => {
    const addresses = [
      'anna@x.com',
      'anne@x.com',
      'ann@x.com',
      'hanna@x.com',
      'anna@x.org',
      'anna@y.com',
      'anna.smith@example.com',
      'annasmith@example.com',
      'anna_smith@example.com',
      'anna-smith@example.com',
      'anna2@example.com',
      'anna3@example.com',
      'ivan@example.com',
      'lvan@example.com',
      'maria@gmail.com',
      'mario@gmail.com',
    ];
    expect(new Set(addresses.map(emailLinkKey)).size).toBe(addresses.length);
  });

  // Letters without r (whose rn would read as m), digits without 0 and 1, and ., _, -:
  // the skeleton leaves these alone, so the key is the address itself and no two meet.
  const PLAIN = [...'abcdefghijklmnopqstuvwxyz23456789._-'];
  const plainLocal = fc.string({ unit: fc.constantFrom(...PLAIN), minLength: 1, maxLength: 20 });

  it('keeps a plain address as it is, so distinct plain addresses keep distinct keys', () => {
    fc.assert(
      fc.property(plainLocal, (local) => {
        expect(emailLinkKey(`${local}@example.com`)).toBe(`${local}@example.com`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('emailLinkKey: never throws', () => {
  const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({
      unit: fc.oneof(
        fc.constantFrom('@', '＠', '+', '.', ' ', '%', '/', ':', '[', 'xn--', CYRILLIC_A),
        loneSurrogate,
        fc.string({ unit: 'binary-ascii', maxLength: 3 }),
      ),
      maxLength: 20,
    }),
  );

  it('returns a string for a few hundred random strings', () => {
    fc.assert(
      fc.property(anyText, fc.option(anyText, { nil: undefined }), (local, domain) => {
        const input = domain === undefined ? local : `${local}@${domain}`;
        expect(typeof emailLinkKey(input)).toBe('string');
      }),
      { numRuns: 500 },
    );
  });
});

describe('unhomoglyph: the skeleton prototypes of Unicode confusables.txt (17.0.0)', () => {
  // Each row: the line of confusables.txt, its source code point and its prototype's code points.
  it.each([
    ['0435 ; 0065 ; MA # ( е → e ) CYRILLIC SMALL LETTER IE → LATIN SMALL LETTER E', 0x0435, [0x0065]],
    ['0430 ; 0061 ; MA # ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A', 0x0430, [0x0061]],
    ['043E ; 006F ; MA # ( о → o ) CYRILLIC SMALL LETTER O → LATIN SMALL LETTER O', 0x043e, [0x006f]],
    ['0440 ; 0070 ; MA # ( р → p ) CYRILLIC SMALL LETTER ER → LATIN SMALL LETTER P', 0x0440, [0x0070]],
    ['03BF ; 006F ; MA # ( ο → o ) GREEK SMALL LETTER OMICRON → LATIN SMALL LETTER O', 0x03bf, [0x006f]],
    ['FF45 ; 0065 ; MA # ( ｅ → e ) FULLWIDTH LATIN SMALL LETTER E → LATIN SMALL LETTER E', 0xff45, [0x0065]],
    [
      '217F ; 0072 006E ; MA # ( ⅿ → rn ) SMALL ROMAN NUMERAL ONE THOUSAND → LATIN SMALL LETTER R, LATIN SMALL LETTER N',
      0x217f,
      [0x0072, 0x006e],
    ],
    [
      '006D ; 0072 006E ; MA # ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, LATIN SMALL LETTER N',
      0x006d,
      [0x0072, 0x006e],
    ],
    ['0031 ; 006C ; MA # ( 1 → l ) DIGIT ONE → LATIN SMALL LETTER L', 0x0031, [0x006c]],
    ['0030 ; 004F ; MA # ( 0 → O ) DIGIT ZERO → LATIN CAPITAL LETTER O', 0x0030, [0x004f]],
  ])('%s', (_line, source, prototype) => {
    expect(unhomoglyph(String.fromCodePoint(source))).toBe(String.fromCodePoint(...prototype));
  });

  it('leaves the prototypes and the rest of ASCII letters alone', () => {
    expect(unhomoglyph('abcdefghijklnopqrstuvwxyz')).toBe('abcdefghijklnopqrstuvwxyz');
    expect(unhomoglyph('.+@-_')).toBe('.+@-_');
  });
});
