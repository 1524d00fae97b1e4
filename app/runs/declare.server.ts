/**
 * The server half of a run's declaration (app/runs/<kind>.run.server.ts; the card's half is
 * <kind>.run.tsx): how the run is planned when its confirmation is posted, how it is sliced,
 * what an item does, and the finished run's message. The queue consumer and the start read only
 * the registry built from these (app/jobs/runs.server.ts).
 */
import type { Db, Statement } from "~/db/client.server";
import type { ItemContext } from "~/jobs/item";
import type { User } from "~/lib/access";
import type { JobType } from "~/lib/jobs";
import type { Actor } from "~/models/audit.server";
import type { JobRecord, RunSummary } from "~/models/jobs.server";

/** What a run's start gets: the posted confirmation (a year, a mailshot's id). */
export type PlanContext = { db: Db; env: Env; user: User; form: FormData };

/** The run as it is started: its items and parameters, frozen in the jobs row. */
type RunPlan = {
  items: readonly number[];
  params: unknown;
  /** The finished message of a run with nothing to do (it is done at once). */
  emptyMessage: string;
  /** The run's message until its first progress ('Pdfs werden vorbereitet ...'). */
  startMessage?: string;
  /** 'Jahresbeiträge 2027': how the toast names the run. */
  label: string;
  /** The toast of the started run, when it says more than '{label} gestartet: …'. */
  startedMessage?: string;
};

type RunKindBase = {
  type: JobType;
  /** Items (people, invoices, recipients) per queue message. */
  sliceSize: number;
  /** The run as the confirmation starts it, or why it cannot start (German). */
  plan(context: PlanContext): Promise<RunPlan | { refused: string }>;
  /** The finished run's message (and what it wrote, for later steps such as the undo). `env`: for
   *  a kind whose finished run writes something outside D1 (the direct-debit file in R2); it must
   *  write the same again when a redelivered last message finishes the run twice. */
  summarize(db: Db, job: JobRecord, env: Env): Promise<RunSummary>;
  /** How the run's message names items that failed; people by default. */
  nameItems?(db: Db, ids: readonly number[]): Promise<Map<number, string>>;
  /** A kind with `perform`: how many items of a slice are worked on at once (default 1), when
   *  their work mostly waits on an outside system (the browser renders while R2 stores). */
  concurrency?: number;
  /** A run that can be undone: the last run's undo on the card, or why it is no longer possible. */
  undo?: { state(db: Db): Promise<{ jobId: number; refusal: string | null } | null> };
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

/** Declares a run's server half (identity: for type checking in one place). */
export const defineRunKind = <Kind extends RunKind>(kind: Kind): Kind => kind;
