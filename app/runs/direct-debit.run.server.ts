/** 'Lastschriftlauf' (Tasks, Lastschriftläufe): open items without an invoice collected by SEPA direct debit. */
import { performDirectDebitItem } from "~/jobs/direct-debit-run.server";
import { collectionDateRefusal } from "~/lib/debit-notice";
import { parseGermanDate, todayInBerlin } from "~/lib/format";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import { businessDayFrom } from "~/lib/pain008";
import {
  DIRECT_DEBIT_SLICE_SIZE,
  NOTHING_TO_COLLECT,
  peopleToCollect,
  previewDirectDebits,
  summarizeDirectDebitRun,
  type DirectDebitParams,
} from "~/models/direct-debits.server";
import { defineRunKind } from "./declare.server";

export const directDebitRun = defineRunKind({
  type: "DIRECT_DEBIT",
  sliceSize: DIRECT_DEBIT_SLICE_SIZE,
  plan: async ({ db, form }) => {
    const today = todayInBerlin();
    const preview = await previewDirectDebits(db, today);
    if (preview.problem) return { refused: preview.problem };
    // 'Einzug frühestens am' (TT.MM.JJJJ): left empty, the earliest the pre-notification allows.
    const typed = form.get("collectionDate");
    let earliest = preview.earliest;
    if (typeof typed === "string" && typed.trim() !== "") {
      const parsed = parseGermanDate(typed);
      if (!parsed.success) return { refused: `Einzug frühestens am: ${parsed.error}` };
      // A day TARGET2 is closed moves to the next business day, as a due date does.
      earliest = businessDayFrom(parsed.value);
      const refusal = collectionDateRefusal(earliest, today, preview.noticeDays);
      if (refusal) return { refused: refusal };
    }
    const params: DirectDebitParams = { date: today, earliest, latest: preview.latest };
    const items = await peopleToCollect(db, earliest, preview.latest);
    return {
      items,
      params,
      emptyMessage: NOTHING_TO_COLLECT,
      startMessage: "Vorabankündigungen und Lastschriften werden vorbereitet ...",
      label: JOB_TYPE_LABELS.DIRECT_DEBIT,
    };
  },
  // Each person's collections, then their pre-notification (mail or letter): app/jobs/direct-debit-run.server.ts.
  perform: (context, personId) => performDirectDebitItem(context, personId),
  // The pain.008 file goes to R2 when the run is finished: after every notice.
  summarize: (db, job, env) => summarizeDirectDebitRun(env, db, job),
});
