/**
 * Refuses writes (POST, PUT, PATCH, DELETE) sent by another site. The session cookie is
 * SameSite=Lax already; this also covers browsers and proxies that do not honour it.
 */
export function refuseCrossSiteWrite(request: Request): Response | null {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return null;
  const origin = request.headers.get("Origin");
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  const ownOrigin = new URL(request.url).origin;
  if ((origin && origin !== "null" && origin !== ownOrigin) || fetchSite === "cross-site") {
    return new Response("Anfrage von einer fremden Seite abgelehnt.", { status: 403 });
  }
  return null;
}
