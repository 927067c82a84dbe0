import { Hono } from "hono";
import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { findUiAssets } from "./find-ui-assets.js";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
};

/**
 * The page may load only itself and talk only to this server: no CDN, no
 * inline script (a stored string rendered by mistake cannot run), no framing
 * (clickjacking of the forget button).
 */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

export interface UiAppOptions {
  /** The built assets' folder (default: findUiAssets()). */
  assetsDir?: string | null;
}

/**
 * The inspector's static files, mounted at /ui. They hold no data: every
 * view reads the REST API with the key the user enters, so the same keys,
 * roles and Host/Origin checks apply. Only files present at start are served
 * (a fixed table, so no path can walk out of the folder); a missing build is
 * a page saying how to build it, not a blank 404.
 */
export function createUiApp(options: UiAppOptions = {}): Hono {
  // A folder without index.html is an unbuilt UI, wherever it was looked for.
  const dir = options.assetsDir === undefined ? findUiAssets() : options.assetsDir === null ? null : findUiAssets([pathToFileURL(join(options.assetsDir, "/"))]);
  const files = new Map<string, { body: Uint8Array; type: string }>();
  if (dir) {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const full = join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
      const path = relative(dir, full).split(sep).join("/");
      files.set(path, { body: readFileSync(full), type: CONTENT_TYPES[extname(path)] ?? "application/octet-stream" });
    }
  }
  const app = new Hono();
  app.get("/", (c) => {
    // /ui → /ui/: the page's relative asset paths need the trailing slash.
    if (!c.req.path.endsWith("/")) return c.redirect(`${c.req.path}/`, 308);
    return serve("index.html");
  });
  app.get("/*", (c) => serve(c.req.path.replace(/^.*?\/ui\//, "") || "index.html"));

  function serve(path: string): Response {
    if (!dir) {
      return new Response(
        "<!doctype html><html lang=en><meta charset=utf-8><title>ramem inspector not built</title><h1>The ramem inspector is not built</h1>" +
          "<p>This server has no built UI assets (dist/ui/). From a checkout run <code>npm run build</code>, then restart <code>ramem serve</code>. The REST API works without it.</p></html>",
        { status: 503, headers: { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS } },
      );
    }
    const file = files.get(path);
    if (!file) return new Response(`no file ${path.slice(0, 200)} in the inspector`, { status: 404, headers: { "content-type": "text/plain; charset=utf-8", ...SECURITY_HEADERS } });
    // Hashed asset names never change content; index.html must be fetched fresh to pick up a new build.
    const cache = path.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache";
    return new Response(file.body, { status: 200, headers: { "content-type": file.type, "cache-control": cache, ...SECURITY_HEADERS } });
  }
  return app;
}
