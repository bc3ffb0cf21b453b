// One lint configuration for the whole monorepo. The boundary rules say what to do instead.
import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVICES = ['identity', 'challenge', 'wallet', 'media', 'moderation', 'notification'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      '**/test-results/**',
      '.local/**',
      '.turbo/**',
      'charts/**',
      'k8s/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: { 'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'] },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            "Read the environment only in the workspace's env module (src/env.ts) and pass values down.",
        },
      ],
    },
  },
  {
    // The env modules, and the scripts that build environments for the processes they launch.
    files: ['**/src/env.ts', 'scripts/**', 'load-tests/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['services/**/*.ts', 'gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: SERVICES.map((service) => `@challenge/${service}`).concat(
                SERVICES.map((service) => `@challenge/${service}/*`),
                ['**/services/*/**'],
              ),
              message:
                "A service never imports another service's code: read through federation, write through Kafka events (DESIGN.md section 3).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/*/src/**/*.ts'],
    ignores: ['services/*/src/data/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/data/generated/**', '@prisma/*'],
              message: 'Prisma lives in src/data/ only: add a function there and call it.',
            },
            {
              group: SERVICES.map((service) => `@challenge/${service}`).concat([
                '**/services/*/**',
              ]),
              message: "A service never imports another service's code.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/*/src/data/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^createMany(AndReturn)?$/]',
          message:
            'Prisma compiles every createMany anew (its plan cache skips them): write INSERT ... ON CONFLICT DO NOTHING in $executeRaw or $queryRaw (docs/adr/0104).',
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['load-tests/**/*.js'],
    languageOptions: {
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' },
    },
  },
);
