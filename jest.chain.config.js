/** The chain suites (`npm run test:chain`): the app against a real node (litecoind -regtest), not part of `npm test`. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config, like jest.config.js
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testEnvironment: 'node',
  roots: ['<rootDir>/server/chain'],
  testMatch: ['**/*.chain.test.ts'],
  // One node per suite, and the suites one at a time: two cores.
  maxWorkers: 1,
};
