import { createServer } from "node:net";
import { startMollieFake } from "../local/mollie-fake";

/** The key the fake accepts in the integration tests (MOLLIE_API_KEY of the worker there). */
export const MOLLIE_TEST_KEY = "test_wuffIntegrationTests0000000000";

/**
 * Runs in Node before the workerd tests, on the ports vitest.config.ts chose: the Mollie fake, and
 * a TCP server that greets like an SMTP server ("220 ...") for the test screen's SMTP probe.
 */
export default async function setup() {
  const fake = await startMollieFake({ port: Number(process.env.MOLLIE_FAKE_PORT), apiKeys: [MOLLIE_TEST_KEY] });
  const greeter = createServer((socket) => {
    socket.on("error", () => {});
    socket.write("220 greeter.test ESMTP bereit\r\n");
    socket.on("data", () => socket.end("221 Tschüss\r\n"));
  });
  await new Promise<void>((resolve) => greeter.listen(Number(process.env.TEST_SMTP_GREETER_PORT), "127.0.0.1", resolve));
  return async () => {
    await fake.close();
    await new Promise((resolve) => greeter.close(resolve));
  };
}
