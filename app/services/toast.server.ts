import { redirect, replace } from "@remix-run/cloudflare";
import { readCookie, toastCookie } from "./cookies.server";

/** undo: the Papierkorb transaction of a delete, which the toast offers to restore ('Rückgängig'). */
export type Toast = { type: "success" | "info" | "warning" | "error"; message: string; undo?: number };

export async function toastCookieHeader(env: Env, toast: Toast): Promise<string> {
  return toastCookie(env).serialize(toast);
}

/** replaceEntry: the page replaces the one it answers in the history (a dialog's post: back never reopens it). */
export async function redirectWithToast(env: Env, url: string, toast: Toast, headers = new Headers(), { replaceEntry = false } = {}): Promise<Response> {
  headers.append("Set-Cookie", await toastCookieHeader(env, toast));
  return (replaceEntry ? replace : redirect)(url, { headers });
}

/** The pending toast, and the header that clears it once shown. */
export async function takeToast(request: Request, env: Env): Promise<{ toast: Toast | null; clearCookie: string | null }> {
  const cookie = toastCookie(env);
  const value = await readCookie(cookie, request);
  if (!value || typeof value !== "object" || !("message" in value)) return { toast: null, clearCookie: null };
  return { toast: value as Toast, clearCookie: await cookie.serialize("", { maxAge: 0 }) };
}
