/**
 * Side-by-side benchmark: the session ping (the floor every page is compared with), the home page,
 * People, Dogs, Kontenblatt, Courses and the screens of banking, Mahnwesen and Datenschutz, each on
 * the demo data and on the large data set (5,000 people, 6,000 dogs, 300 courses, 50,000 fees), in
 * ONE run; then the bulk runs on the queue on the large data.
 * The machine is shared and noisy, so absolute numbers mean little; what counts are the ratios
 * between pages and between data sets measured in the same minutes. Not a test: it reports the
 * numbers and only fails when it cannot measure.
 *
 *   tsx scripts/bench.ts [--runs N] [--quick] [--only pdfs|pages]
 *
 * Builds once, prepares two state dirs (.wrangler/bench-demo: demo data, .wrangler/bench-large:
 * large data), starts two app instances as `npm start` does (scripts/start.sh: the worker in workerd plus
 * the local OpenID provider, each on its own free ports), logs in as admin at each through the real
 * provider, then measures in interleaved rounds: every round requests every (data set, page) once
 * in shuffled order, following redirects like a browser. It weighs the JS and CSS of the People
 * page. Finally, on the large instance only (the runs change its data): Rechnungen schreiben
 * (started as the admin's form post, followed on the Tasks screen until its result shows, then
 * checked in the state dir's SQLite), the undo of that run, and Jahresbeiträge for next year twice
 * (the second must add nothing), then 'PDFs erzeugen' over the 200 invoices of the large data in
 * one run (real PDFs through the local Browser Rendering into R2). `--only pdfs` prepares only
 * the large data and measures only the PDF run; `--only pages` measures the pages and their weight
 * without the bulk runs (a few minutes shorter). `--scale` measures the pages on the large data
 * against four times as much (.wrangler/bench-large4: 20,000 people, 200,000 fees): both fill every
 * grid page and home panel, so a ratio above 1 there is a query whose cost grows with the data, not
 * more rows shown. Progress goes to stderr, the report to stdout.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { freePorts } from "./free-ports";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = "node_modules/.bin";
const READY_TIMEOUT_MS = 180_000;
const MAX_REDIRECTS = 5;
const KB = 1024;

/** Target (a): page p50 / floor p50 (the session ping) on the large data set. */
const PAGE_VS_FLOOR_TARGET = 2.5;
/** Target (b): large p50 / demo p50 of the same page ("cost must not grow with data"). */
const LARGE_VS_DEMO_TARGET = 1.2;
/** Target (e): the public catalogue ÷ the home page on the large data set (issue 33). */
const CATALOGUE_VS_HOME_TARGET = 1.5;
/** JavaScript the People page loads, gzip. */
const JS_BUDGET_KB = 95;
/** Target (c): Rechnungen schreiben on the large data set, from the POST until the Tasks screen shows its result. */
const INVOICE_RUN_TARGET_S = 15;
/** Target (d): 'PDFs erzeugen' over the large data's invoices, PDFs per second of the whole run. */
const PDF_RUN_TARGET_PER_S = 7;
/** How many invoices the PDF run renders (the large data has this many, none with a PDF). */
const PDF_RUN_INVOICES = 200;
/** A bulk run that has not finished by then counts as hanging. */
const JOB_TIMEOUT_MS = 120_000;
/** How often the Tasks screen is read while a run is under way. */
const POLL_MS = 150;
/** What the Tasks screen shows while a run is under way (app/lib/jobs.ts). */
const WORKING = "working ...";

const childEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const progress = (message: string) => console.error(`▸ ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// What is measured

/** The two data sets compared: the smaller one first. */
type Dataset = { key: "small" | "big"; label: string; stateDir: string; seedArgs: string[] };

const DEMO: Dataset = { key: "small", label: "Demo", stateDir: ".wrangler/bench-demo", seedArgs: [] };
const LARGE: Dataset = { key: "big", label: "Groß", stateDir: ".wrangler/bench-large", seedArgs: ["--large", "--force"] };
/** --scale: the large data against four times as much, so both fill every page and panel alike. */
const SCALED = [
  { ...LARGE, key: "small" },
  { key: "big", label: "4×Groß", stateDir: ".wrangler/bench-large4", seedArgs: ["--large", "--times", "4", "--force"] },
] satisfies Dataset[];

/** Set by main() from the options: demo and large, or (--scale) large and four times large. */
let DATASETS: Dataset[] = [DEMO, LARGE];

type Page = {
  path: string;
  label: string;
  /** Throws when the final (non-redirect) response is not the page it should be. */
  check: (finalPath: string, body: string) => void;
  /** The floor: a POST answered with this status (no page, no redirect). */
  post?: { status: number };
  /** A public page (no grid, no login): not held to target (a); its own target instead. */
  public?: boolean;
  /** Headers of each request (the public catalogue: a visitor's address of its own). */
  headers?: () => Record<string, string>;
};

/** A screen recognised by its document title ('Mahnwesen – Wuff'), reached without a redirect. */
function titledPage(path: string, title: string, label: string): Page {
  return {
    path,
    label,
    check: (finalPath, body) => {
      if (new URL(finalPath, "http://x").pathname !== new URL(path, "http://x").pathname || !body.includes(`<title>${title} – Wuff</title>`))
        throw new Error(`${label}: unerwartete Seite ${finalPath}`);
    },
  };
}

/**
 * The floor every page is compared with: the browser's keep-alive (POST /api/session/ping), which
 * goes through the worker and looks the session up in D1 (one round trip) but reads nothing else
 * and renders nothing. The home page runs real queries (its six cards), so it is no floor.
 */
const FLOOR: Page = {
  path: "/api/session/ping",
  label: "Sitzungs-Ping",
  post: { status: 204 },
  check: (finalPath) => {
    if (finalPath !== "/api/session/ping") throw new Error(`Sitzungs-Ping: unerwartete Antwort ${finalPath}`);
  },
};

/** Visitors of the public catalogue, each from an address of its own (TEST-NET-2): the
 *  catalogue's rate limit counts per address, and one visitor does not read it 45 times a minute. */
let visitor = 0;
const CATALOGUE: Page = {
  path: "/kurse",
  label: "Kursangebot",
  public: true,
  headers: () => ({ "CF-Connecting-IP": `198.51.100.${(visitor++ % 250) + 1}` }),
  check: (finalPath, body) => {
    if (finalPath !== "/kurse" || !body.includes("<title>Kursangebot – Mein Wuff</title>") || !/\d+ Kurse?(<|, Seite)/.test(body))
      throw new Error(`Kursangebot: unerwartete Seite ${finalPath}`);
  },
};

const PAGES: Page[] = [
  FLOOR,
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
    // Kontenblatt: every fee (50,000 on the large data), a page of them and the sums over all.
    path: "/fees",
    label: "Kontenblatt",
    check: (finalPath, body) => {
      if (finalPath !== "/fees" || !body.includes("<title>Kontenblatt – Wuff</title>") || !body.includes(">Summe<")) {
        throw new Error(`Kontenblatt: unerwartete Seite ${finalPath}`);
      }
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
  // The screens of banking, Mahnwesen and Datenschutz (issues 15 to 17), each over all its records.
  titledPage("/invoices?reminder=due", "Rechnungen", "Rechnungen, Mahnung fällig"),
  titledPage("/fees?reminder=due", "Kontenblatt", "Kontenblatt, Mahnung fällig"),
  titledPage("/reminders", "Mahnwesen", "Mahnwesen"),
  titledPage("/directdebits", "Lastschriftläufe", "Lastschriftläufe"),
  titledPage("/gdpr", "Datenschutz", "Datenschutz"),
  CATALOGUE,
];

const PEOPLE = PAGES[2];

// ---------------------------------------------------------------------------------------------
// Options

type Options = {
  rounds: number;
  warmup: number;
  /** Only this part: 'pdfs' (the PDF run on the large data) or 'pages' (no bulk runs). */
  only: "pdfs" | "pages" | null;
  /** Where each page's time goes: the app's phases (PHASE_TIMING) and the way there and back. */
  phases: boolean;
  /** Large against four times large instead of demo against large (pages only). */
  scale: boolean;
};

const USAGE = "Aufruf: tsx scripts/bench.ts [--runs N] [--quick] [--only pdfs|pages] [--phases] [--scale]   (npm run bench -- --quick)";

function parseOptions(args: string[]): Options {
  let rounds: number | undefined;
  let quick = false;
  let only: Options["only"] = null;
  let phases = false;
  let scale = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--quick") {
      quick = true;
    } else if (arg === "--phases") {
      phases = true;
    } else if (arg === "--scale") {
      scale = true;
    } else if (arg === "--only" || arg.startsWith("--only=")) {
      const value = arg === "--only" ? args[++i] : arg.slice("--only=".length);
      if (value !== "pdfs" && value !== "pages") throw new Error(`--only kennt nur pdfs und pages, nicht ${value}\n${USAGE}`);
      only = value;
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
  if (scale && only === "pdfs") throw new Error(`--scale misst nur Seiten, nicht mit --only pdfs\n${USAGE}`);
  // --runs wins over --quick's default; --quick also shortens the warm-up. --scale measures pages
  // only: the runs' targets are set for the large data.
  return { rounds: rounds ?? (quick ? 10 : 40), warmup: quick ? 2 : 5, only: scale ? "pages" : only, phases, scale };
}

// ---------------------------------------------------------------------------------------------
// Setup: ports, build, data

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
    "d1",
    "migrations",
    "apply",
    "DB",
    "--local",
    "--persist-to",
    dataset.stateDir,
  ]);
  const seed = dataset.seedArgs.length > 0 ? `seed ${dataset.seedArgs.join(" ")}` : "seed";
  await run(`${dataset.label}: Daten laden (${seed})`, `${BIN}/tsx`, ["scripts/seed.ts", ...dataset.seedArgs, "--persist-to", dataset.stateDir]);
  // Counted in the database rather than trusted from the seed's output.
  const sql =
    "SELECT (SELECT count(*) FROM people) AS people, (SELECT count(*) FROM dogs) AS dogs, " +
    "(SELECT count(*) FROM courses) AS courses, (SELECT count(*) FROM fees) AS fees";
  const output = await run(`${dataset.label}: Zeilen zählen`, `${BIN}/wrangler`, [
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    dataset.stateDir,
    "--yes",
    "--json",
    "--command",
    sql,
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
function startApp(dataset: Dataset, appPort: number, idpPort: number, phases = false): Instance {
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
      // --phases: the worker tells where a request's time goes (app/services/phase-timing.server.ts).
      ...(phases ? { WUFF_DEV_ARGS: "--var PHASE_TIMING:1" } : {}),
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
  throw new Error(`${instance.dataset.label}: die App antwortet nicht mit 200 auf ${url}. Letzte Ausgabe von start.sh:\n${instance.log.join("\n")}`);
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
      attributes
        .map((a) => a.trim().split("="))
        .find(([k]) => k.toLowerCase() === key)
        ?.slice(1)
        .join("=");
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

type Hop = { path: string; status: number; ms: number; app?: number; db?: number; queries?: number; phases?: Phases };

/**
 * Where one response's time went (--phases), in ms: the way to the worker, the worker's phases
 * (Server-Timing of app/services/phase-timing.server.ts), the way back until the response's head
 * arrived, and its body (transfer and decompression in this client). The two clocks are the same
 * machine's; the worker's has whole milliseconds.
 */
type Phases = { there: number; loaders?: number; render?: number; worker: number; back: number; body: number };
const PHASE_COLUMNS: [keyof Phases, string][] = [
  ["there", "Hinweg"],
  ["loaders", "Loader"],
  ["render", "Rendern"],
  ["worker", "Worker"],
  ["back", "Rückweg"],
  ["body", "Körper"],
];
type Visit = { hops: Hop[] };

/** `app;dur=12.3, db;dur=4.5;desc="3 D1-Abfragen"` → name → { dur, desc } (first of each name). */
function serverTimingMetrics(header: string | null) {
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
      const value = param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1");
      if (key === "dur" && value !== "" && Number.isFinite(Number(value))) metric.dur = Number(value);
      if (key === "desc") metric.desc = value;
    }
    metrics.set(name, metric);
  }
  return metrics;
}

type TimingMetrics = ReturnType<typeof serverTimingMetrics>;

/** What every run reports of a response's Server-Timing: the worker's time, D1's time and calls. */
function parseServerTiming(metrics: TimingMetrics) {
  const db = metrics.get("db");
  // The D1 call count: the first integer of db's description, whatever the words around it;
  // digits glued to letters (the 1 of "D1") are a name, not a count, unless nothing else is there.
  const desc = db?.desc ?? "";
  const queries = (/(?<![\p{L}\d.])\d+(?!\d)/u.exec(desc) ?? /\d+/.exec(desc))?.[0];
  return { app: metrics.get("app")?.dur, db: db?.dur, queries: queries === undefined ? undefined : Number(queries) };
}

/** The phases of one response (--phases), or undefined when the worker does not tell them. */
function phasesOf(metrics: TimingMetrics, client: { started: number; headAt: number; ms: number }): Phases | undefined {
  const arrived = Number(metrics.get("arrived")?.desc);
  const left = Number(metrics.get("left")?.desc);
  const worker = metrics.get("worker")?.dur;
  if (!Number.isFinite(arrived) || !Number.isFinite(left) || worker === undefined) return undefined;
  const wallClock = (at: number) => performance.timeOrigin + at;
  return {
    there: arrived - wallClock(client.started),
    loaders: metrics.get("loaders")?.dur,
    render: metrics.get("render")?.dur,
    worker,
    back: wallClock(client.headAt) - left,
    body: client.ms - (client.headAt - client.started),
  };
}

async function visit(instance: Instance, page: Page): Promise<Visit & { html: string }> {
  const hops: Hop[] = [];
  let url = `${instance.appOrigin}${page.path}`;
  for (;;) {
    const path = url.slice(instance.appOrigin.length);
    const started = performance.now();
    const headers = { ...HTML, ...page.headers?.() };
    const response = await request(url, page.post ? { method: "POST", headers: { ...headers, Origin: instance.appOrigin } } : { headers });
    const headAt = performance.now();
    const body = await response.text();
    const ms = performance.now() - started;
    const timing = serverTimingMetrics(response.headers.get("Server-Timing"));
    hops.push({ path, status: response.status, ms, ...parseServerTiming(timing), phases: phasesOf(timing, { started, headAt, ms }) });
    if (page.post) {
      if (response.status !== page.post.status) throw new Error(`${instance.dataset.label} ${page.path}: Status ${response.status} statt ${page.post.status}`);
      page.check(path, body);
      return { hops, html: body };
    }
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
// Bulk runs on the queue (large data only): Rechnungen schreiben, its undo, Jahresbeiträge.
// Started as the admin's form posts on the Tasks screen, followed on that screen as a user would,
// and checked afterwards in the instance's SQLite (wrangler d1 execute --local on its state dir;
// it reads the same file while the worker runs).

/** Rows of each statement of `sql` (statements separated by ";"), read from the state dir's D1. */
async function queryDb(dataset: Dataset, label: string, sql: string): Promise<Record<string, unknown>[][]> {
  const output = await run(`${dataset.label}: ${label}`, `${BIN}/wrangler`, [
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    dataset.stateDir,
    "--yes",
    "--json",
    "--command",
    sql,
  ]);
  return (JSON.parse(output) as { results: Record<string, unknown>[] }[]).map((statement) => statement.results);
}

const num = (value: unknown) => Number(value ?? NaN);

/** A fee "Rechnungen schreiben" bills (as app/models/invoice-runs.server.ts: billable). */
const BILLABLE = "f.send_invoice = 1 AND f.is_invoiced = 0 AND NOT EXISTS (SELECT 1 FROM invoice_rows br WHERE br.fee_id = f.id)";
/** The newest run of a type: the one just started (one run per type at a time). */
const newestJob = (type: string) => `(SELECT max(id) FROM jobs WHERE type = '${type}')`;

/** Posts a Tasks dialog's form as the logged-in admin; the action answers with a redirect when it started or did the work. */
async function postTask(instance: Instance, form: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await request(`${instance.appOrigin}/tasks`, {
    method: "POST",
    // The app refuses cross-site writes: a browser sends its own origin with the form.
    headers: { ...HTML, Origin: instance.appOrigin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  const body = await response.text();
  const ms = performance.now() - started;
  const location = response.headers.get("Location") ?? "";
  if (!isRedirect(response) || new URL(location, instance.appOrigin).pathname !== "/tasks") {
    const text = body
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 300);
    throw new Error(`${instance.dataset.label}: POST /tasks (${form.intent}) nicht angenommen: Status ${response.status} ${location}: ${text}`);
  }
  return ms;
}

/** The Tasks screen's lines of a task: its result (role=status) and progress. */
function taskState(html: string, title: string) {
  const text = (pattern: RegExp) => decode((pattern.exec(html)?.[1] ?? "").replace(/<!--.*?-->|<[^>]*>/g, "")).trim();
  return {
    result: text(new RegExp(`<p\\b[^>]*aria-label="Ergebnis ${title}"[^>]*>([\\s\\S]*?)</p>`)),
    progress: text(new RegExp(`<progress\\b[^>]*aria-label="Fortschritt ${title}"[^>]*>([\\s\\S]*?)</progress>`)),
  };
}

/**
 * Reads the Tasks screen every POLL_MS until the task's newest run shows its result (not
 * 'working ...'); the run was created by the POST, so the screen shows no older one.
 */
async function waitForTask(instance: Instance, title: string, started: number, finished = (result: string) => result !== "" && result !== WORKING) {
  let polls = 0;
  let last = { result: "", progress: "" };
  while (performance.now() - started < JOB_TIMEOUT_MS) {
    if (interrupted) throw new Error("abgebrochen");
    const page = await request(`${instance.appOrigin}/tasks`, { headers: HTML });
    const html = await page.text();
    polls += 1;
    if (page.status !== 200) throw new Error(`${instance.dataset.label}: Aufgabenseite antwortet mit Status ${page.status} (Sitzung verloren?)`);
    last = taskState(html, title);
    if (finished(last.result)) return { ms: performance.now() - started, polls, result: last.result };
    await sleep(POLL_MS);
  }
  throw new Error(
    `${instance.dataset.label}: „${title}“ ist nach ${JOB_TIMEOUT_MS / 1000} s nicht fertig ` +
      `(zuletzt auf der Aufgabenseite: „${last.result || "kein Ergebnis"}“, ${last.progress || "kein Fortschritt"}). ` +
      "Läuft der Queue-Consumer im Worker?",
  );
}

type JobRow = { id: number; status: string; total: number; done: number; failed: number; message: string; jobMs: number; slices: number; params: string };

const JOB_COLUMNS =
  "id, status, total, done, failed, message, params, " +
  "(julianday(finished_on) - julianday(started_on)) * 86400000.0 AS job_ms, (SELECT count(*) FROM job_slices s WHERE s.job_id = jobs.id) AS slices";

function jobRow(row: Record<string, unknown> | undefined): JobRow {
  if (!row) throw new Error("kein jobs-Eintrag für den Lauf");
  return {
    id: num(row.id),
    status: String(row.status),
    total: num(row.total),
    done: num(row.done),
    failed: num(row.failed),
    message: String(row.message ?? ""),
    jobMs: num(row.job_ms),
    slices: num(row.slices),
    params: String(row.params ?? "{}"),
  };
}

type Check = { label: string; ok: boolean; detail: string };
type RunLine = { label: string; people?: number; messages?: number; postMs: number; totalMs?: number; jobMs?: number; result: string };

type JobsReport = {
  runs: RunLine[];
  /** Rechnungen schreiben (absent with --only pdfs). */
  invoices?: { totalMs: number; jobMs: number; created: number; extended: number; rows: number; people: number };
  /** PDFs erzeugen. */
  pdfs?: { totalMs: number; jobMs: number; created: number };
  checks: Check[];
  polls: number;
};

/**
 * 'PDFs erzeugen' on the large data: every invoice without a PDF (the 200 of the large seed) in one
 * run, started as the admin's post, followed on the Tasks screen until 'Fertig! ...', checked in
 * the database and by reading PDFs back over HTTP; then a second run must make nothing.
 */
async function measurePdfs(instance: Instance): Promise<{ run: RunLine; pdfs: NonNullable<JobsReport["pdfs"]>; checks: Check[]; polls: number }> {
  const { dataset } = instance;
  const checks: Check[] = [];
  const check = (label: string, ok: boolean, detail: string) => checks.push({ label, ok, detail });
  const [[before]] = await queryDb(
    dataset,
    "Rechnungen ohne PDF zählen",
    "SELECT count(*) AS n FROM invoice_headers WHERE pdf_file_path IS NULL AND status = 'ISSUED'",
  );
  const withoutPdf = num(before.n);
  if (withoutPdf === 0) throw new Error(`${dataset.label}: keine Rechnung ohne PDF: PDFs erzeugen hätte nichts zu tun`);

  progress(`${dataset.label}: PDFs erzeugen starten (${de(withoutPdf)} Rechnungen ohne PDF)`);
  const started = performance.now();
  const postMs = await postTask(instance, { intent: "pdfRun:start" });
  const done = await waitForTask(instance, "PDFs erzeugen", started, (result) => result.startsWith("Fertig!"));
  progress(`  fertig nach ${(done.ms / 1000).toFixed(1)} s: ${done.result}`);

  const pdfJob = newestJob("PDFS");
  const [[record], [after], sample] = await queryDb(
    dataset,
    "PDF-Lauf prüfen",
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ${pdfJob};` +
      // Only an issued invoice gets a PDF (issue 30): a draft is not counted as missing one.
      `SELECT (SELECT count(*) FROM invoice_headers WHERE pdf_file_path IS NULL AND status = 'ISSUED') AS without_pdf,
         (SELECT count(*) FROM invoice_headers h, json_each((SELECT items FROM jobs WHERE id = ${pdfJob})) i WHERE h.id = i.value AND h.pdf_file_path LIKE 'Rechnung%.pdf') AS named,
         (SELECT count(DISTINCT pdf_file_path) FROM invoice_headers WHERE pdf_file_path IS NOT NULL) AS distinct_paths,
         (SELECT count(*) FROM invoice_headers WHERE pdf_file_path IS NOT NULL) AS with_pdf;` +
      `SELECT h.id, h.invoice_number FROM invoice_headers h, json_each((SELECT items FROM jobs WHERE id = ${pdfJob})) i WHERE h.id = i.value ORDER BY random() LIMIT 3`,
  );
  const job = jobRow(record);
  const created = num(after.named);
  check(
    "PDFs erzeugen: fertig, nichts fehlgeschlagen",
    job.status === "DONE" && job.failed === 0 && job.done === job.total,
    `${job.status}, ${de(job.done)} von ${de(job.total)}, ${de(job.failed)} fehlgeschlagen: „${job.message}“`,
  );
  check(
    "PDFs erzeugen: jede Rechnung des Laufs hat ihr PDF, keine ohne",
    created === withoutPdf && num(after.without_pdf) === 0 && job.message === `Fertig! Es wurden ${withoutPdf} Pdfs erzeugt`,
    `${de(created)} von ${de(withoutPdf)} benannt, ${de(num(after.without_pdf))} ohne PDF, Meldung „${job.message}“`,
  );
  check(
    "PDFs erzeugen: jeder Pfad nur einmal",
    num(after.distinct_paths) === num(after.with_pdf),
    `${de(num(after.distinct_paths))} Pfade für ${de(num(after.with_pdf))} Rechnungen`,
  );
  const read = await Promise.all(
    sample.map(async (row) => {
      const response = await request(`${instance.appOrigin}/invoices/pdf/${num(row.id)}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return response.status === 200 && response.headers.get("Content-Type") === "application/pdf" && new TextDecoder().decode(bytes.slice(0, 5)) === "%PDF-";
    }),
  );
  check(
    "PDFs erzeugen: Stichprobe über „PDF anzeigen“ aus R2 gelesen",
    read.length > 0 && read.every(Boolean),
    `${read.filter(Boolean).length} von ${read.length} PDFs gelesen`,
  );

  progress(`${dataset.label}: PDFs erzeugen, 2. Lauf`);
  await postTask(instance, { intent: "pdfRun:start" });
  const [[second]] = await queryDb(dataset, "2. PDF-Lauf prüfen", `SELECT status, total, message FROM jobs WHERE id = ${pdfJob}`);
  check(
    "PDFs erzeugen: zweiter Lauf erzeugt nichts",
    String(second.status) === "DONE" && num(second.total) === 0,
    `${de(num(second.total))} Rechnungen, „${String(second.message)}“`,
  );

  return {
    run: { label: "PDFs erzeugen", people: job.total, messages: job.slices, postMs, totalMs: done.ms, jobMs: job.jobMs, result: `${de(created)} PDFs in R2` },
    pdfs: { totalMs: done.ms, jobMs: job.jobMs, created },
    checks,
    polls: done.polls,
  };
}

async function measureJobs(instance: Instance): Promise<JobsReport> {
  const { dataset } = instance;
  const runs: RunLine[] = [];
  const checks: Check[] = [];
  const check = (label: string, ok: boolean, detail: string) => checks.push({ label, ok, detail });
  let polls = 0;

  // (d) PDFs erzeugen over the large data's invoices, first: the invoicing run below issues its
  // invoices (issue 30), which then stay (an issued invoice is not undone) and would need PDFs too.
  const pdf = await measurePdfs(instance);
  runs.push(pdf.run);
  checks.push(...pdf.checks);
  polls += pdf.polls;

  // (a) Rechnungen schreiben: what is to bill before, then the run, then what it wrote.
  const [[billable], billableIds, [config]] = await queryDb(
    dataset,
    "abzurechnende Posten zählen (vor Rechnungen schreiben)",
    `SELECT count(*) AS fees, count(DISTINCT f.person_id) AS people, coalesce(sum(f.id), 0) AS id_sum FROM fees f WHERE ${BILLABLE};` +
      `SELECT f.id FROM fees f WHERE ${BILLABLE} ORDER BY f.id;` +
      "SELECT last_invoice_number AS last FROM configuration WHERE id = 1",
  );
  const before = { fees: num(billable.fees), people: num(billable.people), idSum: num(billable.id_sum), lastNumber: num(config?.last) };
  if (before.fees === 0) throw new Error(`${dataset.label}: keine abzurechnenden Posten: Rechnungen schreiben hätte nichts zu tun`);

  progress(`${dataset.label}: Rechnungen schreiben starten (${de(before.fees)} Posten, ${de(before.people)} Personen)`);
  const invoiceStart = performance.now();
  const invoicePostMs = await postTask(instance, { intent: "task:invoices" });
  const invoiceDone = await waitForTask(instance, "Rechnungen schreiben", invoiceStart);
  polls += invoiceDone.polls;
  progress(`  fertig nach ${(invoiceDone.ms / 1000).toFixed(1)} s: ${invoiceDone.result}`);

  const invoiceJob = newestJob("INVOICES");
  const [[jobRecord], runFeeIds, [dupes], [numbers], [sums], [after]] = await queryDb(
    dataset,
    "Rechnungslauf prüfen",
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ${invoiceJob};` +
      `SELECT fee_id FROM invoice_rows WHERE job_id = ${invoiceJob} ORDER BY fee_id;` +
      "SELECT count(*) AS n FROM (SELECT fee_id FROM invoice_rows WHERE fee_id IS NOT NULL GROUP BY fee_id HAVING count(*) > 1);" +
      `SELECT (SELECT count(*) FROM invoice_headers WHERE job_id = ${invoiceJob}) AS created, count(*) AS n, count(DISTINCT invoice_number) AS distinct_n, min(invoice_number) AS lo, max(invoice_number) AS hi FROM invoice_headers WHERE invoice_number IS NOT NULL AND (job_id = ${invoiceJob} OR id IN (SELECT invoice_id FROM invoice_rows WHERE job_id = ${invoiceJob}));` +
      `SELECT count(*) AS touched, count(DISTINCT h.person_id) AS people,
         sum(h.amount IS NOT (SELECT sum(r.amount) FROM invoice_rows r WHERE r.invoice_id = h.id)) AS bad_sum,
         sum(h.job_id IS ${invoiceJob} AND h.open_amount IS NOT h.amount - coalesce((SELECT sum(a.amount) FROM payment_allocations a WHERE a.invoice_id = h.id), 0)) AS bad_open
       FROM invoice_headers h WHERE h.job_id = ${invoiceJob} OR h.id IN (SELECT invoice_id FROM invoice_rows WHERE job_id = ${invoiceJob});` +
      `SELECT (SELECT last_invoice_number FROM configuration WHERE id = 1) AS last,
         (SELECT count(*) FROM fees f WHERE ${BILLABLE}) AS still_billable,
         (SELECT count(*) FROM invoice_rows r JOIN fees f ON f.id = r.fee_id WHERE r.job_id = ${invoiceJob} AND f.is_invoiced = 1) AS rows_invoiced`,
  );
  const job = jobRow(jobRecord);
  const result = (
    JSON.parse(job.params) as { result?: { created: number; extended: number; rows: number; firstNumber: number | null; lastNumber: number | null } }
  ).result;
  const created = num(numbers.created);
  const rows = runFeeIds.length;
  const touched = num(sums.touched);
  runs.push({
    label: "Rechnungen schreiben",
    people: job.total,
    messages: job.slices,
    postMs: invoicePostMs,
    totalMs: invoiceDone.ms,
    jobMs: job.jobMs,
    result: `${de(created)} Rechnungen neu, ${de(touched - created)} ergänzt, ${de(rows)} Posten`,
  });

  check(
    "Lauf fertig, nichts fehlgeschlagen",
    job.status === "DONE" && job.failed === 0 && job.done === job.total,
    `${job.status}, ${de(job.done)} von ${de(job.total)}, ${de(job.failed)} fehlgeschlagen: „${job.message}“`,
  );
  check("kein Posten auf zwei Rechnungszeilen", num(dupes.n) === 0, `${de(num(dupes.n))} Posten mehrfach`);
  const sameFees = rows === billableIds.length && runFeeIds.every((row, i) => num(row.fee_id) === num(billableIds[i].id));
  check(
    "jeder abzurechnende Posten berechnet, auf genau einer Zeile dieses Laufs",
    sameFees && num(after.rows_invoiced) === rows && num(after.still_billable) === 0,
    `${de(before.fees)} vorher abzurechnen, ${de(rows)} Zeilen des Laufs (${sameFees ? "dieselben Posten" : "ANDERE Posten"}), ` +
      `${de(num(after.rows_invoiced))} davon berechnet, ${de(num(after.still_billable))} noch offen`,
  );
  check(
    "je Person des Laufs eine Rechnung (neu oder ergänzt)",
    num(sums.people) === before.people && touched === before.people,
    `${de(touched)} Rechnungen für ${de(num(sums.people))} von ${de(before.people)} Personen`,
  );
  const lo = num(numbers.lo);
  const hi = num(numbers.hi);
  check(
    "Rechnungsnummern eindeutig und lückenlos",
    // Issued by the run (issue 30): its new invoices and the drafts it extended, one number each.
    touched > 0 && num(numbers.n) === touched && num(numbers.distinct_n) === touched && hi - lo + 1 === touched,
    `${de(num(numbers.n))} Nummern für ${de(touched)} Rechnungen, ${de(num(numbers.distinct_n))} verschieden, ${lo}–${hi}`,
  );
  check(
    "erste Nummer = „Letzte Rechnungs Nr“ vorher + 1, Zähler danach = letzte",
    lo === before.lastNumber + 1 && num(after.last) === hi,
    `vorher ${before.lastNumber}, erste ${lo}, Zähler danach ${num(after.last)}`,
  );
  check(
    "Betrag jeder Rechnung = Summe ihrer Zeilen (neue: offen = Betrag − was auf ihre Posten schon gezahlt war)",
    num(sums.bad_sum) === 0 && num(sums.bad_open) === 0,
    `${de(num(sums.bad_sum))} von ${de(touched)} abweichend, ${de(num(sums.bad_open))} neue mit anderem offenen Betrag`,
  );
  check(
    "Ergebnis des Laufs (params.result) wie gezählt",
    result?.created === created && result.rows === rows && result.extended === touched - created && result.firstNumber === lo && result.lastNumber === hi,
    JSON.stringify(result ?? null),
  );

  // (b) Undo of that run: refused, as its invoices are issued (issue 30: an issued invoice is never
  // deleted, only cancelled); only a run of drafts ('Nur Entwürfe anlegen') can be undone.
  progress(`${dataset.label}: Rechnungslauf ${job.id} rückgängig machen (wird verweigert)`);
  const undoStarted = performance.now();
  const undoResponse = await request(`${instance.appOrigin}/tasks`, {
    method: "POST",
    headers: { ...HTML, Origin: instance.appOrigin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "task:undo", id: String(job.id) }).toString(),
  });
  await undoResponse.text();
  const undoMs = performance.now() - undoStarted;
  const [[kept]] = await queryDb(dataset, "Verweigertes Rückgängigmachen prüfen", `SELECT count(*) AS headers FROM invoice_headers WHERE job_id = ${job.id}`);
  runs.push({
    label: `Rechnungslauf ${job.id} rückgängig (verweigert)`,
    postMs: undoMs,
    result: `Status ${undoResponse.status}, ${de(num(kept.headers))} Rechnungen bleiben`,
  });
  check(
    "rückgängig verweigert: die ausgestellten Rechnungen des Laufs bleiben",
    undoResponse.status === 409 && num(kept.headers) === created,
    `Status ${undoResponse.status}, ${de(num(kept.headers))} von ${de(created)} Rechnungen`,
  );

  // (c) Jahresbeiträge for next year, twice: the second run must add nothing.
  const year = Number(new Intl.DateTimeFormat("en", { timeZone: "Europe/Berlin", year: "numeric" }).format(new Date())) + 1;
  const annualRun = newestJob("ANNUAL_FEES");
  const annual = async (label: string) => {
    progress(`${dataset.label}: ${label} starten`);
    const started = performance.now();
    const postMs = await postTask(instance, { intent: "task:annualFees", year: String(year) });
    const done = await waitForTask(instance, "Jahresbeiträge", started);
    polls += done.polls;
    progress(`  fertig nach ${(done.ms / 1000).toFixed(1)} s: ${done.result}`);
    const [[record], [counts]] = await queryDb(
      dataset,
      `${label} prüfen`,
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ${annualRun};` +
        `SELECT (SELECT count(*) FROM fees WHERE job_id = ${annualRun}) AS created,
           (SELECT count(*) FROM fees WHERE kind = 'ANNUAL' AND period_year = ${year}) AS annual_fees,
           (SELECT count(*) FROM (SELECT person_id FROM fees WHERE kind = 'ANNUAL' AND period_year = ${year} GROUP BY person_id HAVING count(*) > 1)) AS twice`,
    );
    const annualJob = jobRow(record);
    const feesCreated = num(counts.created);
    runs.push({
      label,
      people: annualJob.total,
      messages: annualJob.slices,
      postMs,
      totalMs: done.ms,
      jobMs: annualJob.jobMs,
      result: `${de(feesCreated)} Posten eingestellt`,
    });
    check(
      `${label}: fertig, nichts fehlgeschlagen`,
      annualJob.status === "DONE" && annualJob.failed === 0,
      `${annualJob.status}, ${de(annualJob.failed)} fehlgeschlagen: „${annualJob.message}“`,
    );
    return { created: feesCreated, annualFees: num(counts.annual_fees), twice: num(counts.twice) };
  };
  const first = await annual(`Jahresbeiträge ${year}`);
  check(`Jahresbeiträge ${year}: Posten eingestellt`, first.created > 0, `${de(first.created)} Posten, ${de(first.annualFees)} Jahresbeiträge ${year}`);
  const second = await annual(`Jahresbeiträge ${year}, 2. Lauf`);
  check(
    `Jahresbeiträge ${year}: zweiter Lauf fügt nichts hinzu`,
    second.created === 0 && second.annualFees === first.annualFees && second.twice === 0,
    `${de(second.created)} Posten, ${de(second.annualFees)} Jahresbeiträge ${year}, ${de(second.twice)} Personen doppelt`,
  );

  return {
    runs,
    invoices: { totalMs: invoiceDone.ms, jobMs: job.jobMs, created, extended: touched - created, rows, people: before.people },
    pdfs: pdf.pdfs,
    checks,
    polls,
  };
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
    estimates.push(
      percentile(
        picks.map((k) => a[k]),
        50,
      )! /
        percentile(
          picks.map((k) => b[k]),
          50,
        )!,
    );
  }
  return { value, low: percentile(estimates, 5)!, high: percentile(estimates, 95)! };
}

// ---------------------------------------------------------------------------------------------
// What the browser loads for the page

const decode = (text: string) => text.replace(/&(amp|quot|#39|lt|gt);/g, (_, e: string) => ({ amp: "&", quot: '"', "#39": "'", lt: "<", gt: ">" })[e]!);

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

/** Columns padded to their widest cell; the first `left` columns (and those in `alsoLeft`) left-aligned, the rest right. */
function table(header: string[], rows: string[][], left: number, alsoLeft: number[] = []): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < left || alsoLeft.includes(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ")
      .trimEnd();
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
  const queries = percentile(
    visits.map((v) => sumOf(v.hops, "queries")),
    50,
  );
  // Per hop (as long as every visit had the same chain): which response made how many D1 calls.
  const sameChain = Math.min(...hopCounts) === Math.max(...hopCounts);
  const perHop =
    sameChain && hopCounts[0] > 0
      ? ` (${visits[0].hops
          .map((_, i) =>
            fmtCount(
              percentile(
                visits.map((v) => v.hops[i].queries),
                50,
              ),
            ),
          )
          .join("+")})`
      : "";
  return [
    cell.page.path,
    cell.instance.dataset.label,
    range(hopCounts),
    fmtMs(percentile(visits.map(totalMs), 50)),
    fmtMs(percentile(visits.map(totalMs), 95)),
    fmtMs(
      percentile(
        visits.map((v) => finalHop(v).ms),
        50,
      ),
    ),
    fmtMs(
      percentile(
        visits.map((v) => sumOf(v.hops, "db")),
        50,
      ),
    ),
    `${fmtCount(queries)}${perHop}`,
    fmtMs(
      percentile(
        visits.map((v) => sumOf(v.hops, "app")),
        50,
      ),
    ),
  ];
}

const seconds = (ms: number | undefined) => (ms === undefined || !Number.isFinite(ms) ? "–" : (ms / 1000).toFixed(1));
const perSecond = (count: number, ms: number) => de(Math.round(count / (ms / 1000)));

function jobsReport(jobs: JobsReport | Error | null, large: Dataset): string[] {
  if (jobs === null) return [];
  const title = `Aufgaben auf den Daten ${large.label} (Warteschlange im lokalen Worker):`;
  if (jobs instanceof Error) return ["", title, `  NICHT GEMESSEN: ${jobs.message}`];
  const { runs, invoices, pdfs, checks } = jobs;
  const out = ["", title];
  const count = (value: number | undefined) => (value === undefined ? "–" : de(value));
  out.push(
    ...table(
      ["Lauf", "Einträge", "Nachrichten", "POST s", "Gesamt s", "Job s", "Ergebnis"],
      runs.map((r) => [r.label, count(r.people), count(r.messages), seconds(r.postMs), seconds(r.totalMs), seconds(r.jobMs), r.result]),
      1,
      [6],
    ).map((line) => `  ${line}`),
  );
  const targets: string[][] = [];
  if (invoices) {
    const invoiceCount = invoices.created + invoices.extended;
    out.push(
      `  Rechnungen schreiben je s: ${perSecond(invoiceCount, invoices.totalMs)} Rechnungen (${perSecond(invoiceCount, invoices.jobMs)}),` +
        ` ${perSecond(invoices.rows, invoices.totalMs)} Posten (${perSecond(invoices.rows, invoices.jobMs)})`,
    );
    targets.push([
      `(c) ${large.label}: Rechnungen schreiben, Gesamt`,
      `${seconds(invoices.totalMs)} s`,
      `≤ ${INVOICE_RUN_TARGET_S} s`,
      verdict(invoices.totalMs <= INVOICE_RUN_TARGET_S * 1000),
    ]);
  }
  if (pdfs) {
    const rate = pdfs.created / (pdfs.totalMs / 1000);
    out.push(`  PDFs erzeugen je s: ${rate.toFixed(1)} PDFs (${(pdfs.created / (pdfs.jobMs / 1000)).toFixed(1)})`);
    targets.push([`(d) ${large.label}: PDFs je s, Gesamt`, rate.toFixed(1), `≥ ${PDF_RUN_TARGET_PER_S}`, verdict(rate >= PDF_RUN_TARGET_PER_S)]);
  }
  out.push(
    `  Aufgabenseite ${jobs.polls}-mal gelesen`,
    "",
    ...table(["Ziel", "Wert", "Ziel", "Ergebnis"], targets, 1).map((line) => `  ${line}`),
    "",
    ...table(
      ["Prüfung in der Datenbank", "Ergebnis", "Befund"],
      checks.map((c) => [c.label, c.ok ? "ok" : "FEHLER", c.detail]),
      3,
    ).map((line) => `  ${line}`),
  );
  return out;
}

/** --phases: per page and data set the p50 of each phase of its last response (Phases). */
function phasesReport(cells: Cell[]): string[] {
  const median = (values: (number | undefined)[]) => fmtMs(percentile(values, 50));
  const rows = cells.map((cell) => {
    const hops = cell.visits.map(finalHop);
    return [
      cell.page.path,
      cell.instance.dataset.label,
      median(hops.map((hop) => hop.ms)),
      ...PHASE_COLUMNS.map(([key]) => median(hops.map((hop) => hop.phases?.[key]))),
    ];
  });
  return [
    "Wo die Zeit bleibt (--phases; p50 in ms, Endseite):",
    ...table(["Seite", "Daten", "RT", ...PHASE_COLUMNS.map(([, label]) => label)], rows, 2),
    "  Hinweg: Client bis Worker; Loader: im Worker bis zum Rendern (Routing, Sitzung, Abfragen, D1);",
    "  Rendern: React und die Daten für die Hydrierung; Worker: alles im Worker (mit den Zeitmarken);",
    "  Rückweg: Worker fertig bis der Kopf der Antwort im Client ist; Körper: Rest der Antwort, gzip-",
    "  Übertragung und Entpacken im Client. Die Uhr des Workers zählt ganze Millisekunden, und jede",
    "  Zeitmarke kostet eine Runde der Ereignisschleife: die Verhältnisse unten gelten für diesen Lauf.",
  ];
}

function printReport(report: {
  options: Options;
  cells: Cell[];
  rows: Map<Dataset, RowCounts>;
  weight: Awaited<ReturnType<typeof pageWeight>>;
  weighedPath: string;
  /** The bulk runs on the large data, or why they could not be measured. */
  /** null: not measured (--only pages). */
  jobs: JobsReport | Error | null;
}) {
  const { options, cells, rows, weight, weighedPath, jobs } = report;
  const cell = (dataset: Dataset, page: Page) => cells.find((c) => c.instance.dataset === dataset && c.page === page)!;
  const [demo, large] = DATASETS;
  const out: string[] = [];

  out.push(
    "",
    `Wuff-Benchmark: ${options.rounds} Runden nach ${options.warmup} zum Aufwärmen; je Runde jede Seite auf beiden`,
    "Datensätzen einmal, in zufälliger Reihenfolge; angemeldet als admin",
    "",
  );
  const header = ["Seite", "Daten", "Hops", "RT p50", "RT p95", "Endseite p50", "db p50", "D1-Abfragen", "app p50"];
  out.push(
    ...table(
      header,
      PAGES.flatMap((page) => DATASETS.map((dataset) => cellRow(cell(dataset, page)))),
      2,
    ),
  );

  out.push("");
  for (const page of PAGES) {
    for (const dataset of DATASETS) {
      const { visits } = cell(dataset, page);
      const chains = new Set(visits.map((v) => v.hops.map((hop) => `${hop.path} (${hop.status})`).join(" → ")));
      if (visits.some((v) => v.hops.length > 1)) out.push(`Weiterleitung ${dataset.label}: ${[...chains].join(" | ")}`);
    }
  }

  if (options.phases) out.push("", ...phasesReport(PAGES.flatMap((page) => DATASETS.map((dataset) => cell(dataset, page)))));

  // Targets: ratios of p50 round trips (whole chain), with the bootstrap range in brackets.
  const targetRows: string[][] = [];
  const rt = (dataset: Dataset, page: Page) => cell(dataset, page).visits.map(totalMs);
  const addTarget = (label: string, a: number[], b: number[], target: number) => {
    const r = ratio(a, b);
    targetRows.push([label, r.value.toFixed(2), `${r.low.toFixed(2)}–${r.high.toFixed(2)}`, `≤ ${target.toFixed(1)}`, verdict(r.value <= target)]);
  };
  for (const page of PAGES.filter((p) => p !== FLOOR && !p.public)) {
    addTarget(`(a) ${large.label}: ${page.path} ÷ ${FLOOR.label}`, rt(large, page), rt(large, FLOOR), PAGE_VS_FLOOR_TARGET);
  }
  addTarget(`(e) ${large.label}: ${CATALOGUE.path} ÷ /`, rt(large, CATALOGUE), rt(large, PAGES[1]), CATALOGUE_VS_HOME_TARGET);
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
    ...jobsReport(jobs, large),
    "",
    "Daten:",
    ...DATASETS.map((dataset) => {
      const r = rows.get(dataset)!;
      return `  ${dataset.label.padEnd(6)} ${de(r.people)} Personen, ${de(r.dogs)} Hunde, ${de(r.courses)} Kurse, ${de(r.fees)} offene Posten`;
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
    `  (a)           Seite ÷ ${FLOOR.label} (POST ${FLOOR.path}: Worker und Sitzung in D1, sonst nichts) auf den`,
    `                großen Daten, Ziel ≤ ${PAGE_VS_FLOOR_TARGET.toFixed(1)}; die Startseite ist eine der gemessenen Seiten`,
    `  (b)           ${large.label} ÷ ${demo.label} für dieselbe Seite, Ziel ≤ ${LARGE_VS_DEMO_TARGET.toFixed(1)} (Kosten dürfen nicht mit den Daten wachsen);`,
    "                mit --scale Groß gegen viermal so viele Daten: beide füllen jede Seite und jede Karte gleich",
    `  (e)           öffentliches Kursangebot (/kurse, ohne Anmeldung, je Anfrage eine andere Besucheradresse) ÷ Startseite`,
    `                auf den großen Daten, Ziel ≤ ${CATALOGUE_VS_HOME_TARGET.toFixed(1)}; kein Rasterbildschirm, daher nicht unter (a)`,
    "  90-%-Bereich  Bootstrap über die Runden (Paare derselben Runde): so weit bewegt das Rauschen",
    "                der Maschine das Verhältnis; bewertet wird der Wert",
    "  JavaScript    alle Module der Seite (Skripte, modulepreload, Imports im Inline-Skript), je Datei gzip -9;",
    `                Budget ${JS_BUDGET_KB} KB`,
    "  Aufgaben      nach den Seitenrunden, nur auf den großen Daten: gestartet wie vom admin im Dialog",
    "                (Formular-POST an /tasks), verfolgt auf der Aufgabenseite, geprüft in ihrer SQLite-Datenbank",
    "                (wrangler d1 execute --local auf dem Zustandsordner); der Consumer läuft im lokalen Worker",
    "  POST s        Antwortzeit des POSTs: beim Start Vorschau, Personen lesen, Nachrichten senden; beim",
    "                Rückgängigmachen die ganze Arbeit (ein Batch)",
    `  Gesamt s      Wanduhr vom POST, bis die Aufgabenseite das Ergebnis statt „${WORKING}“ zeigt (gelesen alle ${POLL_MS} ms)`,
    "  Job s         started_on → finished_on des jobs-Eintrags: angelegt im POST bis zur letzten verbuchten Nachricht",
    "  Nachrichten   Queue-Nachrichten (Scheiben) des Laufs, verbucht in job_slices",
    "  Einträge      Personen (Rechnungen schreiben, Jahresbeiträge) bzw. Rechnungen (PDFs erzeugen) des Laufs",
    "  je s          Rechnungen (neu und ergänzt) und Posten (Zeilen) bzw. PDFs je Sekunde Gesamtzeit, in Klammern je Sekunde Job",
    `  (c)           Rechnungen schreiben auf den großen Daten, Gesamt s, Ziel ≤ ${INVOICE_RUN_TARGET_S} s`,
    `  (d)           PDFs erzeugen: ${PDF_RUN_INVOICES} Rechnungs-PDFs der großen Daten in einem Lauf (Chromium über Browser Rendering, R2), je s Gesamtzeit, Ziel ≥ ${PDF_RUN_TARGET_PER_S}`,
    "  Die Maschine ist geteilt und laut: absolute Zeiten schwanken zwischen Läufen stark,",
    "  die Verhältnisse innerhalb eines Laufs viel weniger.",
  );
  console.log(out.join("\n"));
}

// ---------------------------------------------------------------------------------------------

/** --only pdfs: the large data alone, and only the PDF run on it. */
async function mainPdfsOnly(benchStarted: number) {
  const large = LARGE;
  const build = run("Build (remix vite:build)", `${BIN}/remix`, ["vite:build"]);
  const secrets = run("Lokale Geheimnisse (.dev.vars)", "bash", ["scripts/ensure-dev-vars.sh"]);
  const data = prepareData(large);
  await settleAll([build, secrets, data]);
  const [appPort, idpPort] = await freePorts(2);
  const instance = startApp(large, appPort, idpPort);
  await waitUntilReady(instance);
  await login(instance);
  const pdf = await measurePdfs(instance);
  console.log(
    [`\nWuff-Benchmark, nur PDFs (--only pdfs)`, ...jobsReport({ runs: [pdf.run], pdfs: pdf.pdfs, checks: pdf.checks, polls: pdf.polls }, large)].join("\n"),
  );
  progress(`fertig in ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.scale) DATASETS = SCALED;
  process.chdir(ROOT);
  const benchStarted = performance.now();
  if (options.only === "pdfs") return mainPdfsOnly(benchStarted);

  // Build and both data sets side by side: they do not depend on each other.
  const build = run("Build (remix vite:build)", `${BIN}/remix`, ["vite:build"]);
  // Once here, so the two start.sh do not both create .dev.vars.
  const secrets = run("Lokale Geheimnisse (.dev.vars)", "bash", ["scripts/ensure-dev-vars.sh"]);
  const data = DATASETS.map(prepareData);
  await settleAll([build, secrets, ...data]);
  const counts = await Promise.all(data);
  const rows = new Map(DATASETS.map((dataset, i) => [dataset, counts[i]]));

  // One after the other: two instances bundling and starting workerd at the same moment
  // compete for the two CPUs and make the first measurements slower.
  const started: Instance[] = [];
  for (const dataset of DATASETS) {
    // Picked right before the start, so nothing else takes them during the long setup.
    const [appPort, idpPort] = await freePorts(2);
    const instance = startApp(dataset, appPort, idpPort, options.phases);
    await waitUntilReady(instance);
    await login(instance);
    started.push(instance);
  }

  const cells: Cell[] = started.flatMap((instance) => PAGES.map((page) => ({ instance, page, visits: [], lastHtml: "" })));
  await measureRounds(cells, options);

  progress("JS und CSS der Personen-Seite wiegen");
  const people = cells.find((c) => c.instance.dataset.key === "big" && c.page === PEOPLE)!;
  const last = people.visits[people.visits.length - 1];
  const weight = await pageWeight(people.lastHtml, people.instance.appOrigin);

  // Last: the runs write to the large data, which the page rounds must not see.
  const large = started.find((instance) => instance.dataset.key === "big")!;
  const jobs =
    options.only === "pages"
      ? null
      : await measureJobs(large).catch((error: unknown) => {
          if (interrupted) throw error;
          return error instanceof Error ? error : new Error(String(error));
        });

  printReport({ options, cells, rows, weight, weighedPath: finalHop(last).path, jobs });
  // Not measured is a failure of the benchmark, as with the pages; the report above says why.
  if (jobs instanceof Error) throw new Error(`Aufgaben nicht gemessen: ${jobs.message}`);
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
