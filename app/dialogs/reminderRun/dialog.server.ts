/**
 * The confirmation of the Mahnlauf (ADMIN, FINANCE; /reminders): the preview of who gets which
 * level, the sums and how many by mail or by post. Confirmed, the declared run (app/runs) goes to
 * the queue with the levels as they are now and today's (Berlin) date.
 */
import { resumeAction, startDeclaredRun } from "~/jobs/start.server";
import { todayInBerlin } from "~/lib/format";
import { previewReminderRun, reminderRunParams, type ReminderRunPreview } from "~/models/reminder-runs.server";
import { remindersRun } from "~/runs/reminders.run.server";
import { defineDialog } from "../define.server";

export type { ReminderRunPreview };

export const dialog = defineDialog({
  area: "reminders",
  views: {
    start: async ({ db }): Promise<ReminderRunPreview> => previewReminderRun(db, await reminderRunParams(db, todayInBerlin())),
  },
  actions: {
    start: (context) => startDeclaredRun(remindersRun, context),
    // 'Lauf fortsetzen' of a stalled Mahnlauf: whoever may start it (ADMIN, FINANCE).
    resume: resumeAction(remindersRun),
  },
});
