/**
 * @jest-environment node
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layers of docs/architecture.md are walls that ESLint enforces (eslint.config.mjs). Each wall
 * is proved here by writing a file that breaks it where a developer would, and linting it with the
 * project's own configuration; a file next to it that keeps to the rules passes.
 */
const root = path.resolve(__dirname, '..');
const run = promisify(execFile);

type Probe = { file: string; code: string; expect: string | null; why: string };

// Probe files carry this suffix: eslint.config.mjs ignores them in normal runs and this test
// removes them, also when an earlier run was killed before it could.
const SUFFIX = '.wall-probe.ts';
const probe = (dir: string, name: string, code: string, expect: string | null, why: string): Probe => ({
  file: path.join(dir, `${name}${SUFFIX}`),
  code,
  expect,
  why,
});

const RESTRICTED = 'import-x/no-restricted-paths';
const NO_SQL = '@typescript-eslint/no-restricted-imports';
/** The same rule, for imports other than SQL that a layer may not make. */
const BANNED = NO_SQL;
const probes: Probe[] = [
  probe(
    'domain',
    'site',
    "import { formatMoney } from '../src/i18n/format';\nexport const f = formatMoney;\n",
    RESTRICTED,
    'domain/ imports no site code',
  ),
  probe(
    'domain',
    'server',
    "import { LOCAL_AUDIENCE } from '../server/src/config';\nexport const a = LOCAL_AUDIENCE;\n",
    RESTRICTED,
    'domain/ imports no server code',
  ),
  probe(
    'domain',
    'fine',
    "import { languages } from './languages';\nexport const l = languages;\n",
    null,
    'domain/ imports domain/',
  ),
  probe(
    'server/src/modules/orders',
    'site',
    "import { formatMoney } from '../../../../src/i18n/format';\nexport const f = formatMoney;\n",
    RESTRICTED,
    'the API imports no site code',
  ),
  probe(
    'src/app',
    'server',
    "import { LOCAL_AUDIENCE } from '../../server/src/config';\nexport const a = LOCAL_AUDIENCE;\n",
    RESTRICTED,
    'the site imports no server code',
  ),
  probe(
    'src/app',
    'feature',
    "import { useExchangeSession } from '../features/exchange/session';\nexport const s = useExchangeSession;\n",
    RESTRICTED,
    "the app's plumbing imports no feature",
  ),
  probe(
    'src/ui',
    'feature',
    "import { useExchangeSession } from '../features/exchange/session';\nexport const s = useExchangeSession;\n",
    RESTRICTED,
    'the UI kit imports no feature',
  ),
  probe(
    'src/ui',
    'plumbing',
    "import { useSession } from '../app/session';\nexport const s = useSession;\n",
    RESTRICTED,
    "the UI kit imports none of the app's plumbing",
  ),
  probe(
    'src/app',
    'ui-kit',
    "import { useHydrated } from '../ui/use-hydrated';\nexport const h = useHydrated;\n",
    null,
    "the app's plumbing uses the UI kit",
  ),
  probe(
    'src/features/identity',
    'other-feature',
    "import { useExchangeSession } from '../exchange/session';\nexport const s = useExchangeSession;\n",
    RESTRICTED,
    'a feature imports no other feature',
  ),
  probe(
    'src/features/exchange',
    'own-feature',
    "import { useExchangeSession } from './session';\nimport { useSession } from '../../app/session';\nimport { useHydrated } from '../../ui/use-hydrated';\nexport const s = [useExchangeSession, useSession, useHydrated];\n",
    null,
    'a feature imports its own files, the UI kit and the plumbing',
  ),
  probe(
    'server/src/modules/orders',
    'dev',
    "import { DEMO_USERS } from '../../dev/users';\nexport const u = DEMO_USERS;\n",
    RESTRICTED,
    'a module never imports the local stand-ins',
  ),
  probe(
    'server/src/plugins',
    'dev',
    "import { DEMO_USERS } from '../dev/users';\nexport const u = DEMO_USERS;\n",
    RESTRICTED,
    'a plugin never imports the local stand-ins',
  ),
  probe(
    'server/src/modules/orders',
    'repository',
    "import { accountsRepository } from '../accounts/repository';\nexport const r = accountsRepository;\n",
    RESTRICTED,
    "a module never uses another module's repository",
  ),
  probe(
    'server/src/modules/wallet',
    'routes',
    "import { orderRoutes } from '../orders/routes';\nexport const r = orderRoutes;\n",
    RESTRICTED,
    "a module never registers another module's routes",
  ),
  probe(
    'server/src/workers',
    'repository',
    "import { identityRepository } from '../modules/identity/repository';\nexport const r = identityRepository;\n",
    RESTRICTED,
    "a worker goes through a module's service",
  ),
  probe(
    'server/src/modules/orders',
    'service',
    "import { findAccountByEmail } from '../accounts/service';\nexport const f = findAccountByEmail;\n",
    null,
    "a module uses another module's service",
  ),
  probe(
    'server/src/modules/accounts',
    'own-repository',
    "import { accountsRepository } from './repository';\nexport const r = accountsRepository;\n",
    null,
    'a module uses its own repository',
  ),
  probe(
    'server/src/modules/faucet',
    'service',
    "import { eq } from 'drizzle-orm';\nimport { faucetRounds } from '../../db/schema';\nexport const byId = (id: number) => eq(faucetRounds.id, id);\n",
    NO_SQL,
    'a service reaches the tables only through its repository',
  ),
  probe(
    'server/src/modules/faucet',
    'service-owner-file',
    "import { eq } from 'drizzle-orm';\nimport { faucetRounds } from '../../db/schema/faucet';\nexport const byId = (id: number) => eq(faucetRounds.id, id);\n",
    NO_SQL,
    "a service reaches the tables only through its repository, from the owner's schema file too",
  ),
  probe(
    'server/src/modules/faucet',
    'routes',
    "import { sql } from 'drizzle-orm';\nexport const now = sql`now()`;\n",
    NO_SQL,
    'a route file writes no SQL',
  ),
  probe(
    'server/src/modules/faucet',
    'repository',
    "import { eq, sql } from 'drizzle-orm';\nimport { faucetRounds } from '../../db/schema';\nexport const byId = (id: number) => eq(faucetRounds.id, id);\nexport const now = sql`now()`;\n",
    null,
    'a repository imports the tables and sql',
  ),
  probe(
    'server/src/modules/faucet',
    'row-type',
    "import type { faucetRounds } from '../../db/schema';\nexport type Round = typeof faucetRounds.$inferSelect;\n",
    null,
    'a service may import a row type from the schema',
  ),
  probe(
    'server/src/modules/orders',
    'cycle-a',
    `import { b } from './cycle-b${SUFFIX.replace(/\.ts$/, '')}';\nexport const a = () => b;\n`,
    'import-x/no-cycle',
    'no import cycles',
  ),
  probe(
    'server/src/modules/orders',
    'cycle-b',
    `import { a } from './cycle-a${SUFFIX.replace(/\.ts$/, '')}';\nexport const b = () => a;\n`,
    'import-x/no-cycle',
    'no import cycles',
  ),
  // The walls an outside probe found open (issue 37), each closed and proved here.
  probe(
    'domain',
    'node',
    "import fs from 'node:fs';\nexport const read = fs.readFileSync;\n",
    'import-x/no-nodejs-modules',
    'domain/ imports no Node built-in',
  ),
  probe(
    'domain',
    'react',
    "import { useState } from 'react';\nexport const u = useState;\n",
    BANNED,
    'domain/ imports no React',
  ),
  probe(
    'server/src/modules/faucet',
    'sql-subpath',
    "import { sql } from 'drizzle-orm/sql';\nexport const now = sql`now()`;\n",
    BANNED,
    'a service gets no sql from drizzle-orm/sql either',
  ),
  probe(
    'server/src/modules/faucet',
    'raw-rows',
    "import { rows } from '../../db/raw';\nexport const r = rows;\n",
    BANNED,
    'a service runs no raw query through rows()',
  ),
  probe(
    'server/src/modules/faucet',
    'lock-key',
    "import { lockKey } from '../../db/raw';\nexport const l = lockKey;\n",
    null,
    'a service may take an advisory lock',
  ),
  probe(
    'server/src/modules/orders',
    'workers',
    "import { watcherHooks } from '../../workers';\nexport const w = watcherHooks;\n",
    RESTRICTED,
    'a module imports no worker',
  ),
  probe(
    'server/src/modules/orders',
    'app',
    "import { buildApp } from '../../app';\nexport const b = buildApp;\n",
    RESTRICTED,
    'a module imports no app.ts',
  ),
  probe(
    'server/src/modules/orders',
    'plugin',
    "import { authPlugin } from '../../plugins/auth';\nexport const p = authPlugin;\n",
    BANNED,
    'a module imports no plugin',
  ),
  probe(
    'server/src/modules/wallet',
    'repository',
    "import { authPlugin } from '../../plugins/auth';\nexport const p = authPlugin;\n",
    BANNED,
    'a repository imports no plugin',
  ),
  probe(
    'server/src/modules/orders',
    'plugin-type',
    "import type { Auth } from '../../plugins/auth';\nexport type A = Auth;\n",
    null,
    "a module may import a plugin's types",
  ),
  probe(
    'src/features/exchange',
    'page',
    "import Contact from '../../pages/contact';\nexport const c = Contact;\n",
    RESTRICTED,
    'a feature imports no page',
  ),
  probe(
    'src/ui',
    'page',
    "import Contact from '../pages/contact';\nexport const c = Contact;\n",
    RESTRICTED,
    'the UI kit imports no page',
  ),
  probe(
    'src/app',
    'page',
    "import Contact from '../pages/contact';\nexport const c = Contact;\n",
    RESTRICTED,
    "the app's plumbing imports no page",
  ),
  probe(
    'src/i18n',
    'feature',
    "import { useExchangeSession } from '../features/exchange/session';\nexport const s = useExchangeSession;\n",
    RESTRICTED,
    'src/i18n/ imports no feature',
  ),
  probe(
    'src/features/exchange',
    'contract-schema',
    "import { orderSchema } from '../../../domain/contracts/orders';\nexport const s = orderSchema;\n",
    BANNED,
    'the site imports no runtime schema from domain/contracts',
  ),
  probe(
    'src/features/exchange',
    'contract-schema-alias',
    "import { orderSchema } from '#domain/contracts/orders';\nexport const s = orderSchema;\n",
    BANNED,
    'the site imports no runtime schema from domain/contracts through the #domain alias either',
  ),
  probe(
    'src/features/exchange',
    'contract-type-alias',
    "import type { Order } from '#domain/contracts/orders';\nexport type O = Order;\n",
    null,
    'the site imports the contracts as types through the alias',
  ),
  probe(
    'src/features/exchange',
    'contract-type',
    "import type { Order } from '../../../domain/contracts/orders';\nexport type O = Order;\n",
    null,
    'the site imports the contracts as types',
  ),
  probe(
    'server/src/modules/orders',
    'floating',
    'export function start(work: () => Promise<void>): void {\n  work();\n}\n',
    '@typescript-eslint/no-floating-promises',
    'no promise left floating on the server',
  ),
];

function removeProbes(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) removeProbes(full);
    else if (entry.name.endsWith(SUFFIX)) fs.rmSync(full);
  }
}

type LintResult = { filePath: string; messages: { ruleId: string | null; message: string }[] };

describe('the walls between layers (eslint.config.mjs)', () => {
  let results: Map<string, LintResult['messages']>;

  beforeAll(async () => {
    for (const dir of ['domain', 'src', 'server/src']) removeProbes(path.join(root, dir));
    for (const p of probes) fs.writeFileSync(path.join(root, p.file), p.code);
    try {
      // --no-ignore: the configuration ignores probe files in ordinary runs. ESLint exits 1 when it
      // reports errors, which the probes are there to cause.
      const output = await run(
        path.join(root, 'node_modules/.bin/eslint'),
        ['--no-ignore', '--format', 'json', ...probes.map((p) => p.file)],
        { cwd: root, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { code?: number; stdout?: string }) => {
        if (error.code === 1 && error.stdout) return { stdout: error.stdout };
        throw error;
      });
      const parsed = JSON.parse(output.stdout) as LintResult[];
      results = new Map(parsed.map((r) => [path.relative(root, r.filePath), r.messages]));
    } finally {
      for (const p of probes) fs.rmSync(path.join(root, p.file), { force: true });
    }
  }, 180_000);

  it.each(probes.map((p) => [p.why, p] as const))('%s', (_why, p) => {
    const messages = results.get(p.file);
    expect(messages).toBeDefined();
    // A probe never fails to parse: that would prove nothing about the wall.
    expect(messages!.filter((m) => m.ruleId === null)).toEqual([]);
    const rules = messages!.map((m) => m.ruleId).filter((rule) => rule !== 'import-x/order');
    if (p.expect) expect(rules).toContain(p.expect);
    else expect(rules).toEqual([]);
  });
});

/**
 * Files may not form a cycle (import-x/no-cycle), and neither may the server's modules: a module
 * that needs another's service must not be needed by it, or the two are one module in disguise.
 */
describe('dependencies between server modules', () => {
  const modulesDir = path.join(root, 'server/src/modules');
  const modules = fs
    .readdirSync(modulesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  function importsOf(module: string): Set<string> {
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(SUFFIX)) {
          for (const [, spec] of fs.readFileSync(full, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
            const target = path.relative(modulesDir, path.resolve(path.dirname(full), spec!)).split(path.sep)[0]!;
            if (modules.includes(target) && target !== module) used.add(target);
          }
        }
      }
    };
    walk(path.join(modulesDir, module));
    return used;
  }

  it('form no cycle', () => {
    const graph = new Map(modules.map((m) => [m, importsOf(m)]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (module: string, trail: string[]) => {
      if (state.get(module) === 'done') return;
      if (state.get(module) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(module)), module].join(' → '));
        return;
      }
      state.set(module, 'open');
      for (const next of graph.get(module)!) visit(next, [...trail, module]);
      state.set(module, 'done');
    };
    for (const module of modules) visit(module, []);
    expect(cycles).toEqual([]);
    // The graph is not empty: the check reads real imports.
    expect(graph.get('orders')!.has('ledger')).toBe(true);
  });
});
