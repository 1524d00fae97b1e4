import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["build/", ".wrangler/", "node_modules/", "tests/.artifacts/", "worker-configuration.d.ts"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["info", "warn", "error"] }],
    },
  },
  {
    // Database access lives in the models (app/models) and the database layer (app/db) only:
    // routes, grids, dialogs, components and services call model functions. Types may be shared.
    files: ["app/**/*.{ts,tsx}"],
    // The request context and the job runner create the per-request database handle.
    ignores: ["app/models/**", "app/db/**", "app/load-context.ts", "app/jobs/index.server.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["drizzle-orm", "drizzle-orm/*"], message: "Datenbankzugriff nur in app/models und app/db.", allowTypeImports: true },
            { group: ["~/db/*", "../db/*", "./db/*"], message: "Datenbankzugriff nur in app/models und app/db.", allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    // No import circle in the app: a module that needs a shared type or error takes it from a
    // leaf module (e.g. app/jobs/item.ts), so modules load in one order and stay separable.
    // Only app/: the whole repository would cost the lint run far more time.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver": undefined,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Command-line scripts report to the terminal.
    files: ["scripts/**"],
    languageOptions: { globals: globals.node },
    rules: { "no-console": "off" },
  },
);
