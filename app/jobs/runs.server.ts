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
import type { ItemContext } from "./item";
import { nameInvoices } from "~/models/invoice-pdfs.server";
import { performPdf, PDF_CONCURRENCY, PDF_SLICE_SIZE, summarizePdfRun } from "./pdf-run.server";
import { DIRECT_DEBIT_SLICE_SIZE, directDebitSliceStatements, paramsOfDirectDebitJob, summarizeDirectDebitRun } from "~/models/direct-debits.server";
import { REMINDER_SLICE_SIZE, reminderRunMessage } from "~/models/reminder-runs.server";
import { performReminderItem } from "./reminder-run.server";
import { MAILSHOT_SLICE_SIZE, performMailshotItem, summarizeMailshotRun } from "./mailshot-run.server";

type RunKindBase = {
  /** Items (people, invoices, recipients) per queue message. */
  sliceSize: number;
  /** The finished run's message (and what it wrote, for later steps such as the undo). `env`: for
   *  a kind whose finished run writes something outside D1 (the direct-debit file in R2); it must
   *  write the same again when a redelivered last message finishes the run twice. */
  summarize(db: Db, job: JobRecord, env: Env): Promise<RunSummary>;
  /** How the run's message names items that failed; people by default. */
  nameItems?(db: Db, ids: readonly number[]): Promise<Map<number, string>>;
  /** A kind with `perform`: how many items of a slice are worked on at once (default 1), when
   *  their work mostly waits on an outside system (the browser renders while R2 stores). */
  concurrency?: number;
};

/**
 * A kind's work is either pure D1 (`statements`: one batch with the slice's settlement) or has
 * effects outside D1 (`perform`: a PDF in R2, a mail), item by item. `perform` must be idempotent
 * per item: a retried message runs every item of its slice again, so an item checks what it
 * already did (a PDF path set, a mail recorded as sent) and does not do it twice.
 */
export type RunKind = RunKindBase &
  (
    | { statements(job: JobRecord, items: readonly number[], actor: Actor, now: Date): Statement[]; perform?: never }
    | { perform(context: ItemContext, item: number): Promise<void>; statements?: never }
  );

/** The kind of a stored run, or undefined for a type this code does not know (never becomes known). */
export const runKindOf = (job: Pick<JobRecord, "type">): RunKind | undefined =>
  Object.hasOwn(RUN_KINDS, job.type) ? RUN_KINDS[job.type as JobType] : undefined;

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
  PDFS: {
    sliceSize: PDF_SLICE_SIZE,
    perform: performPdf,
    concurrency: PDF_CONCURRENCY,
    summarize: summarizePdfRun,
    nameItems: nameInvoices,
  },
  MAILSHOT: {
    sliceSize: MAILSHOT_SLICE_SIZE,
    perform: performMailshotItem,
    summarize: summarizeMailshotRun,
  },
  DIRECT_DEBIT: {
    sliceSize: DIRECT_DEBIT_SLICE_SIZE,
    statements: (job, items, _actor, now) => directDebitSliceStatements(job, items, paramsOfDirectDebitJob(job), now),
    summarize: (db, job, env) => summarizeDirectDebitRun(env, db, job),
  },
  REMINDERS: {
    sliceSize: REMINDER_SLICE_SIZE,
    // Per person: the reminders and fees (one batch), then the letter, the mail or the print copy.
    perform: performReminderItem,
    summarize: async (db, job) => ({ message: await reminderRunMessage(db, job.id) }),
  },
};
