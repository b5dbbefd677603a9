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
      // `import vscode = require('vscode')` is how every file takes VS Code's API (see esbuild.mjs); a bare require()
      // stays an error except for the declared lazy bundles.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
    },
  },
  {
    // Tests are type-checked against tsconfig.test.json (src + test). Promise rules stay as strict as in src (a test
    // that forgets an await passes without testing anything). Relaxed on purpose: the no-unsafe-* rules (tests read
    // servers' JSON answers and assert on them field by field), require-await (fake prompters implement async
    // interfaces without awaiting) and no-control-regex (tests hunt for control characters on purpose).
    files: ['test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/api/**/*.ts', 'src/model/**/*.ts', 'src/documents/documentsModel.ts', 'src/documents/document.ts', 'src/projects/projectsModel.ts', 'src/documents/documentService.ts', 'src/projects/projectService.ts', 'src/files/names.ts', 'src/files/accountIndex.ts', 'src/files/pathMemory.ts', 'src/files/versions.ts', 'src/files/documentRecords.ts', 'src/content/**/*.ts', 'src/backup/backup.ts', 'src/backup/frontMatter.ts', 'src/backup/names.ts', 'src/files/saveWindow.ts', 'src/util/loadBundle.ts'],
    // The TypeScript rule, as it also sees `import x = require('vscode')`.
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/api and the models stay free of vscode.' }] }] },
  },
);
