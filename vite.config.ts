import { execSync } from "node:child_process";
import { cloudflareDevProxyVitePlugin as remixCloudflareDevProxy, vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { getLoadContext } from "./app/load-context";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

const EVERY_PAGE_MODULES = new RegExp(
  String.raw`/app/(` +
    [
      "lib/grid-state",
      "lib/error-text",
      "lib/locale",
      "components/dialog-form",
      "components/toggle-links",
      "components/navigation",
      "components/use-hydrated",
      "components/app-shell",
      "components/toast",
      "components/idle-logout",
      "components/pending-bar",
      "components/error-message",
      "dialogs/host",
    ].join("|") +
    String.raw`)\.`,
);

/** The label in the top bar and in /api/public/test: the day of the build's commit plus its hash. */
function buildVersion(): string {
  try {
    return execSync("git log -1 --format=%cs+%h", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim()
      .replace("+", " ");
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  define: {
    __WUFF_VERSION__: JSON.stringify(process.env.WUFF_VERSION ?? buildVersion()),
  },
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
    mainFields: ["browser", "module", "main"],
  },
  ssr: {
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
  },
  build: {
    // The browsers the app's own code needs anyway (Object.hasOwn: Chrome and Edge 93, Firefox 92,
    // Safari 15.4). Vite's default (Chrome 87, Safari 14) rewrote every `a?.b` into
    // `null==a?void 0:a.b` for browsers that could not run the app: 0.3 KB of the People page.
    target: ["es2022", "chrome93", "edge93", "firefox92", "safari15.4"],
    // The browser's code through terser (two passes): about 5 % less JavaScript after gzip than
    // esbuild's minifier on every page (People page 110.9 -> 105.7 KB). The Worker's code stays
    // unminified, as Vite builds it by default (readable stack traces, fast builds).
    ...(isSsrBuild ? {} : { minify: "terser" as const, terserOptions: { compress: { passes: 2 }, format: { comments: false } } }),
    rollupOptions: {
      // Workers' built-in modules (cloudflare:sockets for SMTP) are provided by workerd at run time.
      external: [/^cloudflare:/],
      output: {
        // The kit modules every page loads (the app shell, the grid's URL state, the dialog host)
        // travel in one file with React and Remix: each file costs its own request, gzip header and
        // import lines on every page. Modules only some pages or dialogs use stay in their chunks.
        manualChunks: (id) => (EVERY_PAGE_MODULES.test(id) ? "kit" : undefined),
      },
    },
  },
  plugins: [
    remixCloudflareDevProxy({ getLoadContext }),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
    tailwindcss(),
  ],
}));
