import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.test-runs/**', '.bench/**', 'test-screenshots/**', '*.mjs', 'test/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A leading underscore marks a parameter or binding left unused on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/api/**/*.ts', 'src/model/**/*.ts', 'src/services/documentService.ts', 'src/services/projectService.ts', 'src/fs/names.ts', 'src/fs/accountIndex.ts', 'src/fs/versions.ts', 'src/status/usageFormat.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/api and the models stay free of vscode.' }] }] },
  },
);
