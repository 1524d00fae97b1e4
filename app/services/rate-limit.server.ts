/**
 * The rate limit of what anyone may call without a login (ARCHITECTURE: "public pages are
 * rate-limited"): the liveness answer, the calendar feeds and the course catalogue. It is the Workers Rate Limiting API
 * (binding PUBLIC_RATE_LIMIT in wrangler.toml: 60 requests a minute), counted per endpoint and
 * client address (Cloudflare's CF-Connecting-IP; locally, where there is none, one shared
 * counter). `npm start` and the tests' workerd count in memory, Cloudflare per location.
 */
const RATE_LIMITED_MESSAGE = "Zu viele Anfragen. Bitte in einer Minute erneut versuchen.";

/** The endpoints counted apart, so a busy calendar app does not lock out the health monitor. */
type PublicEndpoint = "liveness" | "feeds" | "catalogue";

/** A 429 with a German text when the caller has used up its minute, else null (go on). */
export async function refuseOverLimit(request: Request, env: Pick<Env, "PUBLIC_RATE_LIMIT">, endpoint: PublicEndpoint): Promise<Response | null> {
  const client = request.headers.get("CF-Connecting-IP") ?? "local";
  const { success } = await env.PUBLIC_RATE_LIMIT.limit({ key: `${endpoint}:${client}` });
  if (success) return null;
  return new Response(RATE_LIMITED_MESSAGE, { status: 429, headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" } });
}
