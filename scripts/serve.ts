/**
 * Runs the built worker in workerd through Miniflare, the runtime `wrangler dev` itself uses, with
 * the bindings of wrangler.toml (D1, R2, queues, Browser Rendering, rate limits, assets) and the
 * state `wrangler d1 migrations apply --persist-to` writes.
 *
 * Why not `wrangler dev`: it puts a second workerd (its ProxyWorker) in front of the app, and the
 * pooled connection between the two sometimes drops a request when both ends close it after 5 s
 * idle at the same moment (cloudflare/workers-sdk#14641, #15317; still so in wrangler 4.164). A
 * dropped GET is retried, a dropped form post comes back as 503 "Your worker restarted
 * mid-request". Here the browser talks to the app's workerd directly, as on Cloudflare.
 *
 *   tsx scripts/serve.ts --state DIR --host 127.0.0.1 --port 8787 [--inspector-port 9229]
 *                        [--var NAME:VALUE ...]
 *
 * Cron triggers never fire locally: `GET /__scheduled?cron=...` fires one (as `wrangler dev
 * --test-scheduled` did).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { Log, LogLevel, Miniflare, type WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const { values } = parseArgs({
  options: {
    state: { type: "string", default: ".wrangler/state" },
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "8787" },
    "inspector-port": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
  },
});

const root = path.resolve(import.meta.dirname, "..");
const state = path.resolve(root, values.state);

// The patches of patches/ are in the bundle: `npm install some-package` reinstalls a patched
// package without running postinstall, and the app still works, only slower (the patches are
// for speed, docs/benchmarks.md): that happened unnoticed once, so it is checked here, by a
// mark of each patch's latest version in the file it changes.
const patchMarks = [
  ["node_modules/@remix-run/router/dist/router.js", "rankedByShape"],
  ["node_modules/react-dom/cjs/react-dom-server.browser.production.min.js", "Patched for Wuff"],
  ["node_modules/drizzle-orm/utils.js", "Patched for Wuff"],
  ["node_modules/react-router/dist/umd/react-router.production.min.js", "Patched for Wuff"],
  ["node_modules/@remix-run/react/dist/esm/routes.js", "Patched for Wuff"],
];
if (patchMarks.some(([file, mark]) => !readFileSync(path.join(root, file), "utf8").includes(mark))) {
  execFileSync(path.join(root, "node_modules/.bin/patch-package"), [], { cwd: root, stdio: "inherit" });
}

// The bundle exactly as `wrangler deploy` uploads it: [define], keep_names and the Node.js
// compatibility layer of wrangler.toml applied.
const bundleDir = path.join(state, "bundle");
mkdirSync(bundleDir, { recursive: true });
try {
  execFileSync(path.join(root, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", bundleDir], {
    cwd: root,
    stdio: "pipe",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
} catch (error) {
  // Only a failed bundle is worth its output (otherwise esbuild's notes on side-effect-free imports).
  const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
  process.stderr.write(`${stdout ?? ""}${stderr ?? ""}`);
  throw new Error("Das Bündeln des Workers (wrangler deploy --dry-run) ist fehlgeschlagen.");
}

const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
const overrides = Object.fromEntries(
  values.var.map((pair) => {
    const colon = pair.indexOf(":");
    if (colon < 1) throw new Error(`--var erwartet NAME:WERT, nicht "${pair}"`);
    return [pair.slice(0, colon), pair.slice(colon + 1)];
  }),
);

const worker: WorkerOptions = {
  ...(workerOptions as WorkerOptions),
  name: "wuff",
  // Listed, not discovered: Miniflare's discovery refuses the bundle's dynamic import() calls.
  modules: [{ type: "ESModule", path: path.join(bundleDir, "app.js") }],
  modulesRoot: bundleDir,
  bindings: { ...workerOptions.bindings, ...overrides },
};

// GET /__scheduled?cron=... fires the worker's scheduled handler. Miniflare's own
// /cdn-cgi/handler/scheduled reaches only the assets router in front of the app, which has none.
const scheduledTrigger: WorkerOptions = {
  name: "scheduled-trigger",
  // The path carries the query: "/__scheduled*".
  routes: ["*/__scheduled*"],
  modules: true,
  script: "export default { fetch: (request, env) => env.FIRE.fetch(request) };",
  serviceBindings: {
    async FIRE(request: Request) {
      const cron = new URL(request.url).searchParams.get("cron") ?? "";
      const app = await mf.getWorker("wuff");
      const { outcome } = await app.scheduled({ cron, scheduledTime: new Date() });
      // The answer `wrangler dev --test-scheduled` gives.
      return outcome === "ok" ? new Response("Ran scheduled event") : new Response(`Scheduled event failed: ${outcome}`, { status: 500 });
    },
  },
};

const mf = new Miniflare({
  host: values.host,
  port: Number(values.port),
  inspectorPort: values["inspector-port"] ? Number(values["inspector-port"]) : undefined,
  // As wrangler lays out --persist-to: DIR/v3/d1, DIR/v3/r2, ...
  defaultPersistRoot: path.join(state, "v3"),
  // No request for Cloudflare's `cf` object: this machine reaches only npm.
  cf: false,
  log: new Log(LogLevel.INFO),
  logRequests: true,
  workers: [worker, scheduledTrigger],
});

const url = await mf.ready;
console.log(`Wuff läuft in workerd: ${url.href}`);

const stop = () => {
  void mf.dispose().finally(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
