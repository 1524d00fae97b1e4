/**
 * Refuses writes (POST, PUT, PATCH, DELETE) sent by another site. The session cookie is
 * SameSite=Lax already; this also covers browsers and proxies that do not honour it.
 */
const CROSS_SITE_MESSAGE = "Anfrage von einer fremden Seite abgelehnt.";

/** The origin of a Referer header; 'invalid' when it names none (a page can send no such value). */
function refererOrigin(referer: string): string {
  try {
    return new URL(referer).origin;
  } catch {
    return "invalid";
  }
}

export function refuseCrossSiteWrite(request: Request): Response | null {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return null;
  const origin = request.headers.get("Origin");
  const referer = request.headers.get("Referer");
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  const ownOrigin = new URL(request.url).origin;
  // 'null' is an opaque origin (a sandboxed frame, a data: or file: page, a post redirected across
  // sites): never a page of this app, whose own posts carry its origin (Referrer-Policy allows it).
  const foreignOrigin = origin !== null && origin !== ownOrigin;
  // Without Origin (older browsers, some proxies strip it) the Referer, when sent, must name this
  // app too: a page of another site that posts here is refused either way. Neither header (a
  // webhook, curl, a browser told to send no referrer) is let through: the SameSite cookie and the
  // role checks still stand.
  const foreignReferer = origin === null && referer !== null && referer !== "" && refererOrigin(referer) !== ownOrigin;
  if (foreignOrigin || foreignReferer || fetchSite === "cross-site") {
    return new Response(CROSS_SITE_MESSAGE, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return null;
}
