import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * node:http's values come from src/lib/node-http.ts only (its comment says why: an ES import of
 * node:http loads Node.js's fetch client on Node.js 24); its types may be imported anywhere.
 */
const NODE_HTTP = {
  name: 'node:http',
  allowTypeImports: true,
  message: "node:http's values come from src/lib/node-http.ts (an ES import of it loads undici).",
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'web/dist/', 'coverage/', 'data/', 'web/src/lib/generated/'] },
  js.configs.recommended,
  // Type-checked rules: floating and misused promises, unsafe `any`, needless assertions.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'error',
      // Fastify's plugins and hooks are async functions by contract (FastifyPluginAsync, the
      // async hook signatures), most of them without an await: the rule would only add noise.
      '@typescript-eslint/require-await': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    // A file over 300 lines usually holds two ideas (../shared/STYLE.md): split it by idea.
    files: ['src/**/*.ts', 'web/src/**/*.ts'],
    ignores: ['web/src/locales/**', 'web/src/lib/generated/**'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  // Layers (docs/architecture.md): a lower layer never imports a higher one.
  {
    // The page imports from the service only what both share: the pure rules (src/shared/) and
    // the features' policies; anything else only as a type.
    files: ['web/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!shared/|[a-z-]+/policy\\.ts$)',
              allowTypeImports: true,
              message: 'The page takes from the service only src/shared/ and the policies (types: anything).',
            },
          ],
        },
      ],
      // Written once, without ICU, so the server's rendering of the first view loads none of it.
      'no-restricted-properties': [
        'error',
        ...['PluralRules', 'NumberFormat', 'RelativeTimeFormat'].map((property) => ({
          object: 'Intl',
          property,
          message: 'Numbers, plural forms and relative times come from src/shared/formats.ts.',
        })),
      ],
    },
  },
  {
    // A migration is history: it stays as it ran, whatever the features become.
    files: ['src/db/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!lib/|shared/|db/)',
              allowTypeImports: true,
              message: 'Migrations import only src/db/, src/lib/ and src/shared/ (features: types only).',
            },
          ],
        },
      ],
    },
  },
  {
    // The service calls out through src/lib/outbound.ts (Node.js's own HTTP client), never fetch,
    // and formats no date or number through ICU.
    files: ['src/**/*.ts'],
    ignores: ['src/db/migrations/**/*.ts', 'src/lib/node-http.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NODE_HTTP] }],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'The service calls out through src/lib/outbound.ts, not fetch (undici).' },
        // Intl’s first format or collator loads ICU's code and data for the process's life (6-8 MiB).
        { name: 'Intl', message: 'Time zones come from src/lib/time-zone.ts, orders from src/lib/order.ts.' },
      ],
      'no-restricted-properties': [
        'error',
        ...['localeCompare', 'toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'].map(
          (property) => ({
            property,
            message: 'Locale formats load ICU for the process; see src/lib/order.ts and src/mail/words.ts.',
          }),
        ),
      ],
    },
  },
  {
    // The infrastructure knows no feature: features register with it, and app.ts (the one
    // place that knows both) hands it what it asks of them.
    files: [
      'src/cache/**/*.ts',
      'src/lib/**/*.ts',
      'src/db/**/*.ts',
      'src/events/**/*.ts',
      'src/sessions/**/*.ts',
      'src/plugins/**/*.ts',
    ],
    ignores: ['src/db/migrations/**/*.ts', 'src/lib/node-http.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NODE_HTTP],
          patterns: [
            {
              regex:
                '^(\\.\\./)+(?!\\.\\./)(?!db/|lib/|shared/|cache/|events/|sessions/|plugins/|config/|errors\\.ts$)',
              message:
                'The infrastructure (src/cache, lib, db, events, sessions, plugins) imports no feature folder.',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript (the bin shim, config files) has no types to check.
    files: ['**/*.js', '**/*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests and the bench read parsed JSON answers, which are `any` by nature; asserting
    // on them is the point. Promises and assertions are still checked.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
