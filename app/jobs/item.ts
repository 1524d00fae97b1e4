/**
 * What an item function of a bulk run works with and how it fails: a leaf module, so the run
 * modules (pdf-run, mailshot-run, reminder-run), the registry and the consumer import it without
 * importing each other (`npm run lint` refuses an import circle).
 */
import type { Db } from "~/db/client.server";
import { errorText, isForeignKeyViolation } from "~/models/constraints.server";
import type { Actor } from "~/models/audit.server";
import type { JobRecord } from "~/models/jobs.server";
import type { BatchResources } from "./batch-resources.server";

/**
 * An item of a run with effects failed for a reason a person can act on (German, shown in the
 * run's message as is), e.g. "keine E-Mail-Adresse".
 */
export class ItemFailure extends Error {}

/** The reason an item failed, in German for the run's message (and for a retry by hand). */
export function failureReason(error: unknown): string {
  if (error instanceof ItemFailure) return error.message;
  if (isForeignKeyViolation(error)) return "Datensatz gibt es nicht mehr";
  const text = errorText(error);
  if (text.includes("UNIQUE constraint failed")) return "Eintrag gibt es schon";
  if (text.includes("CHECK constraint failed")) return `Wert nicht zulässig (${/CHECK constraint failed: (\w+)/.exec(text)?.[1] ?? "Prüfregel"})`;
  return `Fehler beim Schreiben: ${text.slice(0, 120)}`;
}

/** What an item of a run with effects outside D1 works with. */
export type ItemContext = {
  env: Env;
  db: Db;
  job: JobRecord;
  actor: Actor;
  now: Date;
  /** Things shared by every message of one queue batch (e.g. one browser session for PDFs). */
  batch: BatchResources;
};
