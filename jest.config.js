// Two projects: server + domain tests in Node, client tests in jsdom (jest-fixed-jsdom keeps
// fetch, Blob and AbortController as Node has them, which the baseQuery tests rely on).
const common = {
  transform: { '^.+\\.[jt]sx?$': 'babel-jest' },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
};
module.exports = {
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
