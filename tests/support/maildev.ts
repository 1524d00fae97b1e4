/**
 * The local SMTP catcher (maildev) for tests, started from Node: the vitest global setup starts
 * one on free ports for the integration tests (workerd reaches it over `cloudflare:sockets`), the
 * browser tests use the one scripts/start.sh starts beside the app. Its REST API is read back with
 * the helpers in tests/support/mail-catcher.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A port nobody listens on right now (the machine is shared: never a fixed one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("kein freier Port"))));
    });
  });
}

/** Starts maildev on 127.0.0.1 and waits until its API answers; `stop` ends exactly this process. */
export async function startMaildev(smtpPort: number, webPort: number): Promise<{ stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      `${root}node_modules/maildev/dist/bin/maildev.js`,
      "--smtp",
      String(smtpPort),
      "--ip",
      "127.0.0.1",
      "--web",
      String(webPort),
      "--web-ip",
      "127.0.0.1",
      "--silent",
    ],
    { stdio: "ignore" },
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${webPort}/api/healthz`);
      if (response.ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`maildev beendet mit ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill();
      throw new Error("maildev startet nicht");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}
