// Two projects: server + domain tests in Node, client tests in jsdom (jest-fixed-jsdom keeps
// fetch, Blob and AbortController as Node has them, which the baseQuery tests rely on).
const common = {
  transform: { '^.+\\.[jt]sx?$': 'babel-jest' },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
};
module.exports = {
  // Every core: Jest's default leaves one for itself, which on the project's 2-core machines ran the
  // suite in one worker (7.3 min for SQLite + web, 3.9 with two); the main process mostly waits.
  maxWorkers: '100%',
  projects: [
    {
      ...common,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/__tests__/server/**/*.test.ts', '<rootDir>/__tests__/domain/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/server/setup.ts'],
    },
    {
      ...common,
      displayName: 'web',
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/__tests__/src/**/*.test.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/src/setup.ts'],
      moduleNameMapper: { '\\.(css|svg|png)$': '<rootDir>/__tests__/src/fileStub.js' },
    },
  ],
};
