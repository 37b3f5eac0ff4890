/**
 * @jest-environment node
 */
import fc from 'fast-check';
import { loginLanding, safeReturnTo } from '../return-to';

const ORIGIN = 'https://muntly.example';
const HOME = '/de/';
const back = (value: string | null | undefined) => safeReturnTo(value, ORIGIN, HOME);

describe('safeReturnTo: after login, only a page of this site', () => {
  it('keeps a path of the site with its query and fragment', () => {
    expect(back('/wallet/')).toBe('/wallet/');
    expect(back('/uk/exchange/order-history/?page=2#top')).toBe('/uk/exchange/order-history/?page=2#top');
    expect(back(`${ORIGIN}/faucet/`)).toBe('/faucet/');
  });

  it('falls back to the home page without a value', () => {
    expect(back(null)).toBe(HOME);
    expect(back(undefined)).toBe(HOME);
    expect(back('')).toBe(HOME);
  });

  // What URLSearchParams hands over for ?returnTo=/%09/evil.example/ and its relatives: the
  // browser drops tabs and newlines from a URL, and what is left is protocol-relative.
  it.each([
    '/\t/evil.example/',
    '/\n/evil.example/',
    '/\r/evil.example/',
    '/\r\n/evil.example',
    '\t//evil.example',
    '/\t\\evil.example',
  ])('refuses control characters that hide a host: %j', (value) => {
    expect(back(value)).toBe(HOME);
  });

  it('never lets a NUL through to the address bar', () => {
    const result = back('/\0/evil.example');
    expect(result).not.toContain('\0');
    expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
  });

  it.each([
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    '/\\/evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
  ])('refuses backslashes and dot segments that make a host: %j', (value) => {
    expect(back(value)).toBe(HOME);
  });

  it.each(['/%2F%2Fevil.example', '/%2f%2fevil.example', '%2f%2fevil.example', '/%5Cevil.example'])(
    'keeps encoded slashes as a harmless path on this site: %j',
    (value) => {
      const result = back(value);
      expect(result.startsWith('//')).toBe(false);
      expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
    },
  );

  it.each([
    '//evil.example',
    '//evil.example/wallet/',
    'https://evil.example/',
    'http://muntly.example/',
    'https://muntly.example.evil.example/',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'mailto:a@example.com',
    'https://user@evil.example',
  ])('refuses other origins and schemes: %j', (value) => {
    expect(back(value)).toBe(HOME);
  });

  it('whatever the input, the result stays on the site, as a path and as a URL', () => {
    const tricky = fc.constantFrom(
      '/',
      '\\',
      '//',
      '\t',
      '\n',
      '\r',
      '\0',
      ' ',
      '.',
      '..',
      '%2f',
      '%5c',
      '%09',
      ':',
      '@',
      '?',
      '#',
      'evil.example',
      'javascript:',
      'https:',
      ORIGIN,
    );
    const input = fc.oneof(
      fc.string(),
      fc.webUrl(),
      fc.array(tricky, { maxLength: 8 }).map((parts) => parts.join('')),
      fc.tuple(fc.array(tricky, { maxLength: 4 }), fc.webPath()).map(([head, tail]) => head.join('') + tail),
    );
    fc.assert(
      fc.property(input, (value) => {
        const result = back(value);
        expect(result.startsWith('/')).toBe(true);
        expect(/^\/[/\\]/.test(result)).toBe(false);
        expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
        // As the browser reads a link or `location` given this path: a second resolution agrees.
        expect(new URL(new URL(result, ORIGIN).href).origin).toBe(ORIGIN);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("loginLanding: a login ends on the user's own home unless they came from a page (issue 35)", () => {
  const land = (value: string | null | undefined) => loginLanding(value, ORIGIN, '/de/wallet/');
  it('lands on the wallet home without a recorded page, from the home page and from the login pages', () => {
    for (const value of [
      null,
      undefined,
      '',
      '/',
      '/de/',
      '/uk/?x=1',
      '/login/',
      '/de/login/?returnTo=%2F',
      '/register/',
      '/ru/logout/',
      '//evil.example/',
    ])
      expect(land(value)).toBe('/de/wallet/');
  });
  it('keeps any other page of the site', () => {
    expect(land('/fr/fees/')).toBe('/fr/fees/');
    expect(land('/wallet/send/?send=abc')).toBe('/wallet/send/?send=abc');
  });
});
