// The house rules a reviewer would otherwise have to remember: where code may import from
// (docs/architecture.md, "Layers"), no import cycles, one import per module, imports in order, and
// no promise left floating on the server. `npm test` runs it; __tests__/lint-walls.test.ts proves
// each wall by linting a file that breaks it.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const modules = readdirSync(new URL('./server/src/modules/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const features = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The walls, as import-x/no-restricted-paths zones: `target` may not import from `from`. */
export const zones = [
  {
    target: './domain',
    from: ['./src', './server', './locales'],
    message: 'domain/ is shared by the browser and the API and depends on neither.',
  },
  { target: './server', from: './src', message: 'The API never imports site code; what both need lives in domain/.' },
  {
    target: ['./src', './gatsby-browser.tsx', './gatsby-ssr.tsx'],
    from: './server',
    message: 'The site never imports server code; what both need lives in domain/.',
  },
  {
    target: ['./src/ui', './src/app'],
    from: './src/features',
    message: "The UI kit and the app's plumbing import no feature; a feature imports them.",
  },
  {
    target: './src/ui',
    from: './src/app',
    message:
      "The UI kit is presentational: it imports none of the app's plumbing (session, server settings, connection, the page's frame); hand it what it shows.",
  },
  {
    target: ['./src/features', './src/ui', './src/app', './src/i18n'],
    from: './src/pages',
    message: 'Pages are the top of the site: they import features and components, never the other way round.',
  },
  {
    target: './src/i18n',
    from: './src/features',
    message: 'src/i18n/ (languages, routes, formatting) sits below the features and imports none.',
  },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature; move what both need to src/ui, src/app or domain/.',
  })),
  {
    target: './server/src/modules',
    from: ['./server/src/workers', './server/src/app.ts', './server/src/main.ts'],
    message:
      'A module is below the composition root: main.ts, app.ts and workers/ use modules, never the other way round.',
  },
  {
    target: ['./server/src/modules', './server/src/plugins'],
    from: './server/src/dev',
    message:
      'Local-mode stand-ins (dev/) are chosen in the composition root (main.ts, app.ts, workers/), never imported by a module.',
  },
  ...modules.map((module) => ({
    // Everything on the server outside this module; the module's own files may use each other.
    target: ['./server/src/*.ts', './server/src/!(modules)/**', `./server/src/modules/!(${module})/**`],
    from: `./server/src/modules/${module}/repository.ts`,
    message: `Outside ${module}/, go through its service: its repository (and the tables behind it) is its own.`,
  })),
  ...modules.map((module) => ({
    // Routes are registered by the composition root (app.ts) only.
    target: ['./server/src/!(app).ts', './server/src/!(modules)/**', `./server/src/modules/!(${module})/**`],
    from: `./server/src/modules/${module}/*routes.ts`,
    message: `Only app.ts registers ${module}'s routes; another module uses its service.`,
  })),
];

/** Modules are below the plugins (app.ts registers plugins, then modules): a plugin's types only. */
const pluginTypesOnly = {
  group: ['**/plugins/*', '**/plugins'],
  allowTypeImports: true,
  message: 'A module imports no plugin (app.ts registers them); `import type` of what a plugin declares is fine.',
};

export default tseslint.config(
  {
    ignores: [
      '**/public/',
      '**/.cache/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'coverage/',
      'server/migrations/',
      'static/',
      '**/*.wall-probe.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-duplicates': 'error',
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index', 'type'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      // Type-aware import rules that the TypeScript compiler already enforces, or that cost a
      // second resolution pass for nothing.
      'import-x/no-unresolved': 'off',
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
      'import-x/no-named-as-default': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'gatsby-browser.tsx', 'gatsby-ssr.tsx', 'domain/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // A promise nobody awaits on the server is a write or a mail that may fail unseen.
    files: ['server/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // domain/ runs in the browser and on the server alike: no Node built-in, no React, no Gatsby.
    files: ['domain/**/*.ts'],
    ignores: ['domain/**/__tests__/**', 'domain/**/*.test.ts'],
    rules: {
      'import-x/no-nodejs-modules': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['react', 'react-dom', 'react-i18next', 'gatsby'].map((name) => ({
            name,
            message: 'domain/ holds pure rules: React and Gatsby belong to the site (src/).',
          })),
          patterns: [
            {
              group: ['react/*', 'react-dom/*', 'gatsby-*'],
              message: 'domain/ holds pure rules: React and Gatsby belong to the site (src/).',
            },
          ],
        },
      ],
    },
  },
  {
    // The site uses the API's contracts (domain/contracts/) as types only: a zod schema imported as
    // a value would ship the validation of the server's answers, and zod, in the pages' bundles.
    files: ['src/**/*.{ts,tsx}', 'gatsby-browser.tsx', 'gatsby-ssr.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/domain/contracts', '**/domain/contracts/**', '\\#domain/contracts', '\\#domain/contracts/**'],
              allowTypeImports: true,
              message: 'The site imports the API contracts with `import type` only.',
            },
          ],
        },
      ],
    },
  },
  {
    // All SQL of a module is in its repository.ts: routes and services reach the tables only
    // through it, so neither the table objects, `sql` (from drizzle-orm or drizzle-orm/sql) nor the
    // raw `rows()` helper are imported anywhere else (a row type, imported with `import type`, may
    // be). No module file imports a plugin but for its types (the request's auth, say).
    files: ['server/src/modules/**/*.ts'],
    ignores: [
      'server/src/modules/**/repository.ts',
      // __tests__/lint-walls.test.ts's stand-in for a repository (its probe files carry this suffix).
      'server/src/modules/**/repository.wall-probe.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'drizzle-orm', importNames: ['sql'], message: "SQL belongs in the module's repository.ts." },
            { name: 'drizzle-orm/sql', message: "SQL belongs in the module's repository.ts." },
          ],
          patterns: [
            { group: ['drizzle-orm/sql/**'], message: "SQL belongs in the module's repository.ts." },
            {
              // The barrel and the owners' files (server/src/db/schema/<owner>.ts) alike.
              group: ['**/db/schema', '**/db/schema/*'],
              allowTypeImports: true,
              message:
                "The tables are reached through the module's repository.ts (row types may be imported with `import type`).",
            },
            {
              group: ['**/db/raw'],
              importNames: ['rows'],
              message: "Raw SQL (rows()) belongs in the module's repository.ts.",
            },
            pluginTypesOnly,
          ],
        },
      ],
    },
  },
  {
    // A repository may write SQL, but it still imports no plugin (but for types).
    files: ['server/src/modules/**/repository.ts', 'server/src/modules/**/repository.wall-probe.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [pluginTypesOnly] }] },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/__tests__/**', 'e2e/**', 'server/test/**'],
    languageOptions: { globals: { ...globals.jest } },
    // Tests read translation files and fake responses as loosely typed JSON.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
