import { exports } from "cloudflare:workers";

/** A request to the whole worker (Remix behind the worker entry), redirects not followed. */
export function fetchApp(path: string, { cookie, ...init }: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (cookie) headers.set("Cookie", cookie);
  return exports.default.fetch(new Request(`http://localhost${path}`, { redirect: "manual", ...init, headers }));
}
