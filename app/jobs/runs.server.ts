/**
 * The kinds of bulk run (Tasks screen): how each is sliced, what a slice writes, and the message
 * a finished run shows. The consumer (index.server.ts) and the start (start.server.ts) read only
 * this registry.
 */
import type { Db, Statement } from "~/db/client.server";
import { annualFeeSliceStatements, annualFeesMessage, ANNUAL_FEE_SLICE_SIZE, type AnnualFeeParams } from "~/models/annual-fees.server";
import type { Actor } from "~/models/audit.server";
import { INVOICE_SLICE_SIZE, invoiceRunMessage, invoiceRunResult, invoiceSliceStatements, paramsOf, type InvoiceRunParams } from "~/models/invoice-runs.server";
import { paramsOfJob, type JobRecord, type JobType, type RunSummary } from "~/models/jobs.server";

export type RunKind = {
  /** Items (people) per queue message. */
  sliceSize: number;
  /** The writes of one slice: one batch, idempotent. */
  statements(job: JobRecord, items: readonly number[], actor: Actor, now: Date): Statement[];
  /** The finished run's message (and what it wrote, for later steps such as the undo). */
  summarize(db: Db, job: JobRecord): Promise<RunSummary>;
};

/** The kind of a stored run, or undefined for a type this code does not know (never becomes known). */
export const runKindOf = (job: Pick<JobRecord, "type">): RunKind | undefined => (Object.hasOwn(RUN_KINDS, job.type) ? RUN_KINDS[job.type as JobType] : undefined);

export const RUN_KINDS: Record<JobType, RunKind> = {
  ANNUAL_FEES: {
    sliceSize: ANNUAL_FEE_SLICE_SIZE,
    statements: (job, items, actor, now) => annualFeeSliceStatements(job.id, items, paramsOfJob<AnnualFeeParams>(job), actor, now),
    summarize: async (db, job) => ({ message: await annualFeesMessage(db, job.id) }),
  },
  INVOICES: {
    sliceSize: INVOICE_SLICE_SIZE,
    statements: (job, items, actor, now) => invoiceSliceStatements(job.id, items, paramsOf(job) satisfies InvoiceRunParams, actor, now),
    summarize: async (db, job) => {
      const result = await invoiceRunResult(db, job.id);
      return { message: invoiceRunMessage(result), result };
    },
  },
};
