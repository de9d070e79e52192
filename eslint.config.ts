// Lint: typescript-eslint's recommended rules, the layer rule (fails the build), and no `any` in engine code.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './tools/lint/layers.ts';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**', '**/testdata/**', 'resources/**', 'bin/**', '.stryker-tmp*/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,cts,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { local: layers },
    rules: {
      'local/layers': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // useLoad and useCytoscapeGraph (components/) take a deps list as useEffect does: checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^(useLoad|useCytoscapeGraph)$' }],
      // Every graph zooms with the wheel as cytoscape does by default (it evens out mice and trackpads: about 3 % a
      // notch); a custom wheelSensitivity is a console warning on every graph drawn (docs/ui.md, "Graphs").
      'no-restricted-syntax': ['error', { selector: "Property[key.name='wheelSensitivity']", message: "Leave cytoscape's wheel zoom at its default (docs/ui.md, Graphs): a custom wheelSensitivity makes it warn on the console." }],
    },
  },
  {
    files: ['engines/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
);
