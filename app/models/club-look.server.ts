/**
 * How Mein Wuff presents the club (issue 32 item 7): its name and logo from the Einstellungen,
 * and the privacy notice and imprint from its texts. The logo is a PNG or JPEG (type read from its
 * bytes, at most 1 MB) in the PAPERS bucket; a new one replaces the old, whose file goes.
 */
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { configuration } from "~/db/schema";
import { randomToken } from "~/lib/bytes";
import { PAPER_EXTENSIONS, paperContentType } from "~/lib/dog-papers";
import { auditUpdate, type Actor } from "./audit.server";

/** The name Mein Wuff shows: the club's name on invoices, else its HSVRM name, else 'Mein Wuff' alone. */
export type PortalClub = { name: string | null; hasLogo: boolean };

export async function portalClub(db: Db): Promise<PortalClub> {
  const [row] = await db
    .select({ clubName: configuration.clubName, hsvrmName: configuration.hsvrmVereinName, logo: configuration.clubLogoKey })
    .from(configuration)
    .where(eq(configuration.id, 1));
  return { name: row?.clubName?.trim() || row?.hsvrmName?.trim() || null, hasLogo: Boolean(row?.logo) };
}

/** The logo's R2 key, or null. */
export async function clubLogoKey(db: Db): Promise<string | null> {
  const [row] = await db.select({ logo: configuration.clubLogoKey }).from(configuration).where(eq(configuration.id, 1));
  return row?.logo ?? null;
}

const MAX_LOGO_BYTES = 1024 * 1024;
export const LOGO_WRONG_TYPE = "Bitte ein Logo als PNG oder JPEG hochladen.";
export const LOGO_TOO_LARGE = "Das Logo ist zu groß (höchstens 1 MB).";

export type LogoOutcome = { status: "saved" | "removed" } | { status: "refused"; message: string };

/** Stores a new logo (or, with no file, removes it); the old file goes once the new key is saved. */
export async function saveClubLogo(bucket: R2Bucket, db: Db, file: File | null, actor: Actor): Promise<LogoOutcome> {
  const before = await clubLogoKey(db);
  let key: string | null = null;
  if (file) {
    if (file.size > MAX_LOGO_BYTES) return { status: "refused", message: LOGO_TOO_LARGE };
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = paperContentType(bytes.subarray(0, 16));
    if (type !== "image/png" && type !== "image/jpeg") return { status: "refused", message: LOGO_WRONG_TYPE };
    key = `club/logo-${randomToken()}.${PAPER_EXTENSIONS[type]}`;
    await bucket.put(key, bytes, { httpMetadata: { contentType: type } });
  }
  const updated = await db
    .update(configuration)
    .set({ clubLogoKey: key, ...auditUpdate(actor, configuration.rowVersion) })
    .where(eq(configuration.id, 1))
    .returning({ id: configuration.id });
  if (updated.length === 0) {
    if (key) await bucket.delete(key);
    return { status: "refused", message: "Bitte zuerst die Einstellungen speichern." };
  }
  if (before && before !== key) await bucket.delete(before);
  return { status: key ? "saved" : "removed" };
}
