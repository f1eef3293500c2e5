// ESLint over the whole tree (`npm run lint`, in CI at zero warnings): @eslint/js and typescript-eslint
// recommended, lines at most 140 characters. The type-aware rule sets are left out: on two cores they
// took over two minutes and 2 GB for a run that takes under twenty seconds without them, and the
// compiler's strict mode (npm run typecheck) already covers most of what they add.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The scripts (*.mjs) run on Node: their globals are those of the Node running the linter.
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'src/generated/**',
      'clients/typescript/schema.d.ts',
      'bench/results/**',
      'coverage/**',
      'test-artifacts/**',
      'uploads/**',
      'data/**',
      '.scratch-*/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeGlobals },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A regular expression literal cannot be cut without building it from strings, which reads worse.
      'max-len': ['error', { code: 140, ignoreRegExpLiterals: true }],
      // `const { secret: _secret, ...rest } = row` is how the code leaves a field out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
);
