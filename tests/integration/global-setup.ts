import { startMollieFake } from "../local/mollie-fake";

/** The key the fake accepts in the integration tests (MOLLIE_API_KEY of the worker there). */
export const MOLLIE_TEST_KEY = "test_wuffIntegrationTests0000000000";

/** Runs in Node before the workerd tests: the Mollie fake on the port vitest.config.ts chose. */
export default async function setup() {
  const fake = await startMollieFake({ port: Number(process.env.MOLLIE_FAKE_PORT), apiKeys: [MOLLIE_TEST_KEY] });
  return () => fake.close();
}
