import { execSync } from "node:child_process";
import {
  cloudflareDevProxyVitePlugin as remixCloudflareDevProxy,
  vitePlugin as remix,
} from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { getLoadContext } from "./app/load-context";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

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

export default defineConfig({
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
    rollupOptions: {
      // Workers' built-in modules (cloudflare:sockets for SMTP) are provided by workerd at run time.
      external: [/^cloudflare:/],
      output: {
        // The small kit modules every page and the lazy dialogs share travel as one file, not two
        // (each file costs its own request and header on every page).
        manualChunks: (id) => (/\/app\/(lib\/grid-state|components\/dialog-form|components\/toggle-links|dialogs\/host)\./.test(id) ? "kit" : undefined),
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
});
