/**
 * The local SMTP catcher (maildev) for tests, started from Node: the vitest global setup starts
 * one on free ports for the integration tests (workerd reaches it over `cloudflare:sockets`), the
 * browser tests use the one scripts/start.sh starts beside the app. Its REST API is read back with
 * the helpers in tests/support/mail-catcher.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** maildev prints this as the last line of its start banner, once both servers listen. */
const READY = "Press Ctrl+C to stop";

/**
 * Starts maildev on 127.0.0.1 and resolves once it announces that its servers listen (its banner
 * on stdout) and its API answers; `stop` ends exactly this process.
 */
export async function startMaildev(smtpPort: number, webPort: number): Promise<{ stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [`${root}node_modules/maildev/dist/bin/maildev.js`, "--smtp", String(smtpPort), "--ip", "127.0.0.1", "--web", String(webPort), "--web-ip", "127.0.0.1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stderr!.on("data", collect);
  try {
    await new Promise<void>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`maildev startet nicht: ${output}`)), 20_000);
      const done = (error?: Error) => {
        clearTimeout(guard);
        child.stdout!.off("data", onData);
        child.off("exit", onExit);
        if (error) reject(error);
        else resolve();
      };
      const onData = (chunk: Buffer) => {
        collect(chunk);
        if (output.includes(READY)) done();
      };
      const onExit = (code: number | null) => done(new Error(`maildev beendet mit ${code}: ${output}`));
      child.stdout!.on("data", onData);
      child.once("exit", onExit);
    });
    const health = await fetch(`http://127.0.0.1:${webPort}/api/healthz`);
    if (!health.ok) throw new Error(`maildev meldet sich bereit, aber /api/healthz antwortet ${health.status}`);
  } catch (error) {
    child.kill();
    throw error;
  }
  // Keep reading what it logs (every mail), so its pipe never fills up.
  child.stdout!.resume();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}
