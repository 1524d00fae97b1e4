/**
 * Mein Wuff: the club's logo (Einstellungen), public like the sign-in page that shows it. Its
 * type was read from its bytes on upload (PNG or JPEG only, never SVG); a new logo gets a new key,
 * so a few minutes of caching show the old one at most that long.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { clubLogoKey } from "~/models/club-look.server";

export async function loader({ context }: LoaderFunctionArgs) {
  const key = await clubLogoKey(context.db);
  const object = key ? await context.cloudflare.env.PAPERS.get(key) : null;
  if (!object) return new Response("Kein Logo", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
