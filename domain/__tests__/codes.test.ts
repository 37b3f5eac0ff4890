import fc from 'fast-check';
import { codeFromBytes, normalizeCode } from '../codes';
import {
  accountKeyFromBytes,
  ACCOUNT_KEY_ALPHABET,
  ACCOUNT_KEY_LENGTH,
  depositReference,
  EXAMPLE_ACCOUNT_KEY,
  parseDepositReference,
} from '../references';

describe('codes ABCD-EFGH-IJKL-MNOP', () => {
  it('are made of 16 uniform letters in four groups', () => {
    const bytes = new Uint8Array(Array.from({ length: 32 }, (_, i) => (i * 37) % 256));
    expect(codeFromBytes(bytes)).toMatch(/^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/);
    // Bytes at or above 234 would bias the letters: they are skipped.
    expect(codeFromBytes(new Uint8Array(32).fill(250))).toBeNull();
  });

  it('are accepted in any case, with or without dashes and spaces', () => {
    expect(normalizeCode('abcd-efgh-ijkl-mnop')).toBe('ABCD-EFGH-IJKL-MNOP');
    expect(normalizeCode('ABCDEFGHIJKLMNOP')).toBe('ABCD-EFGH-IJKL-MNOP');
    expect(normalizeCode(' abcd efgh ijkl mnop ')).toBe('ABCD-EFGH-IJKL-MNOP');
  });

  it('round-trip through any way of typing them (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 64 }), (bytes) => {
        const code = codeFromBytes(bytes);
        if (code === null) return bytes.filter((b) => b < 234).length < 16;
        return (
          /^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/.test(code) &&
          normalizeCode(code.toLowerCase()) === code &&
          normalizeCode(code.replace(/-/g, '')) === code &&
          normalizeCode(code.replace(/-/g, ' ')) === code
        );
      }),
    );
  });

  it('reject anything else', () => {
    for (const bad of ['', 'ABCD-EFGH-IJKL', 'ABCD-EFGH-IJKL-MNO1', 'ABCD-EFGH-IJKL-MNOPQ', 'ÄBCD-EFGH-IJKL-MNOP'])
      expect(normalizeCode(bad)).toBeNull();
  });
});

describe('account keys and deposit references', () => {
  it('use only unambiguous letters and digits', () => {
    const key = accountKeyFromBytes(new Uint8Array(Array.from({ length: 16 }, (_, i) => i * 11)))!;
    expect(key).toHaveLength(8);
    expect([...key].every((c) => ACCOUNT_KEY_ALPHABET.includes(c))).toBe(true);
    expect(ACCOUNT_KEY_ALPHABET).not.toMatch(/[01OIL]/);
  });

  it('read deposit references as banks deliver them', () => {
    expect(depositReference('7KQ2M9AB')).toBe('DEPOSIT7KQ2M9AB');
    expect(parseDepositReference('deposit 7kq2 m9ab')).toEqual({ accountKey: '7KQ2M9AB' });
    expect(parseDepositReference('DEPOSIT7KQ2M9AB BTC')).toEqual({ accountKey: '7KQ2M9AB', currency: 'BTC' });
    expect(parseDepositReference('DEPOSIT7KQ2M9A')).toBeNull();
    expect(parseDepositReference('PAYMENT7KQ2M9AB')).toBeNull();
    expect(parseDepositReference('DEPOSIT7KQ2M9A0')).toBeNull();
  });
});

describe('the example deposit reference the site shows', () => {
  it('is one a real account could have: same length, same letters, read back as such', () => {
    expect(EXAMPLE_ACCOUNT_KEY).toHaveLength(ACCOUNT_KEY_LENGTH);
    expect(parseDepositReference(depositReference(EXAMPLE_ACCOUNT_KEY, 'BTC'))).toEqual({
      accountKey: EXAMPLE_ACCOUNT_KEY,
      currency: 'BTC',
    });
  });
});
