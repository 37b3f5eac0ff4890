import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from '#domain/errors';
import { languages } from '#domain/languages';
import { FAILURE_REASONS } from '#domain/orders';
import { SITE_ERROR_KEYS, type ErrorTextKey } from '../src/app/error-text';

/**
 * The site's error texts live in one namespace, locales/<lng>/errors.json: a text for every error
 * code the API answers with (domain/errors.ts), every reason an order can fail and the site's own
 * keys, in all six languages, and nothing else. Every page that can show one ships that
 * namespace in its page data.
 */
const root = path.join(__dirname, '..');
const expected = [...new Set<string>([...ERROR_CODES, ...FAILURE_REASONS, ...SITE_ERROR_KEYS])].sort();
const textsOf = (language: string) =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'errors.json'), 'utf8')) as Record<string, unknown>;

describe('error texts', () => {
  it.each(languages)(
    '%s has a text for every error code, failure reason and site key, and no stale key',
    (language) => {
      const texts = textsOf(language);
      expect(Object.keys(texts).sort()).toEqual(expected);
      const missing = expected.filter((key) => typeof texts[key] !== 'string' || (texts[key] as string).trim() === '');
      expect(missing).toEqual([]);
    },
  );

  it('are typed by code: a misspelt one does not compile', () => {
    const known: ErrorTextKey[] = ['invalid_address', 'amount_mismatch', 'generic'];
    // @ts-expect-error -- no such code
    const misspelt: ErrorTextKey = 'invalid_adress';
    expect([...known, misspelt].every((key) => typeof key === 'string')).toBe(true);
  });

  it('are read from no other namespace', () => {
    const elsewhere = languages.flatMap((language) =>
      fs
        .readdirSync(path.join(root, 'locales', language))
        .filter(
          (file) =>
            file !== 'errors.json' &&
            'errors' in (JSON.parse(fs.readFileSync(path.join(root, 'locales', language, file), 'utf8')) as object),
        )
        .map((file) => `${language}/${file}`),
    );
    expect(elsewhere).toEqual([]);
  });

  /** The site's modules a file imports, statically or lazily, followed to the end. */
  function reaches(file: string, target: string, seen = new Set<string>()): boolean {
    if (file === target) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((m) => m[1]!);
    return specifiers.some((specifier) => {
      const base = path.resolve(path.dirname(file), specifier);
      const resolved = ['.ts', '.tsx', '/index.ts', '/index.tsx']
        .map((ext) => base + ext)
        .find((candidate) => fs.existsSync(candidate));
      return resolved !== undefined && resolved.startsWith(path.join(root, 'src')) && reaches(resolved, target, seen);
    });
  }

  it('ship with exactly the pages that can show one', () => {
    const pagesDir = path.join(root, 'src/pages');
    const pages = (fs.readdirSync(pagesDir, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.tsx'))
      .map((file) => path.join(pagesDir, file));
    const helper = path.join(root, 'src/app/error-text.ts');
    const wrong = pages
      .map((page) => {
        const namespaces = /ns:\s*\{\s*in:\s*\[([^\]]*)\]/.exec(fs.readFileSync(page, 'utf8'))?.[1] ?? '';
        return {
          page: path.relative(pagesDir, page),
          showsErrors: reaches(page, helper),
          shipsErrors: namespaces.includes('"errors"'),
        };
      })
      .filter(({ showsErrors, shipsErrors }) => showsErrors !== shipsErrors);
    expect(wrong).toEqual([]);
  });
});
