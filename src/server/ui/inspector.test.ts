/**
 * The inspector in a real browser: Debian's chromium driven by playwright-core
 * against a real server (startTestServer: loopback, temp SQLite, hash
 * embedder). One browser per file, reused; each test opens its own page (its
 * own session storage, so its own login). Screenshots of each view go to
 * RAMEM_TEST_OUTPUT (default test-output/inspector/, gitignored).
 */
import { before, after, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import type { Page } from "playwright-core";
import { startTestServer, GARDEN, CHESS, type TestServer } from "../testing/server-fixture.js";
import { buildUi, describeWithBrowser, launchBrowser, type LaunchedBrowser } from "./testing/browser-test-target.js";
import { importBigNamespace } from "./testing/big-namespace.js";
import { ROOT } from "../../cli/testing/run-cli.js";

const OUT = process.env.RAMEM_TEST_OUTPUT ?? join(ROOT, "test-output", "inspector");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const REPORT = {
  command: "ramem bench locomo --data locomo10.json --out bench-out/locomo",
  data: "locomo10.json",
  ks: [5, 10, 20],
  questions: 10,
  variants: ["content-only", "ramem"].map((name, v) => ({
    name,
    description: name,
    retrieval: {
      ks: [5, 10, 20],
      overall: Object.fromEntries([5, 10, 20].map((k, i) => [String(k), { n: 10, recall: 0.4 + 0.1 * i + 0.05 * v, hit: 0.5, mrr: 0.3, mrrAtK: 0.3 }])),
      perCategory: { "1": { "10": { n: 4, recall: 0.61 + v * 0.1, hit: 0.7, mrr: 0.4, mrrAtK: 0.4 } } },
    },
  })),
};

const BIG_SESSIONS = 200;
const BIG_PER_SESSION = 100;

describeWithBrowser("the inspector in chromium", () => {
  let t: TestServer;
  let browser: LaunchedBrowser;
  let writeKey: string;
  let readKey: string;
  let fixtures: string;
  let ui: Awaited<ReturnType<typeof buildUi>>;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    ui = await buildUi();
    fixtures = mkdtempSync(join(tmpdir(), "ramem-inspector-"));
    writeFileSync(join(fixtures, "results.json"), JSON.stringify(REPORT));
    writeFileSync(join(fixtures, "notes.json"), JSON.stringify({ hello: "not a report" }));
    t = await startTestServer({
      keys: [{ role: "write", namespaces: ["garden", "big", "chess"] }, { role: "read", namespaces: ["garden"] }],
      server: { ui: ui.dir, benchResults: [join(fixtures, "results.json"), join(fixtures, "notes.json"), join(fixtures, "missing.json")] },
    });
    [writeKey, readKey] = t.secrets as [string, string];
    assert.equal((await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { key: writeKey, json: GARDEN })).status, 200);
    assert.equal((await t.call("PUT", "/v1/namespaces/chess/sessions/c1", { key: writeKey, json: CHESS })).status, 200);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    rmSync(fixtures, { recursive: true, force: true });
    ui?.remove();
  });

  async function open(hash = "", key: string | null = writeKey): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(`${t.server.uiUrl}${hash}`);
    if (key) await login(page, key);
    return page;
  }

  async function login(page: Page, key: string): Promise<void> {
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Open" }).click();
    await page.getByTestId("who").waitFor();
  }

  async function axe(page: Page, what: string): Promise<void> {
    await page.addScriptTag({ path: AXE });
    // A string, not a function: the test is compiled without the DOM's types.
    const violations = (await page.evaluate(`axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } }).then((r) =>
      r.violations.map((v) => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")))`)) as string[];
    assert.deepEqual(violations, [], `axe-core on the ${what} view`);
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(OUT, `${name}.png`), fullPage: false });

  it("refuses a wrong key with a message, takes a right one, and lists its namespaces with stats (keyboard only)", async () => {
    const page = await open("", null);
    await page.getByLabel("API key").waitFor();
    await axe(page, "login");
    await shot(page, "login");
    await page.getByLabel("API key").fill("rm_not-a-real-key");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").getByText("Your key was refused").waitFor();
    assert.equal(await page.getByTestId("who").count(), 0, "no view behind a refused key");
    // Keyboard: focus the field, type, Enter submits.
    await page.getByLabel("API key").fill("");
    await page.getByLabel("API key").focus();
    await page.keyboard.type(writeKey);
    await page.keyboard.press("Enter");
    await page.getByTestId("who").getByText("write").waitFor();
    const garden = page.getByRole("row").filter({ hasText: "garden" });
    await garden.waitFor();
    assert.match(await garden.innerText(), /garden\s+1\s+3\b/, "sessions and units of garden");
    assert.equal(await page.getByRole("row").filter({ hasText: "big" }).count(), 0, "an empty namespace is not listed");
    await axe(page, "namespaces");
    await shot(page, "namespaces");
    // The key is kept for the tab: a reload needs no login.
    await page.reload();
    await page.getByTestId("who").waitFor();
    // Keyboard: Tab reaches the skip link first, then the navigation; Enter follows a link.
    const focused = () => page.evaluate("document.activeElement && document.activeElement.textContent");
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "Skip to content");
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "Namespaces");
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "Benchmarks");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Benchmark viewer" }).waitFor();
    await page.close();
  });

  it("timeline deep link shows a known unit with its verbatim turn, restatement and coordinates", async () => {
    const page = await open("#/namespaces/garden");
    const unit = page.locator("article", { hasText: "I went to a LGBTQ support group yesterday" });
    await unit.waitFor();
    const text = await unit.innerText();
    assert.match(text, /Caroline: I went to a LGBTQ support group yesterday/);
    assert.equal(await unit.locator('[data-field="event"]').innerText(), "7 May 2023", "event time: the day before the session");
    assert.match(await unit.locator('[data-field="session"]').innerText(), /^s1 · 8 May 2023 13:56/);
    assert.match(await unit.locator('[data-field="participants"]').innerText(), /Caroline/);
    assert.match(await unit.locator('[data-field="episode"]').innerText(), /^turns \S+–\S+/, "its episode's turn span");
    assert.match(await page.getByTestId("timeline-status").innerText(), /3 of 3 units loaded/);
    // Text search narrows the list as one types.
    await page.getByLabel("Search text").fill("necklace");
    await page.getByTestId("timeline-status").getByText("1 shown").waitFor();
    assert.equal(await page.locator("article").count(), 1);
    assert.match(await page.locator(".session-row").first().innerText(), /\b1 unit$/, "the filtered session header counts one unit, singular");
    await page.getByLabel("Search text").fill("");
    await axe(page, "timeline");
    await shot(page, "timeline");
    await page.close();
  });

  it("recall debugger permalink shows the frame (participants: Caroline, active), C_ctx, the top hit, the content-only list and the evidence pack", async () => {
    const q = "When did Caroline go to the support group?";
    const page = await open(`#/namespaces/garden/recall?q=${encodeURIComponent(q)}`);
    await page.getByTestId("frame-conditions").waitFor();
    assert.equal(await page.getByTestId("frame-state").innerText(), "active");
    const row = page.locator('[data-condition="participants"]');
    assert.match(await row.innerText(), /Caroline[\s\S]*active/);
    assert.ok(Number(await page.getByTestId("c-ctx").innerText()) >= 1, "C_ctx holds Caroline's units");
    const top = page.getByTestId("ramem-hits").locator("li").first();
    assert.match(await top.innerText(), /#1[\s\S]*C_ctx[\s\S]*support group/);
    assert.match(await top.innerText(), /context: about Caroline/);
    assert.ok((await page.getByTestId("content-hits").locator("li").count()) >= 1);
    assert.match(await page.getByTestId("evidence-pack").innerText(), /<memories>[\s\S]*support group[\s\S]*<\/memories>/);
    assert.equal(await page.getByTestId("holds-evidence").innerText(), "likely");
    assert.match(await page.getByTestId("score-scales").innerText(), /Each ranking has its own fit[\s\S]*Compare ranks across the lists and scores within one/);
    assert.equal(await page.getByLabel("Query", { exact: true }).inputValue(), q, "the permalink fills the form");
    const permalink = await page.getByTestId("permalink").getAttribute("href");
    assert.ok(permalink?.includes(encodeURIComponent(q).replace(/%20/g, "+")) || permalink?.includes(encodeURIComponent(q)), `permalink ${permalink} holds the query`);
    await axe(page, "recall debugger");
    await shot(page, "recall");
    // validAt: in the address, in the form, sent to explain and echoed back.
    await page.goto(`${t.server.uiUrl}#/namespaces/garden/recall?q=${encodeURIComponent(q)}&validAt=2023-05-08`);
    await page.getByText("state valid at 8 May 2023").waitFor();
    assert.equal(await page.getByLabel("Valid at (optional)").inputValue(), "2023-05-08");
    await page.getByLabel("Valid at (optional)").fill("2023-06-01");
    await page.getByRole("button", { name: "Recall" }).click();
    await page.getByText("state valid at 1 Jun 2023").waitFor();
    assert.match(page.url(), /validAt=2023-06-01/, "the permalink keeps it");
    // What was never said: the judgment says so, names the missing word, and the pack opens with it.
    await page.goto(`${t.server.uiUrl}#/namespaces/garden/recall?q=${encodeURIComponent("How often does Caroline play table tennis?")}`);
    await page.getByTestId("holds-evidence").waitFor();
    assert.equal(await page.getByTestId("holds-evidence").innerText(), "likely not");
    assert.match(await page.getByTestId("holds-evidence-why").innerText(), /no stored memory mentions .*"tennis"/);
    assert.match(await page.getByTestId("evidence-pack").innerText(), /^<memories>\nevidence check: the store likely holds nothing/);
    await page.close();
  });

  it("review loop: correct a unit, see its history, mark it superseded (struck through, linked), forget a unit (gone from timeline and recall)", async () => {
    const page = await open("#/namespaces/garden");
    const necklace = page.locator("article", { hasText: "necklace" });
    await necklace.getByRole("link", { name: "details and history" }).click();
    await page.getByLabel("Text").fill("Caroline's grandmother gave her a gold necklace from Sweden.");
    await page.getByRole("button", { name: "Save text" }).click();
    await page.getByTestId("history").getByText("updated").waitFor();
    assert.match(await page.getByTestId("history").innerText(), /updated[\s\S]*by test[\s\S]*silver necklace/);
    const units = (await t.call("GET", "/v1/namespaces/garden/memories", { key: writeKey })).body.memories as Array<{ id: string; content: string }>;
    const painting = units.find((u) => /sunrise/.test(u.content))!;
    const necklaceId = units.find((u) => /necklace/.test(u.content))!.id;
    assert.match(units.find((u) => u.id === necklaceId)!.content, /gold necklace/, "the correction reached the store");
    await page.getByLabel("Superseded by (unit id)").fill(painting.id);
    await page.getByRole("button", { name: "Mark superseded" }).click();
    await page.getByText(`Marked superseded by ${painting.id}.`).waitFor();
    await shot(page, "unit");
    await axe(page, "unit");
    await page.getByRole("link", { name: /timeline of garden/ }).click();
    const struck = page.locator("article", { hasText: "necklace" });
    await struck.getByTestId("struck").waitFor();
    assert.equal(await struck.locator('[data-field="validity"] a').innerText(), painting.id, "links to what superseded it");

    // Forget: recall finds the painting first; after the confirmed forget neither view has it.
    const recallHash = `#/namespaces/garden/recall?q=${encodeURIComponent("What did Melanie paint?")}`;
    await page.goto(`${t.server.uiUrl}${recallHash}`);
    await page.locator(`[data-testid="ramem-hits"] li[data-unit-id="${painting.id}"]`).waitFor();
    await page.goto(`${t.server.uiUrl}#/namespaces/garden`);
    const row = page.locator("article", { hasText: "sunrise" });
    await row.getByRole("button", { name: "Forget" }).click();
    // The confirmation takes the keyboard focus; Enter confirms.
    await page.waitForFunction("document.activeElement && document.activeElement.textContent === 'Yes, forget this unit'");
    await page.keyboard.press("Enter");
    await page.getByTestId("timeline-status").getByText("2 of 2 units loaded").waitFor();
    assert.equal(await page.locator("article", { hasText: "sunrise" }).count(), 0);
    await page.reload();
    await page.getByTestId("timeline-status").getByText("2 of 2 units loaded").waitFor();
    assert.equal(await page.locator("article", { hasText: "sunrise" }).count(), 0, "gone after a reload: the store forgot it");
    await page.goto(`${t.server.uiUrl}${recallHash}`);
    await page.getByTestId("ramem-hits").waitFor();
    assert.equal(await page.locator(`li[data-unit-id="${painting.id}"]`).count(), 0, "gone from recall");
    await page.close();
  });

  it("a read-only key sees no edit controls, and the server refuses its edits anyway", async () => {
    const page = await open("#/namespaces/garden", readKey);
    await page.getByTestId("who").getByText("read-only").waitFor();
    await page.locator("article").first().waitFor();
    assert.equal(await page.getByRole("button", { name: /Forget/ }).count(), 0);
    await page.locator("article").first().getByRole("link", { name: "details and history" }).click();
    await page.getByTestId("history").waitFor();
    assert.equal(await page.getByRole("button", { name: /Save text|Mark superseded|Forget/ }).count(), 0);
    assert.equal(await page.getByLabel("Text").count(), 0);
    const status = await page.evaluate(async (key) => {
      const list = (await (await fetch("/v1/namespaces/garden/memories", { headers: { authorization: `Bearer ${key}` } })).json()) as { memories: Array<{ id: string }> };
      const res = await fetch(`/v1/namespaces/garden/memories/${list.memories[0]!.id}`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
      return res.status;
    }, readKey);
    assert.equal(status, 403);
    // A namespace the key was not granted: a clear message, not a blank page.
    await page.goto(`${t.server.uiUrl}#/namespaces/chess`);
    await page.getByRole("alert").getByText("This key may not do that").waitFor();
    await page.close();
  });

  it("a key revoked while logged in brings the login back saying the session expired", async () => {
    const key = await t.createKey("read", ["garden"], "short-lived");
    const page = await open("#/namespaces/garden", key);
    await page.locator("article").first().waitFor();
    const [record] = (await t.keys.listKeys()).filter((k) => k.name === "short-lived");
    assert.ok(await t.keys.revokeKey(record!.id, new Date().toISOString()));
    await page.goto(`${t.server.uiUrl}#/namespaces/garden/recall?q=garden`);
    await page.getByText("Your session expired").waitFor();
    await page.getByLabel("API key").waitFor();
    await page.close();
  });

  it("benchmark viewer: a results.json (given to the server, or picked from disk) shows its tables and the recall-at-K plot; another file is refused in the page", async () => {
    const page = await open("#/bench");
    await page.getByRole("button", { name: /notes\.json/ }).click();
    await page.getByRole("alert").getByText(/notes\.json is not a ramem bench report/).waitFor();
    await page.getByRole("button", { name: /missing\.json/ }).click();
    await page.getByRole("alert").getByText(/cannot read .*missing\.json: ENOENT/).waitFor();
    await page.getByRole("button", { name: /^Open .*results\.json$/ }).click();
    await page.getByTestId("bench-overall").waitFor();
    await page.getByLabel("Open a results.json from bench-out/").setInputFiles({ name: "results.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(REPORT)) });
    const table = page.getByTestId("bench-overall");
    await table.waitFor();
    assert.match(await table.innerText(), /ramem\s+0\.450\s+0\.550\s+0\.650/);
    assert.equal(await page.getByTestId("recall-plot").locator("polyline").count(), 2);
    await axe(page, "benchmark viewer");
    await shot(page, "bench");
    await page.getByLabel("Open a results.json from bench-out/").setInputFiles({ name: "package.json", mimeType: "application/json", buffer: Buffer.from('{"name":"x"}') });
    await page.getByRole("alert").getByText(/package\.json is not a ramem bench report: it has no "command"/).waitFor();
    assert.equal(await page.getByTestId("bench-overall").count(), 0);
    await page.close();
  });

  it(`a namespace of ${BIG_SESSIONS * BIG_PER_SESSION} units: first render and a scroll (virtualised), figures printed`, async () => {
    const imported = await importBigNamespace(t.memory, "big", BIG_SESSIONS, BIG_PER_SESSION);
    assert.equal(imported, BIG_SESSIONS * BIG_PER_SESSION);
    const page = await open("");
    const started = Date.now();
    await page.goto(`${t.server.uiUrl}#/namespaces/big`);
    await page.locator("article").first().waitFor();
    const firstRender = Date.now() - started;
    await page.locator(`[data-testid="timeline-status"][data-loaded="${imported}"][data-loading="0"]`).waitFor({ timeout: 60_000 });
    const allLoaded = Date.now() - started;
    const rendered = Number(await page.locator(".vlist").getAttribute("data-rendered"));
    assert.ok(rendered > 0 && rendered < 200, `only the rows in view are in the DOM (${rendered} of ${imported + BIG_SESSIONS})`);
    // Scroll to the middle: the rows there are rendered, the first ones are gone.
    const scrollStarted = Date.now();
    await page.locator(".vlist").evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await page.locator("article", { hasText: /Session 9\d, / }).first().waitFor();
    const scroll = Date.now() - scrollStarted;
    assert.equal(await page.locator("article", { hasText: "Session 0, " }).count(), 0);
    const load = loadavg()[0]!.toFixed(2);
    const line = `inspector timeline, ${imported} units: first render ${firstRender} ms, all loaded ${allLoaded} ms, scroll to the middle ${scroll} ms (load average ${load})`;
    console.log(`# ${line}`);
    writeFileSync(join(OUT, "timeline-20k.txt"), `${line}\n`);
    await shot(page, "timeline-20k");
    await page.close();
  });

  it("open mode (loopback, no key ever created): no login, every namespace; a recall that outlives its time budget says so", async () => {
    // A slow embedder (every query embedding waits 400 ms), so the 100 ms budget is surely exceeded, whatever the load.
    const open = await startTestServer({ embedDelayMs: 400, server: { ui: ui.dir } });
    try {
      await open.memory.ingest([{ session: { id: "o1", namespace: "solo", startTime: "2023-01-01T00:00:00Z", endTime: "2023-01-01T00:00:00Z", participants: ["Ann"] }, turns: [{ id: "o1:0", speaker: "Ann", text: "I keep bees." }] }]);
      const page = await browser.context.newPage();
      await page.goto(`${open.server.uiUrl}`);
      await page.getByTestId("who").getByText("open server").waitFor();
      await page.getByRole("link", { name: "solo", exact: true }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Log out" }).count(), 0);
      await page.goto(`${open.server.uiUrl}#/namespaces/solo/recall?q=bees&timeoutMs=100`);
      await page.getByRole("alert").getByText("The query timed out").waitFor();
      assert.match(await page.getByRole("alert").innerText(), /did not answer within 0\.100 s/);
      await page.close();
    } finally {
      await open.stop();
    }
  });
});
