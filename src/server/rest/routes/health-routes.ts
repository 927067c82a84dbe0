import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import type { RestApp } from "../rest-deps.js";

const health = createRoute({
  method: "get",
  path: "/health",
  tags: ["meta"],
  summary: "Liveness: no authentication, reveals nothing about the data",
  security: [],
  responses: { 200: { description: "The server is up", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } } },
});

export function registerHealthRoutes(app: RestApp): void {
  app.openapi(health, (c) => c.json({ status: "ok" as const }, 200));
}
