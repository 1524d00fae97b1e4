import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** What tests/e2e/test-data.setup.ts made, for the tests that use it. */
export const UNSENT_REMINDERS_FILE = fileURLToPath(new URL("../../.artifacts/unsent-reminders.json", import.meta.url));

export type UnsentReminder = { lastName: string; text: string; personId: number; feeId: number };

/** The person, fee and unsent 1. Mahnung made for this browser project. */
export async function unsentReminderFor(javaScriptEnabled: boolean): Promise<UnsentReminder> {
  const all = JSON.parse(await readFile(UNSENT_REMINDERS_FILE, "utf8")) as Record<string, UnsentReminder>;
  return all[javaScriptEnabled ? "js" : "html"];
}
