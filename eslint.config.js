// ESLint flat config: typescript-eslint's recommended rules over src/, plus the project's own
// bans (no wall clock or Math.random inside the simulation).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.test-build/**', '.fuzz-build/**', 'dist/**', 'node_modules/**', 'scratch/**', '.cache/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/sim/**/*.ts'],
    ignores: ['src/sim/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'the simulation takes its clock as an input' },
        { object: 'Math', property: 'random', message: 'the simulation takes its random source as an input' },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'src/sim is pure: no process access' }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'src/**/*.mjs', 'bin/*', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
