/**
 * The confirmation of the Mahnlauf (ADMIN, FINANCE; /reminders): the preview of who gets which
 * level, the sums and how many by mail or by post. Confirmed, the run goes to the queue with the
 * levels as they are now and today's (Berlin) date.
 */
import { startRun } from "~/jobs/start.server";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import { todayInBerlin } from "~/lib/format";
import { ALREADY_RUNNING } from "~/models/jobs.server";
import { NOTHING_TO_REMIND, peopleToRemind, previewReminderRun, reminderRunParams, type ReminderRunPreview } from "~/models/reminder-runs.server";
import { defineDialog } from "../define.server";

export type { ReminderRunPreview };

export const dialog = defineDialog({
  area: "reminders",
  views: {
    start: async ({ db }): Promise<ReminderRunPreview> => previewReminderRun(db, await reminderRunParams(db, todayInBerlin())),
  },
  actions: {
    start: async ({ db, user, env }) => {
      const params = await reminderRunParams(db, todayInBerlin());
      const preview = await previewReminderRun(db, params);
      if (preview.problem) return { status: "refused", message: preview.problem };
      const items = await peopleToRemind(db, params);
      const outcome = await startRun(env, db, { type: "REMINDERS", items, params, emptyMessage: NOTHING_TO_REMIND }, user);
      if (outcome.status === "running") return { status: "refused", message: ALREADY_RUNNING };
      if (outcome.status === "failed") return { status: "refused", message: outcome.message };
      return {
        status: "done",
        message: outcome.job.status === "DONE" ? (outcome.job.message ?? JOB_TYPE_LABELS.REMINDERS) : `${JOB_TYPE_LABELS.REMINDERS} gestartet: working ...`,
      };
    },
  },
});
