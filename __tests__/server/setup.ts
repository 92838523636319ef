// Each server test builds a fresh database (a PostgreSQL schema, migrated): on a busy 2-core CI
// machine Jest's 5 s default fails tests that are correct. A ceiling, not an expected time.
jest.setTimeout(60_000);
