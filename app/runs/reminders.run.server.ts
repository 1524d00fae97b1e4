/** 'Mahnlauf' (Tasks, Mahnwesen): the due reminder levels, one letter per person (item: app/jobs/reminder-run.server.ts). */
import { performReminderItem } from "~/jobs/reminder-run.server";
import { todayInBerlin } from "~/lib/format";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import {
  NOTHING_TO_REMIND,
  peopleToRemind,
  previewReminderRun,
  REMINDER_SLICE_SIZE,
  reminderRunMessage,
  reminderRunParams,
} from "~/models/reminder-runs.server";
import { defineRunKind } from "./declare.server";

export const remindersRun = defineRunKind({
  type: "REMINDERS",
  sliceSize: REMINDER_SLICE_SIZE,
  plan: async ({ db }) => {
    // The levels as they are now and today's date (Berlin), frozen in the run.
    const params = await reminderRunParams(db, todayInBerlin());
    const { problem } = await previewReminderRun(db, params);
    if (problem) return { refused: problem };
    return { items: await peopleToRemind(db, params), params, emptyMessage: NOTHING_TO_REMIND, label: JOB_TYPE_LABELS.REMINDERS };
  },
  // Per person: the reminders and fees (one batch), then the letter, the mail or the print copy.
  perform: performReminderItem,
  summarize: async (db, job) => ({ message: await reminderRunMessage(db, job.id) }),
});
