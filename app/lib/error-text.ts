/**
 * What the error page says, in German. Wuff's own messages (a German string thrown with a status)
 * are shown as they are; what Remix, the router or the runtime say in English ('Unexpected Server
 * Error', 'No route matches URL ...') is replaced by a German text for its status.
 */
import { isRouteErrorResponse } from "@remix-run/react";

export const UNEXPECTED_ERROR = "Ein unerwarteter Fehler ist aufgetreten. Bitte versuche es noch einmal.";

const STATUS_TEXT: Record<number, string> = {
  400: "Die Anfrage ist ungültig.",
  403: "Dafür fehlt dir die Berechtigung.",
  404: "Diese Seite gibt es nicht.",
  405: "Diese Aktion gibt es auf dieser Seite nicht.",
};

export function errorPageText(error: unknown): string {
  if (!isRouteErrorResponse(error)) return UNEXPECTED_ERROR;
  // internal: the router answered by itself (no route, no action), its data a developer's text;
  // a server error reaches the browser as 'Unexpected Server Error'.
  const internal = (error as { internal?: boolean }).internal === true;
  const own = !internal && typeof error.data === "string" && error.data !== "Unexpected Server Error" ? error.data.trim() : "";
  const text = own || (STATUS_TEXT[error.status] ?? (error.status >= 500 ? UNEXPECTED_ERROR : STATUS_TEXT[400]));
  return `${error.status} ${text}`;
}
