// ESLint: typescript-eslint's recommended rules plus the import boundaries of STYLE.md:
// domain/ imports nothing of ours; the server never imports the client and vice versa;
// a page never imports another page's folder (shared pieces move to src/components).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
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
