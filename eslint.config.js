import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

// The layers of src/ (docs/architecture.md): each folder names the folders it must never import, so an
// upward import fails `npm run lint`. Import strings are relative, so a folder is matched by name.
const others = (...allowed) =>
  [
    "config",
    "runtime",
    "http",
    "domain",
    "chain",
    "launch",
    "store",
    "vault",
    "observability",
    "doctor",
    "cli",
  ].filter((f) => !allowed.includes(f));
const LAYERS = {
  core: [], // core imports nothing else from src/ (checked below with "../**")
  store: others("store"),
  vault: others("vault", "store"),
  launch: others("launch"),
  chain: others("chain", "launch"),
  observability: others("observability", "store", "chain"),
  config: others("config", "chain"),
  domain: ["http", "runtime", "config", "doctor", "cli"],
  http: ["runtime", "doctor", "cli"],
  doctor: ["http", "runtime", "cli", "domain", "store", "vault"],
  runtime: ["http", "cli"],
  cli: ["http", "runtime"],
};
const layerRule = (folder, forbidden) => ({
  files: [`src/${folder}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        // One copy of spl-token (its CommonJS build, the SDKs'): values come from src/launch/spl-token.ts.
        paths: [
          {
            name: "@solana/spl-token",
            allowTypeImports: true,
            message:
              "import spl-token's values from src/launch/spl-token.ts (one copy in the process: issue 18).",
          },
        ],
        patterns: [
          ...(folder === "core"
            ? [
                {
                  group: ["../**"],
                  message: "src/core/ is the bottom layer: it imports nothing else from src/.",
                },
              ]
            : []),
          ...(forbidden.length > 0
            ? [
                {
                  group: forbidden.map((f) => `**/${f}/**`),
                  message: `src/${folder}/ must not import from ${forbidden.join(", ")} (layers: docs/architecture.md).`,
                },
              ]
            : []),
          ...(folder === "runtime"
            ? []
            : [
                {
                  group: ["**/localnet/**"],
                  message: "only src/runtime/ (the sandbox) imports the localnet.",
                },
              ]),
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ["node_modules/**", "data/**", "coverage/**", "dist/**", "packages/*/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["packages/cli/bin/*.js"],
    languageOptions: { globals: { URL: "readonly", process: "readonly" } },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { URL: "readonly", console: "readonly", process: "readonly" } },
  },
  {
    // The operator console (issue 33): browser code, bundled by scripts/console-build.mjs.
    files: ["console/**/*.{ts,tsx}"],
    languageOptions: {
      globals: {
        window: "readonly",
        document: "readonly",
        location: "readonly",
        sessionStorage: "readonly",
        fetch: "readonly",
        WebSocket: "readonly",
        ResizeObserver: "readonly",
        requestAnimationFrame: "readonly",
        addEventListener: "readonly",
        removeEventListener: "readonly",
        setTimeout: "readonly",
        TextDecoderStream: "readonly",
        AbortController: "readonly",
        HTMLFormElement: "readonly",
        HTMLInputElement: "readonly",
        HTMLDialogElement: "readonly",
        HTMLDivElement: "readonly",
        Event: "readonly",
      },
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // Small files (issue 17): no hand-written file over 400 lines, blank lines and comments included.
    // The generated OpenAPI types are written by `npm run client:generate`, not by hand.
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["packages/client/src/generated/**"],
    rules: { "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  ...Object.entries(LAYERS).map(([folder, forbidden]) => layerRule(folder, forbidden)),
  {
    // No import loop anywhere in src/ (type-only imports do not count: they vanish at run time).
    files: ["src/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [createTypeScriptImportResolver()],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
);
