// ESLint: typescript-eslint's recommended rules plus the import boundaries of STYLE.md:
// domain/ imports nothing of ours; the server never imports the client and vice versa;
// a page never imports another page's folder (shared pieces move to src/components); and no module
// imports itself back through others (import-x/no-cycle, over the whole tree).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import fs from 'node:fs';

const pagesDirs = fs.existsSync('src/pages')
  ? fs
      .readdirSync('src/pages', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'uploads', 'coverage', 'bench/out', '.e2e', 'src/services/generated'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No import cycles: two modules that need each other become one, or what both need moves to a
    // third. `import type` does not count (import-x ignores it: it is gone at run time), packages
    // are not followed (ignoreExternal), so the rule walks our own files only.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '../../server/*'],
              message: 'The client never imports server code; share through domain/.',
            },
          ],
        },
      ],
    },
  },
  ...pagesDirs.map((dir) => ({
    files: [`src/pages/${dir}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The client never imports server code; share through domain/.' },
            ...pagesDirs
              .filter((d) => d !== dir)
              .map((d) => ({
                group: [`../${d}/*`, `../${d}`, `**/pages/${d}/**`],
                message: 'A page never imports another page; move shared code to src/components.',
              })),
          ],
        },
      ],
    },
  })),
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '../src/*', '../../src/*'],
              message: 'The server never imports client code; share through domain/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A server module reaches another only through that module's services (`*.service.ts`) or its
    // public query API (`*.query.ts`, e.g. members/members.query.ts); its repositories, schemas and
    // helpers are its own. Known exception, to go: the op-log writer (oplog/, shared by every manager
    // action). Amount parsers live in server/http/amounts.ts, enum schemas in server/http/schemas.ts.
    files: ['server/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '../src/*', '../../src/*'],
              message: 'The server never imports client code; share through domain/.',
            },
            {
              regex: '^\\.\\./(?!\\.\\.?/|oplog/)[^/]+/(?![^/]+\\.(?:service|query)$)',
              message: 'Another module is reached only through its *.service or *.query file (its public API).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/src/**', '../server/*', '../src/*'],
              message: 'domain/ is pure and imports nothing of ours.',
            },
          ],
        },
      ],
    },
  },
);
