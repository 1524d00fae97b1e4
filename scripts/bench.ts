/**
 * Benchmark of the People page with the large data set (5,000 people, 6,000 dogs, 300 courses,
 * 50,000 fees). Not a test: it reports the numbers and only fails when it cannot measure.
 *
 *   tsx scripts/bench.ts
 *
 * Builds once, loads the benchmark data into its own state dir (.wrangler/bench-state), starts
 * the app as `npm start` does (scripts/start.sh: wrangler dev plus the local OpenID provider) on
 * free ports, logs in as admin through the real provider, times the People page and weighs the
 * JS and CSS the browser loads for it. Progress goes to stderr, the result table to stdout.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const STATE_DIR = ".wrangler/bench-state";
const BIN = "node_modules/.bin";
const WARMUP = 5;
const RUNS = 40;
const READY_TIMEOUT_MS = 180_000;
const KB = 1024;
/** Bare React 18 + Remix, gzip; the app may add at most 40 KB on top. */
const JS_BASELINE_KB = 86;
const JS_BUDGET_KB = JS_BASELINE_KB + 40;
const TARGET_MS = 100;

const childEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const progress = (message: string) => console.error(`▸ ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Setup: ports, build, data

/** Free ports on 127.0.0.1: all listened on at once, so they differ from each other. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = createServer();
      return new Promise<typeof server>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve(server));
      });
    }),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** Runs a setup command to completion; its output is only shown when it fails. */
function run(label: string, command: string, args: string[]): string {
  progress(label);
  const started = performance.now();
  const result = spawnSync(command, args, { env: childEnv, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (result.error || result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}\n`);
    throw new Error(`${label} fehlgeschlagen: ${result.error?.message ?? `Exit-Code ${result.status ?? result.signal}`}`);
  }
  progress(`  fertig in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result.stdout;
}

type RowCounts = { people: number; dogs: number; courses: number; fees: number };

/** Counted in the database rather than trusted from the seed's output. */
function countRows(): RowCounts {
  const sql =
    "SELECT (SELECT count(*) FROM people) AS people, (SELECT count(*) FROM dogs) AS dogs, " +
    "(SELECT count(*) FROM courses) AS courses, (SELECT count(*) FROM fees) AS fees";
  const output = run("Zeilen zählen", `${BIN}/wrangler`, [
    "d1", "execute", "DB", "--local", "--persist-to", STATE_DIR, "--yes", "--json", "--command", sql,
  ]);
  const [first] = JSON.parse(output) as { results: RowCounts[] }[];
  return first.results[0];
}

// ---------------------------------------------------------------------------------------------
// The app process group

let app: ChildProcess | undefined;
let stopping: Promise<void> | undefined;
let interrupted = false;
const appLog: string[] = [];

/** scripts/start.sh in its own process group, so wrangler, workerd and the provider stop together. */
function startApp(appPort: number, idpPort: number) {
  progress(`App starten (scripts/start.sh) auf Port ${appPort}, Identitätsanbieter auf Port ${idpPort}`);
  app = spawn("bash", ["scripts/start.sh"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...childEnv,
      PORT: String(appPort),
      IDP_PORT: String(idpPort),
      WUFF_STATE_DIR: STATE_DIR,
      WUFF_SKIP_BUILD: "1",
      // The defaults, pinned so a stray HOST or LOCAL_IDP in the shell cannot break the login.
      HOST: "127.0.0.1",
      LOCAL_IDP: "1",
    },
  });
  // Kept (the last lines) for the error message if the app does not come up.
  const keep = (chunk: Buffer) => {
    appLog.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    appLog.splice(0, Math.max(0, appLog.length - 60));
  };
  app.stdout?.on("data", keep);
  app.stderr?.on("data", keep);
}

async function waitUntilReady(url: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!app || stopping || app.exitCode !== null || app.signalCode !== null) break;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(500);
  }
  throw new Error(`Die App antwortet nicht mit 200 auf ${url}. Letzte Ausgabe von start.sh:\n${appLog.join("\n")}`);
}

/** Once, however often it is called (error path and Ctrl-C may race). */
const stopApp = () => (stopping ??= stopAppGroup());

/** SIGTERM to the whole group, SIGKILL for whatever is still there after 10 s. */
async function stopAppGroup() {
  const pid = app?.pid;
  if (!pid) return;
  progress("App stoppen");
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, "SIGTERM");
  for (let waited = 0; waited < 10_000 && alive(); waited += 200) await sleep(200);
  if (alive()) process.kill(-pid, "SIGKILL");
  app = undefined;
}

// Last resort if the process ends some other way: never leave a server behind.
process.on("exit", () => {
  if (app?.pid) {
    try {
      process.kill(-app.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    progress(`${signal} erhalten`);
    interrupted = true;
    void stopApp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// HTTP with a cookie jar per origin (name=value only; paths and flags do not matter here)

const jar = new Map<string, Map<string, string>>();

function cookiesFor(url: string): Map<string, string> {
  const origin = new URL(url).origin;
  let cookies = jar.get(origin);
  if (!cookies) jar.set(origin, (cookies = new Map()));
  return cookies;
}

function storeCookies(url: string, response: Response) {
  const cookies = cookiesFor(url);
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(";");
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const attribute = (key: string) =>
      attributes.map((a) => a.trim().split("=")).find(([k]) => k.toLowerCase() === key)?.slice(1).join("=");
    // Max-Age wins over Expires (RFC 6265); both are how servers delete cookies.
    const maxAge = attribute("max-age");
    const expires = attribute("expires");
    const expired = maxAge !== undefined ? Number(maxAge) <= 0 : expires !== undefined && Date.parse(expires) <= Date.now();
    if (expired) cookies.delete(name);
    else cookies.set(name, pair.slice(eq + 1).trim());
  }
}

/** One request, never following redirects, with and into the jar of the URL's origin. */
async function request(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookies = [...cookiesFor(url)].map(([name, value]) => `${name}=${value}`).join("; ");
  if (cookies) headers.set("Cookie", cookies);
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  storeCookies(url, response);
  return response;
}

const HTML = { Accept: "text/html" };
const isRedirect = (response: Response) => response.status >= 300 && response.status < 400 && response.headers.has("Location");

/** Follows redirects like a browser (as GET after 301/302/303), across origins. */
async function follow(url: string, trail: string[], init: RequestInit = { headers: HTML }) {
  let current = url;
  let currentInit = init;
  for (let hop = 0; hop < 20; hop++) {
    const response = await request(current, currentInit);
    trail.push(`${response.status} ${currentInit.method ?? "GET"} ${current}`);
    if (!isRedirect(response)) return { url: current, response, body: await response.text() };
    await response.arrayBuffer();
    current = new URL(response.headers.get("Location")!, current).href;
    currentInit = { headers: HTML };
  }
  throw new Error(`Zu viele Weiterleitungen:\n${trail.join("\n")}`);
}

// ---------------------------------------------------------------------------------------------
// Login through the local OpenID provider

async function login(appOrigin: string, idpOrigin: string) {
  progress("Anmelden als admin beim lokalen Identitätsanbieter");
  const trail: string[] = [];
  const fail = (message: string) => new Error(`Anmeldung fehlgeschlagen: ${message}\n${trail.join("\n")}`);

  const start = await request(`${appOrigin}/login?redirectTo=%2Fpeople`, { headers: HTML });
  await start.arrayBuffer();
  const toProvider = start.headers.get("Location") ?? "";
  trail.push(`${start.status} GET ${appOrigin}/login → ${toProvider}`);
  if (start.status !== 302 || !toProvider.startsWith(`${idpOrigin}/auth`)) throw fail("/login leitet nicht zum Anbieter weiter");

  const loginPage = await follow(toProvider, trail);
  const uid = /^\/interaction\/([^/]+)$/.exec(new URL(loginPage.url).pathname)?.[1];
  if (loginPage.response.status !== 200 || !loginPage.url.startsWith(idpOrigin) || !uid) throw fail("keine Anmeldeseite");
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(loginPage.body)?.[1];
  if (action !== `/interaction/${uid}/login`) throw fail(`unerwartetes Formular (action=${action})`);

  const landed = await follow(new URL(action, idpOrigin).href, trail, {
    method: "POST",
    headers: { ...HTML, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login: "admin", password: "wuff" }).toString(),
  });
  if (!cookiesFor(appOrigin).has("wuff_session")) throw fail("kein wuff_session-Cookie");
  progress(`  angemeldet, gelandet auf ${landed.url} (${landed.response.status})`);
}

// ---------------------------------------------------------------------------------------------
// Timing

type Sample = { ms: number; app?: number; db?: number; queries?: number };

/** `app;dur=12.3, db;dur=4.5;desc="3 D1-Abfragen"` → name → { dur, desc } (first of each name). */
function parseServerTiming(header: string | null) {
  const metrics = new Map<string, { dur?: number; desc?: string }>();
  // Split at commas outside quotes; the app's descriptions contain no ";".
  for (const entry of (header ?? "").split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
    const [name, ...params] = entry.split(";").map((part) => part.trim());
    if (!name || metrics.has(name)) continue;
    const metric: { dur?: number; desc?: string } = {};
    for (const param of params) {
      const [key, ...rest] = param.split("=");
      const value = rest.join("=").trim().replace(/^"(.*)"$/, "$1");
      if (key.trim().toLowerCase() === "dur") metric.dur = Number(value);
      if (key.trim().toLowerCase() === "desc") metric.desc = value;
    }
    metrics.set(name, metric);
  }
  return metrics;
}

/** WARMUP + RUNS sequential GETs; each response passes `check` (which throws) before it counts. */
async function measure(url: string, check: (response: Response, body: string) => void): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const response = await request(url, { headers: HTML });
    const body = await response.text();
    const ms = performance.now() - started;
    check(response, body);
    const timing = parseServerTiming(response.headers.get("Server-Timing"));
    const queries = /\d+/.exec(timing.get("db")?.desc ?? "")?.[0];
    if (i >= WARMUP) {
      samples.push({ ms, app: timing.get("app")?.dur, db: timing.get("db")?.dur, queries: queries ? Number(queries) : undefined });
    }
  }
  return samples;
}

function stats(values: (number | undefined)[]) {
  const sorted = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  // Nearest-rank percentiles.
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: at(50), p95: at(95), min: sorted[0], max: sorted[sorted.length - 1] };
}

// ---------------------------------------------------------------------------------------------
// What the browser loads for the page

const decode = (text: string) =>
  text.replace(/&(amp|quot|#39|lt|gt);/g, (_, e: string) => ({ amp: "&", quot: '"', "#39": "'", lt: "<", gt: ">" })[e]!);

function attributes(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const m of text.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    result.set(m[1].toLowerCase(), decode(m[2] ?? m[3] ?? m[4] ?? ""));
  }
  return result;
}

type Weight = { files: number; raw: number; gzip: number };
const gzipBytes = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;

async function pageWeight(html: string, appOrigin: string) {
  const js = new Set<string>();
  const css = new Set<string>();
  const inline: Weight = { files: 0, raw: 0, gzip: 0 };
  for (const [, attrText, content] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = attributes(attrText).get("src");
    if (src) {
      js.add(new URL(src, appOrigin).href);
    } else if (content.trim()) {
      inline.files += 1;
      inline.raw += Buffer.byteLength(content);
      inline.gzip += gzipBytes(content);
      // Remix's inline module script imports the route manifest; normally also a modulepreload.
      for (const [, specifier] of content.matchAll(/\b(?:import|from)\s*\(?\s*["'](\/[^"']+)["']/g)) {
        js.add(new URL(specifier, appOrigin).href);
      }
    }
  }
  for (const [, attrText] of html.matchAll(/<link\b([^>]*)>/gi)) {
    const link = attributes(attrText);
    const rel = (link.get("rel") ?? "").toLowerCase().split(/\s+/);
    const href = link.get("href");
    if (!href) continue;
    if (rel.includes("modulepreload")) js.add(new URL(href, appOrigin).href);
    if (rel.includes("stylesheet")) css.add(new URL(href, appOrigin).href);
  }
  const weigh = async (urls: Set<string>): Promise<Weight> => {
    const weight: Weight = { files: 0, raw: 0, gzip: 0 };
    for (const url of urls) {
      const response = await request(url);
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`Asset ${url}: Status ${response.status}`);
      weight.files += 1;
      weight.raw += body.length;
      weight.gzip += gzipBytes(body);
    }
    return weight;
  };
  return { js: await weigh(js), css: await weigh(css), inline };
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (value: number) => value.toFixed(1);
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const de = (n: number) => n.toLocaleString("de-DE");
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function printReport(report: {
  pagePath: string;
  hops: { path: string; samples: Sample[] }[];
  page: Sample[];
  weight: Awaited<ReturnType<typeof pageWeight>>;
  rows: RowCounts;
}) {
  const { pagePath, hops, page, weight, rows } = report;
  const statRows: string[][] = [];
  const addStats = (label: string, values: (number | undefined)[], format: (n: number) => string = ms) => {
    const s = stats(values);
    statRows.push([label, ...(s ? [s.p50, s.p95, s.min, s.max].map(format) : ["–", "–", "–", "–"])]);
  };
  addStats(`Roundtrip ms  ${pagePath}`, page.map((s) => s.ms));
  addStats("app;dur ms", page.map((s) => s.app));
  addStats("db;dur ms", page.map((s) => s.db));
  addStats("D1-Abfragen", page.map((s) => s.queries), String);
  for (const hop of hops) {
    addStats(`Roundtrip ms  ${hop.path} (Weiterleitung)`, hop.samples.map((s) => s.ms));
    addStats("  app;dur ms (Weiterleitung)", hop.samples.map((s) => s.app));
  }

  const jsOk = weight.js.gzip <= JS_BUDGET_KB * KB;
  const p95 = stats(page.map((s) => s.ms))?.p95 ?? Infinity;
  const valueRows: string[][] = [
    ["JS gzip", `${kb(weight.js.gzip)} (${kb(weight.js.raw)} roh, ${plural(weight.js.files, "Datei", "Dateien")})`],
    ["CSS gzip", `${kb(weight.css.gzip)} (${kb(weight.css.raw)} roh, ${plural(weight.css.files, "Datei", "Dateien")})`],
    ["Inline-Skripte gzip", `${kb(weight.inline.gzip)} (${kb(weight.inline.raw)} roh, ${weight.inline.files} Skripte, einzeln gezippt)`],
    [
      "JS-Budget",
      `${kb(weight.js.gzip)} von ${JS_BUDGET_KB} KB (${JS_BASELINE_KB} + 40): ${jsOk ? "eingehalten" : "ÜBERSCHRITTEN"}` +
        ` (${(weight.js.gzip / KB - JS_BASELINE_KB).toFixed(1)} KB über der Grundlinie)`,
    ],
    ["Roundtrip-Ziel", `p95 ${ms(p95)} ms ${p95 < TARGET_MS ? "<" : "≥"} ${TARGET_MS} ms: ${p95 < TARGET_MS ? "erreicht" : "VERFEHLT"}`],
    ["Daten", `${de(rows.people)} Personen, ${de(rows.dogs)} Hunde, ${de(rows.courses)} Kurse, ${de(rows.fees)} offene Posten`],
  ];

  const header = ["Kennzahl", "p50", "p95", "min", "max"];
  const widths = header.map((h, i) => Math.max(h.length, ...[...statRows, ...valueRows.map(([l]) => [l])].map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const rule = "-".repeat(widths.reduce((sum, w) => sum + w + 2, -2));

  console.log();
  console.log(`Wuff-Benchmark People: ${RUNS} Abrufe nach ${WARMUP} zum Aufwärmen, angemeldet als admin`);
  console.log(rule);
  console.log(line(header));
  console.log(rule);
  for (const row of statRows) console.log(line(row));
  console.log(rule);
  for (const [label, value] of valueRows) console.log(`${label.padEnd(widths[0])}  ${value}`);
  console.log(rule);
  console.log("Ziel: People mit 5.000 Personen deutlich unter 100 ms (lokal); JS höchstens 40 KB gzip über ~86 KB");
  console.log(
    "Hinweis: in workerd zählt performance.now() nur bei I/O weiter, app;dur zeigt daher zu wenig CPU-Zeit;\n" +
      "der Roundtrip auf localhost ist die ehrliche Serverzeit.",
  );
}

// ---------------------------------------------------------------------------------------------

async function main() {
  process.chdir(ROOT);
  const [appPort, idpPort] = await freePorts(2);
  const appOrigin = `http://localhost:${appPort}`;
  const idpOrigin = `http://localhost:${idpPort}`;
  rmSync(STATE_DIR, { recursive: true, force: true });

  run("Build (remix vite:build)", `${BIN}/remix`, ["vite:build"]);
  run("Migrationen anwenden", `${BIN}/wrangler`, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE_DIR]);
  run("Benchmarkdaten laden (seed --large)", `${BIN}/tsx`, ["scripts/seed.ts", "--large", "--force", "--persist-to", STATE_DIR]);
  const rows = countRows();

  startApp(appPort, idpPort);
  await waitUntilReady(`${appOrigin}/api/public/test`);
  await login(appOrigin, idpOrigin);

  // /people may redirect to the first person; the chain is resolved once, then timed hop by hop.
  const chain = [`${appOrigin}/people`];
  for (;;) {
    const response = await request(chain[chain.length - 1], { headers: HTML });
    await response.arrayBuffer();
    if (!isRedirect(response)) break;
    const next = new URL(response.headers.get("Location")!, chain[chain.length - 1]).href;
    if (!next.startsWith(`${appOrigin}/`) || chain.length > 5) throw new Error(`/people leitet unerwartet weiter: ${chain.join(" → ")} → ${next}`);
    chain.push(next);
  }
  const pageUrl = chain[chain.length - 1];
  const path = (url: string) => url.slice(appOrigin.length);

  const hops: { path: string; samples: Sample[] }[] = [];
  for (const hopUrl of chain.slice(0, -1)) {
    progress(`Messen: Weiterleitung ${path(hopUrl)}`);
    const samples = await measure(hopUrl, (response) => {
      if (!isRedirect(response)) throw new Error(`${path(hopUrl)}: Status ${response.status} statt Weiterleitung`);
    });
    hops.push({ path: path(hopUrl), samples });
  }

  progress(`Messen: ${path(pageUrl)}`);
  let html = "";
  const page = await measure(pageUrl, (response, body) => {
    if (response.status !== 200 || !body.includes("Personen")) {
      throw new Error(`People-Seite ${path(pageUrl)}: Status ${response.status}\n${body.slice(0, 500)}`);
    }
    html = body;
  });

  progress("JS und CSS der Seite wiegen");
  const weight = await pageWeight(html, appOrigin);
  printReport({ pagePath: path(pageUrl), hops, page, weight, rows });
}

void main()
  .then(
    () => 0,
    (error: unknown) => {
      if (interrupted) return 130;
      console.error(`\nBenchmark abgebrochen: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    },
  )
  .then(async (exitCode) => {
    await stopApp();
    process.exit(interrupted ? 130 : exitCode);
  });
