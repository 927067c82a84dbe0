import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

// The inspector's build: src/server/ui/web → dist/ui (served at /ui by create-ui-app.ts).
// base "./": every asset path is relative, so the page works under /ui/ behind any prefix.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../../../../dist/ui", import.meta.url)),
    emptyOutDir: true,
    // Inline nothing as data: URLs beyond the CSP's img-src, and keep one small bundle.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: "es2022",
  },
});
