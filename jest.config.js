/** Unit and integration tests (jsdom for the site, node for the server via a docblock). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config
const os = require('node:os');

module.exports = {
  // Jest's default is one worker fewer than the cores: on CI's two cores that is one process, which
  // runs every suite in band while the other core idles whenever a suite waits on PostgreSQL. Two
  // workers ran the whole suite (both databases) without a failure; each suite has a database of its
  // own, so they do not meet.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/__tests__', '<rootDir>/src', '<rootDir>/domain', '<rootDir>/server'],
  testMatch: ['**/__tests__/**/*.test.ts?(x)', '**/test/**/*.test.ts?(x)'],
  transform: { '^.+\\.[cm]?[jt]sx?$': ['babel-jest', { configFile: './jest.babel.config.js' }] },
  // Gatsby ships untranspiled ESM in these packages, jose is ESM-only, PGlite's CommonJS build still uses import() for Node built-ins (which jest's VM cannot run), and light-my-request (fastify's inject)
  // uses the ESM-only cookie@2 (and @fastify/swagger-ui content-disposition@2, the OpenAPI validator @apidevtools/json-schema-ref-parser), which Node 20 can
  // require but jest's module loader cannot; transliteration's browser build (jsdom) is ESM.
  transformIgnorePatterns: [
    '/node_modules/(?!(gatsby|gatsby-script|gatsby-link|jose|@electric-sql|@scure|@noble|micro-packed|micro-eth-signer|cookie|content-disposition|transliteration|@apidevtools)/)(?!.*/node_modules/(cookie|content-disposition)/)',
  ],
  moduleNameMapper: {
    '\\.css$': '<rootDir>/__tests__/support/style-stub.js',
    '^gatsby$': '<rootDir>/__tests__/support/gatsby-mock.tsx',
  },
  globals: { __PATH_PREFIX__: '' },
  // The first run transforms PGlite's large bundle, which can take longer than jest's 5 s default.
  // On a loaded 2-core machine a worker's first PGlite app (wasm compile, migrations) took over 30 s.
  testTimeout: 60_000,
  setupFilesAfterEnv: ['<rootDir>/__tests__/support/setup.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/.cache/', '/public/', '/e2e/', '/__tests__/support/'],
};
