/**
 * The security headers of every response the worker answers (workers/app.ts sets them, in one
 * place). Remix's inline scripts run by a nonce that is new for every request: the document
 * carries it on each of its scripts (app/entry.server.tsx, app/root.tsx), the policy names it.
 */

/** 128 random bits, base64: a new one for every request. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

function originOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/** Mollie's API at api.mollie.com sends payers to its payment link and checkout pages; another
 *  API (the local fake) serves them itself. */
function mollieCheckoutOrigins(env: Pick<Env, "MOLLIE_API_URL">): string[] {
  const api = originOf(env.MOLLIE_API_URL);
  if (!api) return [];
  return api === "https://api.mollie.com" ? ["https://paymentlink.mollie.com", "https://www.mollie.com"] : [api];
}

function contentSecurityPolicy(nonce: string, env: Pick<Env, "OIDC_ISSUER" | "MOLLIE_API_URL">): string {
  // Logging out posts to /logout, which answers with a redirect to the provider's end-session
  // endpoint, and paying in Mein Wuff posts to /mein/zahlungen, which answers with a redirect to
  // Mollie: form-action covers the redirects of a form post, so both must be named.
  const formTargets = [originOf(env.OIDC_ISSUER), ...mollieCheckoutOrigins(env)].filter((origin): origin is string => origin !== null);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React's style attributes (the grid's column widths, the split pane) are inline styles.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    ["form-action 'self'", ...formTargets].join(" "),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * The Cache-Control of every response the worker answers (pages, their .data requests, API
 * answers, downloads): 'private, no-store', so neither a shared cache nor the browser keeps a page
 * or a file with personal data after logout (the back button asks the server again, which sends a
 * logged-out user to the login). A route keeps its own header only when it says 'public' (data
 * without anything personal, on purpose). Static assets never reach the worker: they keep their
 * caching (public/_headers and the asset store).
 */
const PRIVATE_NO_STORE = "private, no-store";

export function cacheControl(routeHeader: string | null): string {
  return routeHeader && /(^|[\s,])public([\s,]|$)/i.test(routeHeader) ? routeHeader : PRIVATE_NO_STORE;
}

/** The headers for the response to `request`; HSTS only over https (it would pin plain localhost). */
export function securityHeaders(request: Request, env: Pick<Env, "OIDC_ISSUER" | "MOLLIE_API_URL">, nonce: string): [string, string][] {
  const headers: [string, string][] = [
    ["Content-Security-Policy", contentSecurityPolicy(nonce, env)],
    ["X-Frame-Options", "DENY"],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
  ];
  if (new URL(request.url).protocol === "https:") headers.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
  return headers;
}
