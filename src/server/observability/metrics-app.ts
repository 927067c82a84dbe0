import { Hono } from "hono";
import type { Authenticate } from "../auth/authenticate.js";
import { roleAllows } from "../auth/principal.js";
import { RamemError } from "../../model/errors.js";
import type { ServerMetrics } from "./server-metrics.js";

/**
 * `GET /metrics` in Prometheus's text format. With `authenticate`, only an
 * admin key (or the local admin of an open loopback server) may read it: it
 * names every large namespace. Without, it is the app of the loopback-only
 * `--metrics-port` listener.
 */
export function createMetricsApp(metrics: ServerMetrics, authenticate?: Authenticate): Hono {
  const app = new Hono();
  app.get("/metrics", async (c) => {
    if (authenticate) {
      const principal = await authenticate(c.req.raw);
      if (!roleAllows(principal.role, "admin")) {
        throw new RamemError("FORBIDDEN", "reading /metrics needs an admin key", {
          hint: "scrape with an admin key (ramem keys create --role admin), or serve the metrics on loopback without a key: ramem serve --metrics-port 9464",
        });
      }
    }
    const { contentType, body } = await metrics.render();
    return c.body(body, 200, { "content-type": contentType });
  });
  return app;
}
