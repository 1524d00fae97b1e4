/** 'Lastschriftlauf' (Tasks, Lastschriftläufe): open items without an invoice collected by SEPA direct debit. */
import { todayInBerlin } from "~/lib/format";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import {
  DIRECT_DEBIT_SLICE_SIZE,
  directDebitSliceStatements,
  NOTHING_TO_COLLECT,
  paramsOfDirectDebitJob,
  peopleToCollect,
  previewDirectDebits,
  summarizeDirectDebitRun,
  type DirectDebitParams,
} from "~/models/direct-debits.server";
import { defineRunKind } from "./declare.server";

export const directDebitRun = defineRunKind({
  type: "DIRECT_DEBIT",
  sliceSize: DIRECT_DEBIT_SLICE_SIZE,
  plan: async ({ db }) => {
    const today = todayInBerlin();
    const preview = await previewDirectDebits(db, today);
    if (preview.problem) return { refused: preview.problem };
    const params: DirectDebitParams = { date: today, earliest: preview.earliest };
    const items = await peopleToCollect(db, preview.earliest);
    return { items, params, emptyMessage: NOTHING_TO_COLLECT, startMessage: "Lastschriften werden vorbereitet ...", label: JOB_TYPE_LABELS.DIRECT_DEBIT };
  },
  statements: (job, items, _actor, now) => directDebitSliceStatements(job, items, paramsOfDirectDebitJob(job), now),
  // The pain.008 file goes to R2 when the run is finished.
  summarize: (db, job, env) => summarizeDirectDebitRun(env, db, job),
});
