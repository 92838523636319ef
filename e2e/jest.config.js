// Browser tests: the production build served by the real server (dist/, `npm run build` first) on a
// throwaway SQLite database with demo data, driven by playwright-core in Debian's Chromium.
module.exports = {
  rootDir: '..',
  displayName: 'e2e',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/e2e/**/*.e2e.test.ts'],
  transform: { '^.+\\.[jt]sx?$': 'babel-jest' },
  globalSetup: '<rootDir>/e2e/globalSetup.ts',
  globalTeardown: '<rootDir>/e2e/globalTeardown.ts',
  testTimeout: 60_000,
  maxWorkers: 1,
};
