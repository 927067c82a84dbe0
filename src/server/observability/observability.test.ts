/** What an operator reads off a running server: /metrics, request ids and log lines, and a graceful drain. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { Hono } from "hono";
import { pino } from "pino";
import { startTestServer } from "../testing/server-fixture.js";

const SESSION = {
  startTime: "2023-05-08T13:56:00Z",
  turns: [
    { speaker: "Caroline", text: "I went to a support group yesterday." },
    { speaker: "Melanie", text: "I painted a sunrise over the lake." },
  ],
};

/** The value of one series in Prometheus text, or undefined when it is absent. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[3] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4]);
  }
  return undefined;
}

test("GET /metrics: requests per route pattern and status, recall stages, ingest counters, store size per namespace; admin keys only", async () => {
  const t = await startTestServer({ keys: [{ role: "admin", namespaces: ["ns-a"] }, { role: "write", namespaces: ["ns-a"] }], server: { metrics: { storeSizeTtlMs: 0 } } });
  try {
    const [admin, writer] = t.secrets as [string, string];
    assert.equal((await t.call("PUT", "/v1/namespaces/ns-a/sessions/s1", { key: writer, json: SESSION })).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await t.call("POST", "/v1/namespaces/ns-a/recall", { key: writer, json: { query: "When did Caroline go to the support group?" } })).status, 200);
    assert.equal((await t.call("GET", "/v1/namespaces/ns-a/memories/nope", { key: writer })).status, 404);

    const refused = await t.call("GET", "/metrics", { key: writer });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, "FORBIDDEN");
    assert.equal((await t.call("GET", "/metrics")).status, 401);

    const res = await t.call("GET", "/metrics", { key: admin });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const m = res.text;
    assert.equal(series(m, "ramem_http_requests_total", { method: "POST", route: "/v1/namespaces/:ns/recall", status: "200" }), 3);
    assert.equal(series(m, "ramem_http_request_duration_seconds_count", { method: "POST", route: "/v1/namespaces/:ns/recall", status: "200" }), 3);
    assert.equal(series(m, "ramem_http_requests_total", { method: "GET", route: "/v1/namespaces/:ns/memories/:unitId", status: "404" }), 1);
    assert.ok(!m.includes('route="/v1/namespaces/ns-a'), "a route label is the pattern, never a namespace");
    assert.equal(series(m, "ramem_recalls_total"), 3);
    for (const stage of ["content", "induction", "reinstatement"]) assert.equal(series(m, "ramem_recall_stage_duration_seconds_count", { stage }), 3, stage);
    assert.equal(series(m, "ramem_ingested_sessions_total"), 1);
    assert.equal(series(m, "ramem_ingested_turns_total"), 2);
    assert.equal(series(m, "ramem_ingested_units_total"), (await t.memory.stats("ns-a")).units);
    assert.equal(series(m, "ramem_store_units", { namespace: "ns-a" }), (await t.memory.stats("ns-a")).units);
    assert.equal(series(m, "ramem_store_sessions", { namespace: "ns-a" }), 1);
    assert.equal(series(m, "ramem_store_namespaces"), 1);
    assert.ok(series(m, "ramem_process_resident_memory_bytes")! > 0, "Node's process metrics, prefixed");
  } finally {
    await t.stop();
  }
});

test("--metrics-port: /metrics without a key on loopback only, and nothing else there", async () => {
  const t = await startTestServer({ keys: [{ role: "write", namespaces: ["ns-a"] }], server: { metricsPort: 0, metrics: { processMetrics: false } } });
  try {
    assert.match(t.server.metricsUrl ?? "", /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${t.server.metricsUrl}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(text.includes("ramem_http_requests_total"));
    assert.ok(!text.includes("ramem_process_"), "process metrics off when asked");
    assert.equal((await fetch(`${t.server.metricsUrl}/v1/namespaces/ns-a/units`)).status, 404, "the metrics listener serves nothing else");
  } finally {
    await t.stop();
  }
});

test("every response has an X-Request-Id; a problem carries it, and the log line has it (never the body)", async () => {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const boom = () =>
    new Hono().get("/", () => {
      throw new Error("kaboom inside");
    });
  const t = await startTestServer({ keys: [{ role: "write", namespaces: ["ns-a"] }], server: { logger: pino({ level: "info" }, sink), subApps: { "/boom": boom } } });
  try {
    const [key] = t.secrets as [string];
    const ok = await t.call("POST", "/v1/namespaces/ns-a/recall", { key, json: { query: "a secret question about lakes" } });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);

    const bad = await t.call("POST", "/v1/namespaces/ns-a/recall", { key, json: { query: "" }, headers: { "x-request-id": "client-trace-42" } });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get("x-request-id"), "client-trace-42", "a sane caller id is kept");
    assert.equal(bad.body.requestId, "client-trace-42");
    assert.equal(bad.body.code, "VALIDATION_FAILED", "the problem is otherwise unchanged");
    assert.equal(bad.body.errors[0].path, "body.query");

    const odd = await t.call("GET", "/nowhere", { headers: { "x-request-id": "has spaces; and {braces}" } });
    assert.equal(odd.status, 404);
    assert.match(odd.body.requestId, /^[0-9a-f-]{36}$/, "an id that is not safe to log is replaced");

    const byId = lines.find((l) => l.requestId === "client-trace-42");
    assert.deepEqual({ method: byId.method, path: byId.path, route: byId.route, status: byId.status, level: byId.level }, { method: "POST", path: "/v1/namespaces/ns-a/recall", route: "/v1/namespaces/:ns/recall", status: 400, level: 30 });
    assert.equal(typeof byId.ms, "number");
    assert.ok(lines.some((l) => l.requestId === ok.headers.get("x-request-id")));
    const failed = await t.call("GET", "/boom");
    assert.equal(failed.status, 500);
    assert.ok(!failed.text.includes("kaboom"), "the caller learns nothing internal");
    const logged = lines.find((l) => l.requestId === failed.body.requestId);
    assert.equal(logged.level, 50, "a 5xx is logged at level error");
    assert.match(logged.err.message, /kaboom inside/, "with the error, found by the id the caller got");
    assert.ok(!JSON.stringify(lines).includes("lakes"), "no request body is logged");
    assert.ok(!JSON.stringify(lines).includes(key), "no key is logged");
  } finally {
    await t.stop();
  }
});

test("drain: requests in flight finish, new ones get 503 SERVER_DRAINING, then the server closes", async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const slow = () =>
    new Hono().get("/", async (c) => {
      entered();
      await held;
      return c.text("finished");
    });
  const t = await startTestServer({ server: { subApps: { "/slow": slow } } });
  const url = t.server.url;
  try {
    const inFlight = fetch(`${url}/slow`).then(async (r) => ({ status: r.status, text: await r.text() }));
    await inside;
    const drained = t.server.drain({ timeoutMs: 10_000 });
    const refused = await fetch(`${url}/health`);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get("retry-after"), "5");
    const problem = (await refused.json()) as { code: string; requestId?: string };
    assert.equal(problem.code, "SERVER_DRAINING");
    assert.ok(problem.requestId);
    release();
    assert.deepEqual(await inFlight, { status: 200, text: "finished" });
    assert.equal(await drained, true);
    await assert.rejects(fetch(`${url}/health`), "closed after the drain");
  } finally {
    release();
    await t.memory.close();
    await t.keys.close();
  }
});

test("drain gives up after its timeout and still closes", async () => {
  const t = await startTestServer({ server: { subApps: { "/stuck": () => new Hono().get("/", () => new Promise<Response>(() => {})) } } });
  const url = t.server.url;
  try {
    const stuck = fetch(`${url}/stuck`).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await t.server.drain({ timeoutMs: 200 }), false);
    assert.ok((await stuck) instanceof Error, "a request still running at the deadline is cut");
  } finally {
    await t.memory.close();
    await t.keys.close();
  }
});
