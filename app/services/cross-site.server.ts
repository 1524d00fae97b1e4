/**
 * Refuses writes (POST, PUT, PATCH, DELETE) sent by another site. The session cookie is
 * SameSite=Lax already; this also covers browsers and proxies that do not honour it.
 */
const CROSS_SITE_MESSAGE = "Anfrage von einer fremden Seite abgelehnt.";

export function refuseCrossSiteWrite(request: Request): Response | null {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return null;
  const origin = request.headers.get("Origin");
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  const ownOrigin = new URL(request.url).origin;
  // 'null' is an opaque origin (a sandboxed frame, a data: or file: page, a post redirected across
  // sites): never a page of this app, whose own posts carry its origin (Referrer-Policy allows it).
  if ((origin && origin !== ownOrigin) || fetchSite === "cross-site") {
    return new Response(CROSS_SITE_MESSAGE, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return null;
}
