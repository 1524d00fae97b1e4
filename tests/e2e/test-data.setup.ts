import { writeFile } from "node:fs/promises";
import { test } from "@playwright/test";
import { appSql } from "./support/app-db";
import { UNSENT_REMINDERS_FILE, type UnsentReminder } from "./support/test-data";

/**
 * Data no screen makes, written into the app's D1 before any other browser test runs (project
 * 'Testdaten', tests/playwright.config.ts). Written while tests ran, wrangler's second process held
 * SQLite's lock and the app's own requests failed with SQLITE_BUSY (a Kalender test got a 500).
 * Per project one person with a fee, its sent Zahlungserinnerung and an unsent 1. Mahnung (every
 * run sends its letters, so only the database makes one unsent).
 */
test("Testdaten: eine unversandte Mahnung je Browser-Projekt", async () => {
  const reminders: Record<string, UnsentReminder> = {};
  for (const project of ["js", "html"]) {
    const lastName = `Grid${project}${Date.now().toString(36)}`;
    const text = `Kursgebühr ${lastName}`;
    const [{ personId, feeId }] = await appSql<{ personId: number; feeId: number }>(`
      INSERT INTO people (first_name, last_name, member_type_id) VALUES ('Greta', '${lastName}', 1);
      INSERT INTO fees (person_id, date, due_date, text, amount, open_amount, send_invoice) SELECT id, '2026-09-01', '2026-09-15', '${text}', 2000, 2000, 0 FROM people WHERE last_name = '${lastName}';
      INSERT INTO fees (person_id, date, due_date, text, amount, open_amount, send_invoice, kind, reminded_fee_id) SELECT person_id, '2026-10-20', '2026-11-03', 'Mahngebühr ${lastName}', 500, 500, 0, 'REMINDER', id FROM fees WHERE text = '${text}';
      INSERT INTO reminders (target_type, target_id, person_id, level, date, new_due_date, open_amount, status, channel, sent_on) SELECT 'FEE', id, person_id, 1, '2026-10-06', '2026-10-20', 2000, 'SENT', 'PRINT', '2026-10-06T10:00:00Z' FROM fees WHERE text = '${text}';
      INSERT INTO reminders (target_type, target_id, person_id, level, date, new_due_date, open_amount, fee_id, status) SELECT 'FEE', f.id, f.person_id, 2, '2026-10-20', '2026-11-03', 2000, (SELECT id FROM fees WHERE text = 'Mahngebühr ${lastName}'), 'PENDING' FROM fees f WHERE f.text = '${text}';
      SELECT person_id AS personId, id AS feeId FROM fees WHERE text = '${text}';`);
    reminders[project] = { lastName, text, personId, feeId };
  }
  await writeFile(UNSENT_REMINDERS_FILE, JSON.stringify(reminders));
});
