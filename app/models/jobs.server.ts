/**
 * Bulk runs (ARCHITECTURE pattern 9): a row in `jobs` per run, its slices settled in `job_slices`
 * and the items that failed in `job_failures`. A slice's work and its settlement are one D1 batch,
 * so a redelivered message finds its slice settled and counts nothing twice; the job's counts are
 * always recomputed from the settled slices, never incremented.
 */
import { and, desc, eq, max, sql } from "drizzle-orm";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { inValues, qualified, valuesOf } from "~/db/columns";
import { jobFailures, jobs, jobSlices, people } from "~/db/schema";
import { joinGerman } from "~/lib/format";
import { isActive, type JobType } from "~/lib/jobs";
import { PAGE_SIZE } from "~/lib/grid";
import type { Actor } from "./audit.server";
import { errorText } from "./constraints.server";

export { type JobType } from "~/lib/jobs";

export type JobRecord = typeof jobs.$inferSelect;

export const ALREADY_RUNNING = "Diese Aufgabe läuft bereits. Bitte warten, bis sie fertig ist.";

const isAlreadyRunning = (error: unknown) => errorText(error).includes("jobs_one_active_per_type") || errorText(error).includes("jobs.type");

/**
 * A new run of `type` over `total` items; refused while a run of the same type is queued or
 * running (a unique index, so two clicks at once cannot both start one). A run with nothing to do
 * is done at once with `emptyMessage`.
 */
export async function createJob(
  db: Db,
  job: {
    type: JobType;
    items: readonly number[];
    params: unknown;
    emptyMessage: string;
    /** Shown until the run's first progress message. */ startMessage?: string;
  },
  actor: Actor,
  now = new Date(),
): Promise<{ status: "created"; job: JobRecord } | { status: "running" }> {
  const iso = now.toISOString();
  const empty = job.items.length === 0;
  try {
    const [created] = await db
      .insert(jobs)
      .values({
        type: job.type,
        status: empty ? "DONE" : "QUEUED",
        total: job.items.length,
        params: JSON.stringify(job.params),
        items: JSON.stringify(job.items),
        message: empty ? job.emptyMessage : (job.startMessage ?? null),
        startedOn: iso,
        finishedOn: empty ? iso : null,
        createdBy: actor.name,
        createdOn: iso,
      })
      .returning();
    return { status: "created", job: created };
  } catch (error) {
    if (isAlreadyRunning(error)) return { status: "running" };
    throw error;
  }
}

/** A run's parameters as its kind wrote them at the start (and its result, once finished). */
export const paramsOfJob = <Params>(job: Pick<JobRecord, "params">): Params => JSON.parse(job.params ?? "{}") as Params;

export async function getJob(db: Db, id: number): Promise<JobRecord | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

/** A run that could not be handed to the queue: failed at once, with the reason. */
export async function failJob(db: Db, id: number, message: string, now = new Date()) {
  await db.update(jobs).set({ status: "FAILED", message, finishedOn: now.toISOString() }).where(eq(jobs.id, id));
}

/**
 * The job's counts from its settled slices; running while slices are open, then done (or failed
 * when an item failed every retry). A run marked failed stays failed. Finishing clears the start's
 * message ('… werden vorbereitet'), so no screen shows it with a finished status while
 * finishWhenSettled writes the result; the screens follow such a run on (isFollowed).
 */
function progressStatement(jobId: number, now: string): Statement {
  const done = sql`(SELECT coalesce(sum(done), 0) FROM ${jobSlices} WHERE job_id = ${jobId})`;
  const failed = sql`(SELECT coalesce(sum(failed), 0) FROM ${jobSlices} WHERE job_id = ${jobId})`;
  return render(sql`UPDATE ${jobs} SET done = ${done}, failed = ${failed},
    status = CASE WHEN status = 'FAILED' THEN 'FAILED'
      WHEN ${done} + ${failed} < total THEN 'RUNNING'
      WHEN ${failed} > 0 THEN 'FAILED' ELSE 'DONE' END,
    finished_on = CASE WHEN ${done} + ${failed} >= total THEN coalesce(finished_on, ${now}) ELSE finished_on END,
    message = CASE WHEN status IN ('QUEUED', 'RUNNING') AND ${done} + ${failed} >= total THEN NULL ELSE message END
    WHERE id = ${jobId}`);
}

/**
 * The statements that settle a slice whose work went through: appended to the work's batch. Items
 * that had failed before and now went through lose their failure record.
 */
export function sliceSettledStatements(jobId: number, slice: number, items: readonly number[], now: Date): Statement[] {
  const iso = now.toISOString();
  return [
    render(sql`DELETE FROM ${jobFailures} WHERE job_id = ${jobId} AND item_id IN ${valuesOf(items)}`),
    render(
      sql`INSERT INTO ${jobSlices} (job_id, slice, done, failed, settled_on) VALUES (${jobId}, ${slice}, ${items.length}, 0, ${iso}) ON CONFLICT DO NOTHING`,
    ),
    progressStatement(jobId, iso),
  ];
}

/**
 * The slice's message failed every retry (dead-letter queue). Its items with a failure record
 * count as failed, the others went through on their own; when none has a record (the message
 * failed as a whole, e.g. the consumer was stopped), all of them failed with `reason`.
 */
export async function settleSliceAsFailed(db: Db, jobId: number, slice: number, items: readonly number[], reason: string, now = new Date()) {
  const iso = now.toISOString();
  const list = JSON.stringify(items);
  const failedItems = sql`(SELECT count(*) FROM ${jobFailures} WHERE job_id = ${jobId} AND item_id IN ${valuesOf(items)})`;
  await runAtomically(db, [
    render(sql`INSERT INTO ${jobFailures} (job_id, item_id, message, attempts, last_attempt_on)
      SELECT ${jobId}, value, ${reason}, 1, ${iso} FROM json_each(${list}) WHERE ${failedItems} = 0 ON CONFLICT DO NOTHING`),
    render(sql`INSERT INTO ${jobSlices} (job_id, slice, done, failed, settled_on)
      VALUES (${jobId}, ${slice}, ${items.length} - ${failedItems}, ${failedItems}, ${iso}) ON CONFLICT DO NOTHING`),
    progressStatement(jobId, iso),
  ]);
}

/** An item's work failed (it will be retried with its message): the reason, and how often. */
export async function recordFailure(db: Db, jobId: number, itemId: number, reason: string, now = new Date()) {
  await db.run(sql`INSERT INTO ${jobFailures} (job_id, item_id, message, attempts, last_attempt_on)
    VALUES (${jobId}, ${itemId}, ${reason}, 1, ${now.toISOString()})
    ON CONFLICT (job_id, item_id) DO UPDATE SET message = excluded.message, attempts = attempts + 1, last_attempt_on = excluded.last_attempt_on`);
}

/** An item done after all, outside its run (e.g. a reminder's mail sent again by hand). */
export async function clearFailure(db: Db, jobId: number, itemId: number) {
  await db.run(sql`DELETE FROM ${jobFailures} WHERE job_id = ${jobId} AND item_id = ${itemId}`);
}

const NAMED_FAILURES = 5;

/** Names of people by id: how a run's message names the items that failed, unless its kind names them otherwise. */
export async function namePeople(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: people.id, name: people.fullName })
    .from(people)
    .where(inValues(people.id, ids))
    .orderBy(people.lastNameKey, people.firstNameKey);
  return new Map(rows.map((row) => [row.id, row.name ?? "unbekannt"]));
}

/** 'Erika Muster (Grund), …': the items whose work failed, for the run's message, in the order nameItems gives them. */
async function failureSummary(db: Db, jobId: number, nameItems = namePeople): Promise<{ count: number; text: string }> {
  const failures = await db.select({ itemId: jobFailures.itemId, message: jobFailures.message }).from(jobFailures).where(eq(jobFailures.jobId, jobId));
  const names = await nameItems(
    db,
    failures.map((failure) => failure.itemId),
  );
  const position = new Map([...names.keys()].map((id, index) => [id, index]));
  const rows = failures
    .sort((a, b) => (position.get(a.itemId) ?? Infinity) - (position.get(b.itemId) ?? Infinity))
    .map((failure) => ({ name: names.get(failure.itemId) ?? "unbekannt", message: failure.message }));
  const named = rows.slice(0, NAMED_FAILURES).map((row) => `${row.name} (${row.message})`);
  const more = rows.length > NAMED_FAILURES ? [`${rows.length - NAMED_FAILURES} weitere`] : [];
  return { count: rows.length, text: joinGerman([...named, ...more]) };
}

/** A finished run's message, and what it wrote when later steps need it (kept in params.result). */
export type RunSummary = { message: string; result?: unknown };

/**
 * Writes the finished run's message once all slices are settled (the summary reads what the run
 * wrote); idempotent, so a redelivered last message writes the same again.
 */
export async function finishWhenSettled(db: Db, jobId: number, summarize: (job: JobRecord) => Promise<RunSummary>, nameItems?: typeof namePeople) {
  const job = await getJob(db, jobId);
  if (!job || job.undoneOn || job.done + job.failed < job.total || isActive(job)) return;
  const summary = await summarize(job);
  let message = summary.message;
  if (job.failed > 0) {
    const failures = await failureSummary(db, jobId, nameItems);
    message += `. ${failures.count} fehlgeschlagen: ${failures.text}`;
  }
  const params = summary.result === undefined ? job.params : JSON.stringify({ ...paramsOfJob<object>(job), result: summary.result });
  await db.update(jobs).set({ message, params }).where(eq(jobs.id, jobId));
}

/** Whether the slice was settled already (a redelivered message has nothing left to do). */
export async function isSliceSettled(db: Db, jobId: number, slice: number): Promise<boolean> {
  const [row] = await db
    .select({ slice: jobSlices.slice })
    .from(jobSlices)
    .where(and(eq(jobSlices.jobId, jobId), eq(jobSlices.slice, slice)));
  return row !== undefined;
}

/** The slices of a run not settled yet (by index), for sending them again. */
export async function unsettledSlices(db: Db, job: JobRecord, sliceSize: number): Promise<{ slice: number; items: number[] }[]> {
  const items = JSON.parse(job.items ?? "[]") as number[];
  const settled = new Set((await db.select({ slice: jobSlices.slice }).from(jobSlices).where(eq(jobSlices.jobId, job.id))).map((row) => row.slice));
  const open: { slice: number; items: number[] }[] = [];
  for (let start = 0, slice = 0; start < items.length; start += sliceSize, slice++) {
    if (!settled.has(slice)) open.push({ slice, items: items.slice(start, start + sliceSize) });
  }
  return open;
}

/** When a slice of the run was last settled, or null. */
export async function lastProgressOf(db: Db, jobId: number): Promise<string | null> {
  const [row] = await db
    .select({ last: max(jobSlices.settledOn) })
    .from(jobSlices)
    .where(eq(jobSlices.jobId, jobId));
  return row?.last ?? null;
}

/** The runs under way (queued or running), with their last progress: what the cron looks at for stalled runs. */
export async function activeJobs(db: Db): Promise<JobRow[]> {
  const rows = await db
    .select(jobRowColumns)
    .from(jobs)
    .where(sql`${jobs.status} IN ('QUEUED', 'RUNNING')`)
    .orderBy(jobs.id);
  return rows as JobRow[];
}

/** The run of `type` under way, if any (one at a time: jobs_one_active_per_type). */
export async function activeJobOfType(db: Db, type: JobType): Promise<JobRow | undefined> {
  const [row] = await db
    .select(jobRowColumns)
    .from(jobs)
    .where(and(eq(jobs.type, type), sql`${jobs.status} IN ('QUEUED', 'RUNNING')`));
  return row as JobRow | undefined;
}

/** A stalled run's open slices were sent again: when, by whom (null: automatically), how often. */
export async function markResumed(db: Db, jobId: number, by: string | null, now = new Date()) {
  await db
    .update(jobs)
    .set({ resumedOn: now.toISOString(), resumedBy: by, resumes: sql`${jobs.resumes} + 1` })
    .where(eq(jobs.id, jobId));
}

/** The first message of a run to arrive marks it running. */
export async function markRunning(db: Db, jobId: number) {
  await db
    .update(jobs)
    .set({ status: "RUNNING" })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "QUEUED")));
}

// ---------------------------------------------------------------------------------------------
// The Tasks screen

export type JobRow = Pick<
  JobRecord,
  | "id"
  | "type"
  | "status"
  | "total"
  | "done"
  | "failed"
  | "message"
  | "createdBy"
  | "startedOn"
  | "finishedOn"
  | "undoneOn"
  | "undoneBy"
  | "resumedOn"
  | "resumedBy"
  | "resumes"
> & {
  /** The year a run of Jahresbeiträge was for. */
  year: number | null;
  /** When a slice of the run was last settled. */
  lastProgressOn: string | null;
};

const jobRowColumns = {
  id: jobs.id,
  type: jobs.type,
  status: jobs.status,
  total: jobs.total,
  done: jobs.done,
  failed: jobs.failed,
  message: jobs.message,
  year: sql<number | null>`json_extract(${jobs.params}, '$.year')`,
  lastProgressOn: sql<string | null>`(SELECT max(settled_on) FROM ${jobSlices} WHERE job_id = ${qualified(jobs.id)})`,
  createdBy: jobs.createdBy,
  startedOn: jobs.startedOn,
  finishedOn: jobs.finishedOn,
  undoneOn: jobs.undoneOn,
  undoneBy: jobs.undoneBy,
  resumedOn: jobs.resumedOn,
  resumedBy: jobs.resumedBy,
  resumes: jobs.resumes,
};

/** The history of runs, newest first. */
export async function listJobs(db: Db, query: { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(jobRowColumns)
      .from(jobs)
      .orderBy(desc(jobs.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: sql<number>`count(*)` }).from(jobs),
  ]);
  return { rows: rows as JobRow[], total };
}

/** The newest run of each type (what the Tasks screen shows beside its buttons). */
export async function latestJobs(db: Db): Promise<Partial<Record<JobType, JobRow>>> {
  const rows = await db
    .select(jobRowColumns)
    .from(jobs)
    .where(sql`${jobs.id} IN (SELECT max(id) FROM ${jobs} GROUP BY type)`);
  return Object.fromEntries(rows.map((row) => [row.type, row as JobRow]));
}

/** The newest run of any kind (the home page shows its result), or null when there was none. */
export async function lastJob(db: Db): Promise<JobRow | null> {
  const [row] = await db.select(jobRowColumns).from(jobs).orderBy(desc(jobs.id)).limit(1);
  return (row as JobRow | undefined) ?? null;
}
