/**
 * vitest global setup (Node side): one maildev for the integration tests, on the ports that
 * tests/vitest.config.ts chose and handed to the worker as SMTP_PORT and MAILDEV_API.
 */
import { startMaildev } from "../support/maildev";

export default async function setup() {
  const smtp = Number(process.env.WUFF_TEST_SMTP_PORT);
  const web = Number(process.env.WUFF_TEST_MAILDEV_WEB_PORT);
  const maildev = await startMaildev(smtp, web);
  return () => maildev.stop();
}
