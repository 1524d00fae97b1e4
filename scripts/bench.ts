/**
 * Side-by-side benchmark: the home page (reference), People and Dogs, each on the demo data and
 * on the large data set (5,000 people, 6,000 dogs, 300 courses, 50,000 fees), in ONE run.
 * The machine is shared and noisy, so absolute numbers mean little; what counts are the ratios
 * between pages and between data sets measured in the same minutes. Not a test: it reports the
 * numbers and only fails when it cannot measure.
 *
 *   tsx scripts/bench.ts [--runs N] [--quick]
 *
 * Builds once, prepares two state dirs (.wrangler/bench-demo: demo data, .wrangler/bench-large:
 * large data), starts two app instances as `npm start` does (scripts/start.sh: wrangler dev plus
 * the local OpenID provider, each on its own free ports), logs in as admin at each through the real
 * provider, then measures in interleaved rounds: every round requests every (data set, page) once
 * in shuffled order, following redirects like a browser. Finally it weighs the JS and CSS of the
 * People page. Progress goes to stderr, the report to stdout.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = "node_modules/.bin";
const READY_TIMEOUT_MS = 180_000;
const MAX_REDIRECTS = 5;
const KB = 1024;

/** Target (a): page p50 / home p50 on the large data set. */
const PAGE_VS_HOME_TARGET = 2.0;
/** Target (b): large p50 / demo p50 of the same page ("cost must not grow with data"). */
const LARGE_VS_DEMO_TARGET = 1.2;
/** JavaScript the People page loads, gzip. */
const JS_BUDGET_KB = 110;

const childEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const progress = (message: string) => console.error(`▸ ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// What is measured

type Dataset = { key: "demo" | "large"; label: string; stateDir: string; seedArgs: string[] };

const DATASETS: Dataset[] = [
  { key: "demo", label: "Demo", stateDir: ".wrangler/bench-demo", seedArgs: [] },
  { key: "large", label: "Groß", stateDir: ".wrangler/bench-large", seedArgs: ["--large", "--force"] },
];

type Page = {
  path: string;
  label: string;
  /** Throws when the final (non-redirect) response is not the page it should be. */
  check: (finalPath: string, body: string) => void;
};

const PAGES: Page[] = [
  {
    path: "/",
    label: "Startseite",
    check: (finalPath, body) => {
      if (finalPath !== "/" || !body.includes("Willkommen bei Wuff") || body.includes("noch nicht eingeloggt")) {
        throw new Error(`Startseite ${finalPath}: nicht die angemeldete Startseite`);
      }
    },
  },
  {
    path: "/people",
    label: "Personen",
    check: (finalPath, body) => {
      if (!finalPath.startsWith("/people") || !body.includes("Personen")) throw new Error(`Personen: unerwartete Seite ${finalPath}`);
    },
  },
  {
    path: "/dogs",
    label: "Hunde",
    check: (finalPath, body) => {
      if (!finalPath.startsWith("/dogs") || !body.includes("Hunde")) throw new Error(`Hunde: unerwartete Seite ${finalPath}`);
    },
  },
  {
    // Every year: the course list with its counted dogs and sessions, and the first course's participants.
    path: "/courses?year=all",
    label: "Kurse",
    check: (finalPath, body) => {
      if (!finalPath.startsWith("/courses") || !body.includes("Teilnehmer für")) throw new Error(`Kurse: unerwartete Seite ${finalPath}`);
    },
  },
];

const HOME = PAGES[0];
const PEOPLE = PAGES[1];

// ---------------------------------------------------------------------------------------------
// Options

type Options = { rounds: number; warmup: number };

const USAGE = "Aufruf: tsx scripts/bench.ts [--runs N] [--quick]   (npm run bench -- --quick)";

function parseOptions(args: string[]): Options {
  let rounds: number | undefined;
  let quick = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--quick") {
      quick = true;
    } else if (arg === "--runs" || arg.startsWith("--runs=")) {
      const value = arg === "--runs" ? args[++i] : arg.slice("--runs=".length);
      rounds = Number(value);
      if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--runs braucht eine ganze Zahl ≥ 1, nicht ${value}\n${USAGE}`);
    } else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else {
      throw new Error(`Unbekannte Option ${arg}\n${USAGE}`);
    }
  }
  // --runs wins over --quick's default; --quick also shortens the warm-up.
  return { rounds: rounds ?? (quick ? 10 : 40), warmup: quick ? 2 : 5 };
}

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
function run(label: string, command: string, args: string[]): Promise<string> {
  progress(label);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    const output: string[] = [];
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      output.push(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk));
    child.once("error", (error) => reject(new Error(`${label} fehlgeschlagen: ${error.message}`)));
    child.once("close", (code, signal) => {
      if (code === 0) {
        progress(`  ${label}: fertig in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        resolve(stdout);
      } else {
        process.stderr.write(`${output.join("")}\n`);
        reject(new Error(`${label} fehlgeschlagen: Exit-Code ${code ?? signal}`));
      }
    });
  });
}

/** Waits for every task to end, then throws the first failure: no setup step outlives the script. */
async function settleAll(tasks: Promise<unknown>[]) {
  const failed = (await Promise.allSettled(tasks)).find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}

type RowCounts = { people: number; dogs: number; courses: number; fees: number };

/** A fresh state dir: migrations, then the data set's seed; returns the rows counted afterwards. */
async function prepareData(dataset: Dataset): Promise<RowCounts> {
  rmSync(dataset.stateDir, { recursive: true, force: true });
  await run(`${dataset.label}: Migrationen anwenden (${dataset.stateDir})`, `${BIN}/wrangler`, [
    "d1", "migrations", "apply", "DB", "--local", "--persist-to", dataset.stateDir,
  ]);
  const seed = dataset.seedArgs.length > 0 ? `seed ${dataset.seedArgs.join(" ")}` : "seed";
  await run(`${dataset.label}: Daten laden (${seed})`, `${BIN}/tsx`, [
    "scripts/seed.ts", ...dataset.seedArgs, "--persist-to", dataset.stateDir,
  ]);
  // Counted in the database rather than trusted from the seed's output.
  const sql =
    "SELECT (SELECT count(*) FROM people) AS people, (SELECT count(*) FROM dogs) AS dogs, " +
    "(SELECT count(*) FROM courses) AS courses, (SELECT count(*) FROM fees) AS fees";
  const output = await run(`${dataset.label}: Zeilen zählen`, `${BIN}/wrangler`, [
    "d1", "execute", "DB", "--local", "--persist-to", dataset.stateDir, "--yes", "--json", "--command", sql,
  ]);
  const [first] = JSON.parse(output) as { results: RowCounts[] }[];
  return first.results[0];
}

// ---------------------------------------------------------------------------------------------
// The app instances: one process group each

type Instance = {
  dataset: Dataset;
  appOrigin: string;
  idpOrigin: string;
  child?: ChildProcess;
  /** The last lines of start.sh's output, for the error message if the app does not come up. */
  log: string[];
};

const instances: Instance[] = [];
let stopping: Promise<void> | undefined;
let interrupted = false;

/** scripts/start.sh in its own process group, so wrangler, workerd and the provider stop together. */
function startApp(dataset: Dataset, appPort: number, idpPort: number): Instance {
  // After Ctrl-C nothing new may start: stopApps only stops the instances it has seen.
  if (stopping) throw new Error("abgebrochen");
  progress(`${dataset.label}: App starten (scripts/start.sh) auf Port ${appPort}, Identitätsanbieter auf Port ${idpPort}`);
  const instance: Instance = {
    dataset,
    appOrigin: `http://localhost:${appPort}`,
    idpOrigin: `http://localhost:${idpPort}`,
    log: [],
  };
  instances.push(instance);
  instance.child = spawn("bash", ["scripts/start.sh"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...childEnv,
      PORT: String(appPort),
      IDP_PORT: String(idpPort),
      WUFF_STATE_DIR: dataset.stateDir,
      WUFF_SKIP_BUILD: "1",
      // The defaults, pinned so a stray HOST or LOCAL_IDP in the shell cannot break the login.
      HOST: "127.0.0.1",
      LOCAL_IDP: "1",
    },
  });
  const keep = (chunk: Buffer) => {
    instance.log.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    instance.log.splice(0, Math.max(0, instance.log.length - 60));
  };
  instance.child.stdout?.on("data", keep);
  instance.child.stderr?.on("data", keep);
  return instance;
}

async function waitUntilReady(instance: Instance) {
  const url = `${instance.appOrigin}/api/public/test`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const { child } = instance;
  while (Date.now() < deadline) {
    if (!child || stopping || child.exitCode !== null || child.signalCode !== null) break;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        progress(`${instance.dataset.label}: App bereit auf ${instance.appOrigin}`);
        return;
      }
    } catch {
      // Not listening yet.
    }
    await sleep(500);
  }
  throw new Error(
    `${instance.dataset.label}: die App antwortet nicht mit 200 auf ${url}. Letzte Ausgabe von start.sh:\n${instance.log.join("\n")}`,
  );
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM to the whole group, SIGKILL for whatever is still there after 10 s. */
async function stopGroup(instance: Instance) {
  const pid = instance.child?.pid;
  if (!pid) return;
  if (groupAlive(pid)) process.kill(-pid, "SIGTERM");
  for (let waited = 0; waited < 10_000 && groupAlive(pid); waited += 200) await sleep(200);
  if (groupAlive(pid)) process.kill(-pid, "SIGKILL");
  instance.child = undefined;
}

/** Once, however often it is called (error path and Ctrl-C may race); all groups in parallel. */
const stopApps = () =>
  (stopping ??= (async () => {
    if (instances.some((instance) => instance.child)) progress("Apps stoppen");
    await Promise.all(instances.map(stopGroup));
  })());

// Last resort if the process ends some other way: never leave a server behind.
process.on("exit", () => {
  for (const { child } of instances) {
    if (!child?.pid) continue;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // tsx relays the terminal's Ctrl-C to this process, which got it already: once is enough.
    if (interrupted) return;
    progress(`${signal} erhalten`);
    interrupted = true;
    void stopApps().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// HTTP with a cookie jar per origin (name=value only; paths and flags do not matter here).
// Per origin, not per host as a browser would: the two instances differ only by port and
// must keep their own sessions.

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

async function login({ dataset, appOrigin, idpOrigin }: Instance) {
  progress(`${dataset.label}: anmelden als admin beim lokalen Identitätsanbieter`);
  const trail: string[] = [];
  const fail = (message: string) => new Error(`${dataset.label}: Anmeldung fehlgeschlagen: ${message}\n${trail.join("\n")}`);

  const start = await request(`${appOrigin}/login?redirectTo=%2F`, { headers: HTML });
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
// One page visit: the redirect chain a browser goes through, timed hop by hop

type Hop = { path: string; status: number; ms: number; app?: number; db?: number; queries?: number };
type Visit = { hops: Hop[] };

/** `app;dur=12.3, db;dur=4.5;desc="3 D1-Abfragen"` → name → { dur, desc } (first of each name). */
function parseServerTiming(header: string | null) {
  const metrics = new Map<string, { dur?: number; desc?: string }>();
  // Split at commas outside quotes.
  for (const entry of (header ?? "").split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
    // Split at semicolons outside quotes.
    const [name, ...params] = entry.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((part) => part.trim());
    if (!name || metrics.has(name)) continue;
    const metric: { dur?: number; desc?: string } = {};
    for (const param of params) {
      const eq = param.indexOf("=");
      if (eq < 0) continue;
      const key = param.slice(0, eq).trim().toLowerCase();
      const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
      if (key === "dur" && value !== "" && Number.isFinite(Number(value))) metric.dur = Number(value);
      if (key === "desc") metric.desc = value;
    }
    metrics.set(name, metric);
  }
  const db = metrics.get("db");
  // The D1 call count: the first integer of db's description, whatever the words around it;
  // digits glued to letters (the 1 of "D1") are a name, not a count, unless nothing else is there.
  const desc = db?.desc ?? "";
  const queries = (/(?<![\p{L}\d.])\d+(?!\d)/u.exec(desc) ?? /\d+/.exec(desc))?.[0];
  return { app: metrics.get("app")?.dur, db: db?.dur, queries: queries === undefined ? undefined : Number(queries) };
}

async function visit(instance: Instance, page: Page): Promise<Visit & { html: string }> {
  const hops: Hop[] = [];
  let url = `${instance.appOrigin}${page.path}`;
  for (;;) {
    const path = url.slice(instance.appOrigin.length);
    const started = performance.now();
    const response = await request(url, { headers: HTML });
    const body = await response.text();
    const ms = performance.now() - started;
    hops.push({ path, status: response.status, ms, ...parseServerTiming(response.headers.get("Server-Timing")) });
    if (!isRedirect(response)) {
      if (response.status !== 200) {
        throw new Error(`${instance.dataset.label} ${page.path}: Status ${response.status} auf ${path}\n${body.slice(0, 500)}`);
      }
      page.check(path, body);
      return { hops, html: body };
    }
    const next = new URL(response.headers.get("Location")!, url);
    const chain = [...hops.map((hop) => hop.path), next.href].join(" → ");
    if (next.origin !== instance.appOrigin || next.pathname === "/login") {
      throw new Error(`${instance.dataset.label} ${page.path}: Weiterleitung weg von der Seite (Sitzung verloren?): ${chain}`);
    }
    if (hops.length > MAX_REDIRECTS) throw new Error(`${instance.dataset.label} ${page.path}: zu viele Weiterleitungen: ${chain}`);
    url = next.href;
  }
}

// ---------------------------------------------------------------------------------------------
// Interleaved rounds

/** One (data set, page) pair: its visits, one per measured round in round order, and the last page's HTML. */
type Cell = { instance: Instance; page: Page; visits: Visit[]; lastHtml: string };

function shuffle<T>(items: T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

async function measureRounds(cells: Cell[], { rounds, warmup }: Options) {
  const started = performance.now();
  for (let round = -warmup; round < rounds; round++) {
    if (interrupted) throw new Error("abgebrochen");
    for (const cell of shuffle(cells)) {
      const { hops, html } = await visit(cell.instance, cell.page);
      if (round >= 0) cell.visits.push({ hops });
      cell.lastHtml = html;
    }
    const done = round + 1;
    if (done === 0) progress(`Aufwärmen fertig (${warmup} Runden), messen: ${rounds} Runden zu je ${cells.length} Seiten`);
    else if (done > 0 && (done % 10 === 0 || done === rounds)) {
      progress(`  Runde ${done}/${rounds} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics

const finite = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined && Number.isFinite(v));

/** Nearest-rank percentile; undefined without values. */
function percentile(values: (number | undefined)[], p: number): number | undefined {
  const sorted = finite(values).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Sum over the hops; undefined when no hop reported the value. */
function sumOf(hops: Hop[], key: "db" | "app" | "queries"): number | undefined {
  const values = finite(hops.map((hop) => hop[key]));
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0);
}

const totalMs = (visit: Visit) => visit.hops.reduce((sum, hop) => sum + hop.ms, 0);
const finalHop = (visit: Visit) => visit.hops[visit.hops.length - 1];

/** Small deterministic PRNG (mulberry32), so the same samples give the same bootstrap range. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * p50(a) / p50(b), and its 90 % bootstrap range over the rounds: rounds are resampled as pairs
 * (a and b of the same round were measured seconds apart), so the range shows how much the
 * machine's noise moves the ratio.
 */
function ratio(a: number[], b: number[]) {
  const value = percentile(a, 50)! / percentile(b, 50)!;
  const random = prng(42);
  const estimates: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const picks = Array.from({ length: a.length }, () => Math.floor(random() * a.length));
    estimates.push(percentile(picks.map((k) => a[k]), 50)! / percentile(picks.map((k) => b[k]), 50)!);
  }
  return { value, low: percentile(estimates, 5)!, high: percentile(estimates, 95)! };
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

const fmtMs = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(1));
const fmtCount = (value: number | undefined) => (value === undefined ? "–" : String(value));
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const de = (n: number) => n.toLocaleString("de-DE");
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const verdict = (ok: boolean) => (ok ? "erfüllt" : "VERFEHLT");

/** Columns padded to their widest cell; the first `left` columns left-aligned, the rest right. */
function table(header: string[], rows: string[][], left: number): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < left ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)];
}

/** The distinct values, e.g. "1" or "0–1" if the number of redirects changed between rounds. */
function range(values: number[]) {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? String(min) : `${min}–${max}`;
}

function cellRow(cell: Cell): string[] {
  const { visits } = cell;
  const hopCounts = visits.map((v) => v.hops.length - 1);
  const queries = percentile(visits.map((v) => sumOf(v.hops, "queries")), 50);
  // Per hop (as long as every visit had the same chain): which response made how many D1 calls.
  const sameChain = Math.min(...hopCounts) === Math.max(...hopCounts);
  const perHop =
    sameChain && hopCounts[0] > 0
      ? ` (${visits[0].hops.map((_, i) => fmtCount(percentile(visits.map((v) => v.hops[i].queries), 50))).join("+")})`
      : "";
  return [
    cell.page.path,
    cell.instance.dataset.label,
    range(hopCounts),
    fmtMs(percentile(visits.map(totalMs), 50)),
    fmtMs(percentile(visits.map(totalMs), 95)),
    fmtMs(percentile(visits.map((v) => finalHop(v).ms), 50)),
    fmtMs(percentile(visits.map((v) => sumOf(v.hops, "db")), 50)),
    `${fmtCount(queries)}${perHop}`,
    fmtMs(percentile(visits.map((v) => sumOf(v.hops, "app")), 50)),
  ];
}

function printReport(report: {
  options: Options;
  cells: Cell[];
  rows: Map<Dataset, RowCounts>;
  weight: Awaited<ReturnType<typeof pageWeight>>;
  weighedPath: string;
}) {
  const { options, cells, rows, weight, weighedPath } = report;
  const cell = (dataset: Dataset, page: Page) => cells.find((c) => c.instance.dataset === dataset && c.page === page)!;
  const demo = DATASETS.find((d) => d.key === "demo")!;
  const large = DATASETS.find((d) => d.key === "large")!;
  const out: string[] = [];

  out.push(
    "",
    `Wuff-Benchmark: ${options.rounds} Runden nach ${options.warmup} zum Aufwärmen; je Runde jede Seite auf beiden`,
    "Datensätzen einmal, in zufälliger Reihenfolge; angemeldet als admin",
    "",
  );
  const header = ["Seite", "Daten", "Hops", "RT p50", "RT p95", "Endseite p50", "db p50", "D1-Abfragen", "app p50"];
  out.push(...table(header, PAGES.flatMap((page) => DATASETS.map((dataset) => cellRow(cell(dataset, page)))), 2));

  out.push("");
  for (const page of PAGES) {
    for (const dataset of DATASETS) {
      const { visits } = cell(dataset, page);
      const chains = new Set(visits.map((v) => v.hops.map((hop) => `${hop.path} (${hop.status})`).join(" → ")));
      if (visits.some((v) => v.hops.length > 1)) out.push(`Weiterleitung ${dataset.label}: ${[...chains].join(" | ")}`);
    }
  }

  // Targets: ratios of p50 round trips (whole chain), with the bootstrap range in brackets.
  const targetRows: string[][] = [];
  const rt = (dataset: Dataset, page: Page) => cell(dataset, page).visits.map(totalMs);
  const addTarget = (label: string, a: number[], b: number[], target: number) => {
    const r = ratio(a, b);
    targetRows.push([label, r.value.toFixed(2), `${r.low.toFixed(2)}–${r.high.toFixed(2)}`, `≤ ${target.toFixed(1)}`, verdict(r.value <= target)]);
  };
  for (const page of PAGES.filter((p) => p !== HOME)) {
    addTarget(`(a) ${large.label}: ${page.path} ÷ ${HOME.label}`, rt(large, page), rt(large, HOME), PAGE_VS_HOME_TARGET);
  }
  for (const page of PAGES) {
    addTarget(`(b) ${page.path}: ${large.label} ÷ ${demo.label}`, rt(large, page), rt(demo, page), LARGE_VS_DEMO_TARGET);
  }
  out.push("", ...table(["Verhältnis der RT p50", "Wert", "90-%-Bereich", "Ziel", "Ergebnis"], targetRows, 1));

  const jsOk = weight.js.gzip <= JS_BUDGET_KB * KB;
  out.push(
    "",
    `Gewicht der Personen-Seite (${weighedPath}, ${large.label}):`,
    `  JavaScript gzip   ${kb(weight.js.gzip)} (${kb(weight.js.raw)} roh, ${plural(weight.js.files, "Datei", "Dateien")}),` +
      ` Budget ${JS_BUDGET_KB} KB: ${verdict(jsOk)}`,
    `  CSS gzip          ${kb(weight.css.gzip)} (${kb(weight.css.raw)} roh, ${plural(weight.css.files, "Datei", "Dateien")})`,
    `  Inline-Skripte    ${kb(weight.inline.gzip)} gzip (${kb(weight.inline.raw)} roh, ${weight.inline.files} Skripte, einzeln gezippt)`,
    "",
    "Daten:",
    ...DATASETS.map((dataset) => {
      const r = rows.get(dataset)!;
      return `  ${dataset.label.padEnd(5)} ${de(r.people)} Personen, ${de(r.dogs)} Hunde, ${de(r.courses)} Kurse, ${de(r.fees)} offene Posten`;
    }),
    "",
    "Legende:",
    "  RT            Roundtrip auf localhost (Wanduhr, bis zum letzten Byte); bei Weiterleitungen die Summe",
    "                aller Hops, wie ein Browser sie durchläuft: das ist die Zeit der Seite",
    "  Hops          Anzahl der Weiterleitungen vor der Endseite (z. B. /people → /people/{id}/dogs)",
    "  Endseite p50  RT der letzten Antwort allein, ohne Weiterleitungen",
    "  db p50        Server-Timing db;dur (Wartezeit auf D1), Summe über alle Hops; parallele Abfragen",
    "                einer Antwort zählen jede für sich, db kann daher größer sein als app",
    "  D1-Abfragen   Median der D1-Aufrufe laut Server-Timing, Summe über alle Hops (in Klammern je Hop)",
    "  app p50       Server-Timing app;dur; in workerd zählt performance.now() nur bei I/O weiter,",
    "                app;dur zeigt daher zu wenig CPU-Zeit: der RT ist die ehrliche Serverzeit",
    `  (a)           Seite ÷ Startseite auf den großen Daten, Ziel ≤ ${PAGE_VS_HOME_TARGET.toFixed(1)}`,
    `  (b)           große ÷ Demodaten für dieselbe Seite, Ziel ≤ ${LARGE_VS_DEMO_TARGET.toFixed(1)} (Kosten dürfen nicht mit den Daten wachsen)`,
    "  90-%-Bereich  Bootstrap über die Runden (Paare derselben Runde): so weit bewegt das Rauschen",
    "                der Maschine das Verhältnis; bewertet wird der Wert",
    "  JavaScript    alle Module der Seite (Skripte, modulepreload, Imports im Inline-Skript), je Datei gzip -9;",
    `                Budget ${JS_BUDGET_KB} KB`,
    "  Die Maschine ist geteilt und laut: absolute Zeiten schwanken zwischen Läufen stark,",
    "  die Verhältnisse innerhalb eines Laufs viel weniger.",
  );
  console.log(out.join("\n"));
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const options = parseOptions(process.argv.slice(2));
  process.chdir(ROOT);
  const benchStarted = performance.now();

  // Build and both data sets side by side: they do not depend on each other.
  const build = run("Build (remix vite:build)", `${BIN}/remix`, ["vite:build"]);
  // Once here, so the two start.sh do not both create .dev.vars.
  const secrets = run("Lokale Geheimnisse (.dev.vars)", "bash", ["scripts/ensure-dev-vars.sh"]);
  const data = DATASETS.map(prepareData);
  await settleAll([build, secrets, ...data]);
  const counts = await Promise.all(data);
  const rows = new Map(DATASETS.map((dataset, i) => [dataset, counts[i]]));

  // One after the other: wrangler picks its inspector port by probing from 9229, and two
  // instances starting at the same moment both find the same free one (then one dies).
  const started: Instance[] = [];
  for (const dataset of DATASETS) {
    // Picked right before the start, so nothing else takes them during the long setup.
    const [appPort, idpPort] = await freePorts(2);
    const instance = startApp(dataset, appPort, idpPort);
    await waitUntilReady(instance);
    await login(instance);
    started.push(instance);
  }

  const cells: Cell[] = started.flatMap((instance) => PAGES.map((page) => ({ instance, page, visits: [], lastHtml: "" })));
  await measureRounds(cells, options);

  progress("JS und CSS der Personen-Seite wiegen");
  const people = cells.find((c) => c.instance.dataset.key === "large" && c.page === PEOPLE)!;
  const last = people.visits[people.visits.length - 1];
  const weight = await pageWeight(people.lastHtml, people.instance.appOrigin);

  printReport({ options, cells, rows, weight, weighedPath: finalHop(last).path });
  progress(`fertig in ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
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
    await stopApps();
    process.exit(interrupted ? 130 : exitCode);
  });
