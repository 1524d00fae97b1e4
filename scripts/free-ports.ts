/**
 * Free ports on 127.0.0.1 for the app's and the tests' local servers (the machine is shared: never
 * a fixed one). All are listened on at once and only then given back, so they differ from each
 * other: asked one by one, the system may hand out a port just closed again (the app and the
 * OpenID provider both got 38315 once, 2026-11-29).
 *
 *   tsx scripts/free-ports.ts 5     prints five ports, separated by spaces
 */
import { createServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

export async function freePorts(count: number): Promise<number[]> {
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log((await freePorts(Number(process.argv[2] ?? 1))).join(" "));
}
