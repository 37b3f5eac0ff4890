/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { configSchema, loadConfig } from '../src/config';

/**
 * docs/configuration.md is the operator's list of settings: it must name every setting the server
 * reads, with the default the code gives it, and nothing the server does not read. .env.example,
 * what an operator sets, holds settings only, and every one production requires.
 */
const root = path.resolve(__dirname, '../..');
const doc = fs.readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
const configSource = fs.readFileSync(path.join(root, 'server/src/config.ts'), 'utf8');
const settings = Object.keys(configSchema.shape);

/** The rows `| \`NAME\` | default | used by | meaning |` of the table under a heading. */
function rows(heading: string): Map<string, string> {
  const section = doc.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`docs/configuration.md has no section "${heading}"`);
  const found = new Map<string, string>();
  for (const [, name, defaultCell] of section.matchAll(/^\| `([A-Z0-9_<>]+)` \| ([^|]+) \|/gm))
    found.set(name!, defaultCell!.trim());
  return found;
}

/** The default as the page writes it: `—` when unset, else the value in backticks (paths relative to the repository). */
function written(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string' && path.isAbsolute(value)) return `\`${path.relative(root, value)}/\``;
  return `\`${String(value)}\``;
}

describe('docs/configuration.md', () => {
  const documented = rows('Settings of the server');

  it('lists every setting of server/src/config.ts, and only those', () => {
    expect([...documented.keys()].sort()).toEqual([...settings].sort());
  });

  it('gives each setting the default the code gives it', () => {
    const defaults = configSchema.parse({}) as Record<string, unknown>;
    const wrong = settings
      .filter((name) => documented.get(name) !== written(defaults[name]))
      .map((name) => `${name}: page ${documented.get(name)}, code ${written(defaults[name])}`);
    expect(wrong).toEqual([]);
  });

  it('names only settings something reads in the table of the others', () => {
    const others = rows('Read beside those');
    expect(others.size).toBeGreaterThan(0);
    const gatsby = ['gatsby-config.ts', 'gatsby-node.ts', 'src/config.ts']
      .map((file) => fs.readFileSync(path.join(root, file), 'utf8'))
      .join('\n');
    for (const name of others.keys()) {
      const where = name.startsWith('GATSBY_')
        ? gatsby
        : name === 'CHROMIUM_PATH'
          ? fs.readFileSync(path.join(root, 'playwright.config.ts'), 'utf8')
          : configSource;
      expect({ name, read: where.includes(name.replace('<CURRENCY>', '')) }).toEqual({ name, read: true });
    }
  });
});

describe('.env.example', () => {
  const example = parseEnv(fs.readFileSync(path.join(root, '.env.example'), 'utf8'));
  const names = Object.keys(example);

  it('holds settings the server or the build reads, each documented', () => {
    const unknown = names.filter(
      (name) => !settings.includes(name) && !/^(EXPLORER_URL_[A-Z]+|GATSBY_[A-Z_]+)$/.test(name),
    );
    expect(unknown).toEqual([]);
    for (const name of names)
      expect({
        name,
        documented: doc.includes(`\`${name.replace(/^EXPLORER_URL_[A-Z]+$/, 'EXPLORER_URL_<CURRENCY>')}\``),
      }).toEqual({ name, documented: true });
  });

  it('names every setting production requires', () => {
    // Production with nothing else set: the error names each setting it requires.
    let message = '';
    try {
      loadConfig({ AUTH0_DOMAIN: 'muntly.eu.auth0.com', CHAIN_RPC_URL_XRP: 'http://localhost:5005' });
    } catch (error) {
      message = (error as Error).message;
    }
    const required = [...message.matchAll(/^ {2}([A-Z0-9_]+):/gm)].map(([, name]) => name!);
    expect(required).toEqual(
      expect.arrayContaining(['AUTH0_CLIENT_ID', 'DATABASE_URL', 'OPERATOR_NAME', 'SIGNER_KEY']),
    );
    expect(required.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('is not needed: the server starts in local mode without it', () => {
    expect(loadConfig({}).localIdp).toBe(true);
  });
});
