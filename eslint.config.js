import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
