/**
 * The one rule for every return path a request names (the login's redirectTo, the quick add's
 * returnTo, the column chooser's redirectTo, ...): it is resolved against the app's origin as a
 * browser would resolve it, and only a path of this origin is kept. Kept here on its own, without
 * other imports, so that the worker entry can check every redirect with it too.
 */

export const INVALID_RETURN_PATH_MESSAGE = "Die Rücksprungadresse ist ungültig.";

// Any origin stands for the app's: only the path, query and fragment of the result are kept.
const APP_ORIGIN = "https://wuff.invalid";

// Browsers drop tabs and newlines from URLs and read a backslash as a slash ('/\tevil', '/\\evil'
// become '//evil'); in a header they break the response. Never part of a path the app builds.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

type ReturnPath = { status: "ok"; path: string } | { status: "off-site" } | { status: "invalid" };

/**
 * What a return path leads to: an on-site path (normalized as the browser would send it), another
 * site, or nothing valid (control characters, or backslashes before the query).
 */
function resolveReturnPath(value: string): ReturnPath {
  const pathPart = value.split(/[?#]/, 1)[0];
  if (CONTROL_CHARACTERS.test(value) || pathPart.includes("\\")) return { status: "invalid" };
  if (!value.startsWith("/")) return { status: "off-site" };
  let url: URL;
  try {
    url = new URL(value, APP_ORIGIN);
  } catch {
    return { status: "off-site" };
  }
  if (url.origin !== APP_ORIGIN) return { status: "off-site" };
  // Dot segments can leave a leading '//' ('/.//evil.example'); an encoded one ('/%2F%2Fevil',
  // '/%5Cevil', '/%09/evil') is harmless to a browser, but is refused in case anything decodes it.
  const plain = decoded(url.pathname);
  if (url.pathname.startsWith("//") || plain === null || /^\/[/\\]/.test(plain) || CONTROL_CHARACTERS.test(plain)) return { status: "off-site" };
  return { status: "ok", path: url.pathname + url.search + url.hash };
}

/**
 * A return path to use: the on-site path, or '/' for anything else (missing, another site).
 * Control characters or backslashes are no mistake a page of the app makes: they are answered
 * with 400 and a German message (thrown, as a loader or action answers it), never a 500.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || value === "") return "/";
  const resolved = resolveReturnPath(value);
  if (resolved.status === "invalid") {
    throw new Response(INVALID_RETURN_PATH_MESSAGE, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return resolved.status === "ok" ? resolved.path : "/";
}

/**
 * The last line of defence for redirects the app answers with (the worker entry checks each): a
 * relative Location that would leave the site goes home instead. Absolute ones (the identity
 * provider's) are meant as they are.
 */
export function onSiteLocation(location: string): string {
  if (!location.startsWith("/") && !location.startsWith("\\")) return location;
  const resolved = resolveReturnPath(location);
  return resolved.status === "ok" ? resolved.path : "/";
}
