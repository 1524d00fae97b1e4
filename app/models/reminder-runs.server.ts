/**
 * Mahnlauf (issue 17): every overdue invoice and direct-billing fee whose next reminder level is
 * due gets a reminder of that level, with its reminder fee (kind REMINDER) when the level has one.
 *
 * The run's items are people (one letter per person lists all their reminded items, step 3); a
 * slice is one D1 batch of set-based SQL that only picks up what is still due, so a redelivered
 * message, a retried slice or a second run on the same day reminds nobody twice: the level is
 * computed anew (a reminded item's next level counts from its new due date, in the future), and the
 * partial unique index (target, level) WHERE not cancelled refuses a second reminder of a level
 * (ON CONFLICT DO NOTHING). The fee of a reminder is made once (looked up by run and item).
 */
import { sql, type SQL } from "drizzle-orm";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { qualified } from "~/db/columns";
import { fees, invoiceHeaders, mailLog, people, reminders, type ReminderChannel, type ReminderTargetType } from "~/db/schema";
import { compareGerman, formatCount } from "~/lib/format";
import { newDueDateOf } from "~/lib/reminder-dates";
import { NO_EMAIL } from "~/lib/mail";
import type { ReminderLetterItem, ReminderLetterSource } from "~/lib/reminder-letter";
import { halfYearLabel, type BaseRate, type InterestStretch } from "~/lib/default-interest";
import type { Actor } from "./audit.server";
import { getConfiguration } from "./configuration.server";
import { baseRatesForRun, interestKey, interestOfItems, missingRateOf, type ItemInterest } from "./default-interest.server";
import { currentPaymentLink } from "./fees.server";
import { paramsOfJob, type JobRecord } from "./jobs.server";
import { cancelReminderStatements, dueLevelOf, getReminderLevels, type ReminderLevel } from "./reminders.server";

/** People per queue message: each gets a PDF rendered and maybe a mail (as the PDF run: 20). */
export const REMINDER_SLICE_SIZE = 20;
export const NOTHING_TO_REMIND = "Keine Mahnung fällig";

/** The levels as the run started with them, and the run's date (a later edit changes nothing). */
export type ReminderRunParams = {
  date: string;
  levels: (Pick<ReminderLevel, "level" | "enabled" | "title" | "days" | "fee" | "paymentTermDays" | "mailTemplate" | "letterTemplate"> & {
    /** Absent in the params of a run started before migration 0038: the letter's fee then. */
    mailFee?: number;
  })[];
  /** Default interest on (Einstellungen, issue 31 item 5): the base rates as the run started. */
  interest?: { rates: BaseRate[] };
};

/** What a reminder of the level costs by mail (MAIL) or by letter (PRINT): the actual costs (issue 31). */
const feeByChannel = (level: ReminderRunParams["levels"][number], channel: ReminderChannel) => (channel === "MAIL" ? (level.mailFee ?? level.fee) : level.fee);

/** The new due date a reminder of each level names, for a run on `date`. */
const newDueDates = (params: ReminderRunParams) => new Map(params.levels.map((level) => [level.level, newDueDateOf(params.date, level.paymentTermDays)]));

const asLevels = (params: ReminderRunParams) => params.levels as ReminderLevel[];

/** An item of the preview: what is due for whom, and whether the person gets it by mail (why not). */
type DueReminder = {
  targetType: ReminderTargetType;
  targetId: number;
  personId: number;
  name: string;
  level: number;
  openAmount: number;
  byMail: boolean;
  /** Why the person gets a letter to print: 'keine E-Mail-Adresse'; null by mail. */
  printReason: string | null;
};

const hasEmail = (email: SQL | typeof people.email) => sql<number>`(trim(coalesce(${email}, '')) <> '')`;

/** MAIL for a person with an e-mail address, else PRINT. A reminder is a message of the contract
 *  (Art. 6 Abs. 1 lit. b DSGVO): it needs no consent, unlike mailshots and birthday mails
 *  (mailConsentAllows, issue 31 item 6). Needs `people` joined without an alias. */
const mailChannel = sql`CASE WHEN ${hasEmail(people.email)} THEN 'MAIL' ELSE 'PRINT' END`;

type DueRow = { id: number; personId: number; name: string | null; level: number; openAmount: number; hasEmail: number };

/** Every item with a level due on `date` (optionally only of some people). */
async function dueReminders(db: Db, params: ReminderRunParams, personIds?: readonly number[]): Promise<DueReminder[]> {
  const levels = asLevels(params);
  const invoiceLevel = dueLevelOf(levels, "INVOICE", params.date);
  const feeLevel = dueLevelOf(levels, "FEE", params.date);
  const ofPeople = (column: SQL) =>
    personIds
      ? sql`AND ${column} IN (${sql.join(
          personIds.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql``;
  const [invoices, feeRows] = await Promise.all([
    db.all<DueRow>(
      sql`SELECT t.id AS id, t.person_id AS personId, ${people.fullName} AS name, t.lv AS level, t.open_amount AS openAmount, ${hasEmail(people.email)} AS hasEmail
        FROM (SELECT ${qualified(invoiceHeaders.id)} AS id, ${qualified(invoiceHeaders.personId)} AS person_id, ${qualified(invoiceHeaders.openAmount)} AS open_amount, ${invoiceLevel} AS lv
              FROM ${invoiceHeaders} WHERE ${qualified(invoiceHeaders.openAmount)} > 0 ${ofPeople(qualified(invoiceHeaders.personId))}) t
        JOIN ${people} ON ${people.id} = t.person_id WHERE t.lv IS NOT NULL ORDER BY t.id`,
    ),
    db.all<DueRow>(
      sql`SELECT t.id AS id, t.person_id AS personId, ${people.fullName} AS name, t.lv AS level, t.open_amount AS openAmount, ${hasEmail(people.email)} AS hasEmail
        FROM (SELECT ${qualified(fees.id)} AS id, ${qualified(fees.personId)} AS person_id, ${qualified(fees.openAmount)} AS open_amount, ${feeLevel} AS lv
              FROM ${fees} WHERE ${qualified(fees.openAmount)} > 0 ${ofPeople(qualified(fees.personId))}) t
        JOIN ${people} ON ${people.id} = t.person_id WHERE t.lv IS NOT NULL ORDER BY t.id`,
    ),
  ]);
  const row =
    (targetType: ReminderTargetType) =>
    (item: DueRow): DueReminder => {
      const printReason = item.hasEmail ? null : NO_EMAIL;
      return {
        targetType,
        targetId: item.id,
        personId: item.personId,
        name: item.name ?? "",
        level: Number(item.level),
        openAmount: item.openAmount,
        byMail: printReason === null,
        printReason,
      };
    };
  return [...invoices.map(row("INVOICE")), ...feeRows.map(row("FEE"))];
}

export type ReminderRunPreview = {
  date: string;
  items: number;
  people: number;
  byMail: number;
  byPrint: number;
  /** Per person (in name order) how the letter goes out, and why not by mail. */
  recipients: { personId: number; name: string; channel: ReminderChannel; reason: string | null }[];
  openAmount: number;
  fees: number;
  /** Default interest the run charges (0 when it is off or nothing bears interest yet), and whether it is on. */
  interest: number;
  interestOn: boolean;
  levels: { level: number; title: string; items: number; openAmount: number; fees: number; interest: number; newDueDate: string }[];
  problem: string | null;
};

/** Why a run cannot start while default interest is on and a half-year's base rate is missing. */
export const missingBaseRate = (halfYear: string) =>
  `Für das ${halfYearLabel(halfYear)} fehlt der Basiszinssatz: Bitte in den Einstellungen (Verzugszinsen) eintragen oder die Verzugszinsen ausschalten.`;

/** The interest the run charges on its due items (none without default interest). */
async function interestOfDue(
  db: Db,
  params: ReminderRunParams,
  due: readonly Pick<DueReminder, "targetType" | "targetId">[],
): Promise<Map<string, ItemInterest>> {
  if (!params.interest) return new Map();
  return interestOfItems(db, params.date, params.interest.rates, due);
}

/** Cents of interest an outcome charges. */
const interestAmount = (outcome: ItemInterest | undefined) => (outcome?.status === "computed" ? outcome.amount : 0);

/** The parameters of a run on `date`: the levels as they are now. */
export async function reminderRunParams(db: Db, date: string): Promise<ReminderRunParams> {
  const [levels, configuration] = await Promise.all([getReminderLevels(db), getConfiguration(db)]);
  return {
    date,
    ...(configuration?.defaultInterest ? { interest: { rates: await baseRatesForRun(db) } } : {}),
    levels: levels.map(({ level, enabled, title, days, fee, mailFee, paymentTermDays, mailTemplate, letterTemplate }) => ({
      level,
      enabled,
      title,
      days,
      fee,
      mailFee,
      paymentTermDays,
      mailTemplate,
      letterTemplate,
    })),
  };
}

/** What a run on `date` will do: per level the items, their open amounts and the reminder fees;
 *  how many people get a mail and how many a letter to print. */
export async function previewReminderRun(db: Db, params: ReminderRunParams): Promise<ReminderRunPreview> {
  const due = await dueReminders(db, params);
  const interest = await interestOfDue(db, params, due);
  const dueDates = newDueDates(params);
  const people = new Map<number, ReminderRunPreview["recipients"][number]>();
  for (const item of due)
    people.set(item.personId, { personId: item.personId, name: item.name, channel: item.byMail ? "MAIL" : "PRINT", reason: item.printReason });
  const recipients = [...people.values()].sort((a, b) => compareGerman(a.name, b.name) || a.personId - b.personId);
  const levels = params.levels
    .filter((level) => level.enabled)
    .map((level) => {
      const items = due.filter((item) => item.level === level.level);
      return {
        level: level.level,
        title: level.title,
        items: items.length,
        openAmount: items.reduce((sum, item) => sum + item.openAmount, 0),
        fees: items.reduce((sum, item) => sum + feeByChannel(level, item.byMail ? "MAIL" : "PRINT"), 0),
        interest: items.reduce((sum, item) => sum + interestAmount(interest.get(interestKey(item))), 0),
        newDueDate: dueDates.get(level.level)!,
      };
    });
  const byMail = recipients.filter((recipient) => recipient.channel === "MAIL").length;
  const missingRate = missingRateOf(interest.values());
  return {
    date: params.date,
    items: due.length,
    people: people.size,
    byMail,
    byPrint: people.size - byMail,
    recipients,
    openAmount: levels.reduce((sum, level) => sum + level.openAmount, 0),
    fees: levels.reduce((sum, level) => sum + level.fees, 0),
    interest: levels.reduce((sum, level) => sum + level.interest, 0),
    interestOn: params.interest !== undefined,
    levels,
    problem: !params.levels.some((level) => level.enabled)
      ? "Es ist keine Mahnstufe aktiv (Einstellungen, Mahnwesen)."
      : missingRate
        ? missingBaseRate(missingRate)
        : null,
  };
}

/** The people the run reminds (its items), in order. */
export async function peopleToRemind(db: Db, params: ReminderRunParams): Promise<number[]> {
  return [...new Set((await dueReminders(db, params)).map((item) => item.personId))].sort((a, b) => a - b);
}

const caseOfLevel = (params: ReminderRunParams, value: (level: ReminderRunParams["levels"][number]) => string | number, level: SQL) =>
  sql`(CASE ${level} ${sql.join(
    params.levels.map((entry) => sql`WHEN ${entry.level} THEN ${value(entry)}`),
    sql` `,
  )} END)`;

/**
 * A slice: the reminders of its people's due items, then the reminder fees of the run's new
 * reminders of these people, then each reminder names its fee. Idempotent (see above).
 */
function reminderSliceStatements(
  jobId: number,
  personIds: readonly number[],
  params: ReminderRunParams,
  interest: ReadonlyMap<string, ItemInterest>,
  actor: Actor,
  now: Date,
): Statement[] {
  const iso = now.toISOString();
  const dueDates = newDueDates(params);
  const levels = asLevels(params);
  const inPeople = (column: SQL) =>
    sql`${column} IN (${sql.join(
      personIds.map((id) => sql`${id}`),
      sql`, `,
    )})`;
  const insertReminders = (type: ReminderTargetType) => {
    const table = type === "INVOICE" ? invoiceHeaders : fees;
    return render(sql`INSERT INTO ${reminders} (target_type, target_id, person_id, level, date, new_due_date, open_amount, channel, status, job_id, created_by, created_on)
      SELECT ${type}, t.id, t.person_id, t.lv, ${params.date}, ${caseOfLevel(params, (level) => dueDates.get(level.level)!, sql`t.lv`)}, t.open_amount,
             ${mailChannel}, 'PENDING', ${jobId}, ${actor.name}, ${iso}
      FROM (SELECT ${qualified(table.id)} AS id, ${qualified(table.personId)} AS person_id, ${qualified(table.openAmount)} AS open_amount, ${dueLevelOf(levels, type, params.date)} AS lv
            FROM ${table} WHERE ${inPeople(qualified(table.personId))}) t
      JOIN ${people} ON ${people.id} = t.person_id
      WHERE t.lv IS NOT NULL
      ON CONFLICT DO NOTHING`);
  };
  // By the channel the reminder goes out on: a letter's postage and material, or a mail's.
  const costs = (level: SQL) =>
    sql`(CASE WHEN r.channel = 'MAIL' THEN ${caseOfLevel(params, (entry) => feeByChannel(entry, "MAIL"), level)} ELSE ${caseOfLevel(params, (entry) => entry.fee, level)} END)`;
  // The reminder's fee carries its actual costs and the default interest it charges (its own
  // columns say how much of it is interest, for the letter and the books).
  const fee = (level: SQL) => sql`(${costs(level)} + r.interest)`;
  const feeTitle = sql`CASE WHEN r.interest = 0 THEN 'Mahngebühr ' WHEN ${costs(sql`r.level`)} = 0 THEN 'Verzugszinsen ' ELSE 'Mahngebühr und Verzugszinsen ' END`;
  // Each reminder just written that charges interest: what, for which days, and how computed. Only
  // while it has none (a retried slice changes nothing).
  const setInterest = [...interest.values()]
    .filter((outcome) => outcome.status === "computed")
    .map((outcome) =>
      render(sql`UPDATE ${reminders} SET interest = ${outcome.amount}, interest_from = ${outcome.from}, interest_to = ${outcome.to},
          interest_basis = ${JSON.stringify({ surcharge: outcome.surcharge, stretches: outcome.stretches })}
        WHERE job_id = ${jobId} AND target_type = ${outcome.targetType} AND target_id = ${outcome.targetId} AND status = 'PENDING' AND fee_id IS NULL AND interest_from IS NULL`),
    );
  const title = (level: SQL) => caseOfLevel(params, (entry) => entry.title, level);
  const sameItem = sql`f.reminded_invoice_id IS (CASE WHEN r.target_type = 'INVOICE' THEN r.target_id END) AND f.reminded_fee_id IS (CASE WHEN r.target_type = 'FEE' THEN r.target_id END)`;
  const itemText = sql`CASE WHEN r.target_type = 'INVOICE'
      THEN 'Rechnung ' || (SELECT h.invoice_number FROM ${invoiceHeaders} h WHERE h.id = r.target_id)
      ELSE (SELECT rf.text FROM ${fees} rf WHERE rf.id = r.target_id) END`;
  // Not billed by invoice (send_invoice 0), for an invoice too: the reminder is the fee's bill, its
  // GiroCode asks for it with the item, and the statement import books both from that one payment.
  const insertFees =
    render(sql`INSERT INTO ${fees} (person_id, date, due_date, text, amount, open_amount, send_invoice, is_invoiced, kind, reminded_invoice_id, reminded_fee_id, job_id, created_by, created_on)
    SELECT r.person_id, r.date, r.new_due_date, substr(${feeTitle} || ${title(sql`r.level`)} || ': ' || ${itemText}, 1, 100), ${fee(sql`r.level`)}, ${fee(sql`r.level`)},
           0, 0, 'REMINDER',
           CASE WHEN r.target_type = 'INVOICE' THEN r.target_id END, CASE WHEN r.target_type = 'FEE' THEN r.target_id END, ${jobId}, ${actor.name}, ${iso}
    FROM ${reminders} r
    WHERE r.job_id = ${jobId} AND ${inPeople(sql`r.person_id`)} AND r.status = 'PENDING' AND r.fee_id IS NULL AND ${fee(sql`r.level`)} > 0
      AND NOT EXISTS (SELECT 1 FROM ${fees} f WHERE f.job_id = ${jobId} AND f.kind = 'REMINDER' AND ${sameItem})`);
  const linkFees =
    render(sql`UPDATE ${reminders} AS r SET fee_id = (SELECT f.id FROM ${fees} f WHERE f.job_id = ${jobId} AND f.kind = 'REMINDER' AND ${sameItem})
    WHERE r.job_id = ${jobId} AND ${inPeople(sql`r.person_id`)} AND r.fee_id IS NULL`);
  return [insertReminders("INVOICE"), insertReminders("FEE"), ...setInterest, insertFees, linkFees];
}

export const reminderParamsOf = (job: Pick<JobRecord, "params">) => paramsOfJob<ReminderRunParams>(job);

/** 'Fertig! 12 Mahnungen geschrieben (3 per Post)'. */
export async function reminderRunMessage(db: Db, jobId: number): Promise<string> {
  const [row] = await db.all<{ total: number; print: number }>(
    sql`SELECT count(*) AS total, coalesce(sum(channel = 'PRINT'), 0) AS print FROM ${reminders} WHERE job_id = ${jobId} AND status <> 'CANCELLED'`,
  );
  if (row.total === 0) return `Fertig! ${NOTHING_TO_REMIND}`;
  return `Fertig! ${formatCount(row.total, "Mahnung", "Mahnungen")} geschrieben (${formatCount(row.total - row.print, "per Mail", "per Mail")}, ${formatCount(row.print, "zum Drucken", "zum Drucken")})`;
}

// ---------------------------------------------------------------------------------------------
// Sending (step 3): the letters of a run, per person, and the reminders marked as sent.

/** A person's letter of a run (one per person), as the document needs it. */
export type ReminderLetter = ReminderLetterSource & { personId: number; email: string | null; channel: ReminderChannel; level: number };

type LetterRow = {
  reminderId: number;
  targetType: ReminderTargetType;
  targetId: number;
  level: number;
  newDueDate: string;
  date: string;
  channel: ReminderChannel | null;
  openAmount: number;
  currentOpen: number | null;
  reminderFee: number | null;
  interest: number;
  interestFrom: string | null;
  interestTo: string | null;
  interestBasis: string | null;
  invoiceNumber: number | null;
  feeText: string | null;
  itemDate: string | null;
  itemDueDate: string | null;
  personId: number;
  salutation: string | null;
  title: string | null;
  firstName: string;
  lastName: string;
  streetNumber: string | null;
  zip: string | null;
  city: string | null;
  email: string | null;
  paymentLinkUrl: string | null;
  paymentLinkAmount: number | null;
};

/** The interest a reminder charges as its letter names it (null without). */
function interestOfLetter(row: Pick<LetterRow, "interest" | "interestFrom" | "interestTo" | "interestBasis">): ReminderLetterItem["interest"] {
  if (!(row.interest > 0) || !row.interestFrom || !row.interestTo) return null;
  const basis = JSON.parse(row.interestBasis ?? "{}") as Partial<{ surcharge: number; stretches: InterestStretch[] }>;
  return { amount: row.interest, from: row.interestFrom, to: row.interestTo, surcharge: basis.surcharge ?? 0, stretches: basis.stretches ?? [] };
}

/**
 * The letters of a run: per person their reminders of `status` (PENDING: to be sent; SENT: sent,
 * e.g. for the print PDF), optionally of one person or one channel. An item paid since it was
 * reminded (nothing open now) is left out, and so is a person left with no item. The amounts are
 * those of the reminders (what was open when the run reminded it).
 */
export async function reminderLetters(
  db: Db,
  params: ReminderRunParams,
  where: { jobId: number; status: "PENDING" | "SENT"; personId?: number; channel?: ReminderChannel },
): Promise<ReminderLetter[]> {
  const rows =
    await db.all<LetterRow>(sql`SELECT r.id AS reminderId, r.target_type AS targetType, r.target_id AS targetId, r.level AS level, r.new_due_date AS newDueDate,
      r.date AS date, r.channel AS channel, r.open_amount AS openAmount, coalesce(h.open_amount, i.open_amount) AS currentOpen, rf.amount AS reminderFee,
      r.interest AS interest, r.interest_from AS interestFrom, r.interest_to AS interestTo, r.interest_basis AS interestBasis,
      h.invoice_number AS invoiceNumber, i.text AS feeText, coalesce(h.date, i.date) AS itemDate, coalesce(h.due_date, i.due_date) AS itemDueDate,
      p.id AS personId, p.salutation AS salutation, p.title AS title, p.first_name AS firstName, p.last_name AS lastName,
      p.street_number AS streetNumber, p.zip AS zip, p.city AS city, p.email AS email, i.payment_link_url AS paymentLinkUrl, i.payment_link_amount AS paymentLinkAmount
    FROM ${reminders} r
    JOIN ${people} p ON p.id = r.person_id
    LEFT JOIN ${invoiceHeaders} h ON r.target_type = 'INVOICE' AND h.id = r.target_id
    LEFT JOIN ${fees} i ON r.target_type = 'FEE' AND i.id = r.target_id
    LEFT JOIN ${fees} rf ON rf.id = r.fee_id
    WHERE r.job_id = ${where.jobId} AND r.status = ${where.status}
      ${where.personId !== undefined ? sql`AND r.person_id = ${where.personId}` : sql``}
      ${where.channel !== undefined ? sql`AND r.channel = ${where.channel}` : sql``}
    ORDER BY p.last_name_key, p.first_name_key, p.id, r.target_type DESC, coalesce(h.invoice_number, i.id)`);
  const titles = new Map(params.levels.map((level) => [level.level, level.title]));
  const letters = new Map<number, ReminderLetter>();
  for (const row of rows) {
    // Paid (or deleted) since it was reminded: not sent.
    if (where.status === "PENDING" && !(Number(row.currentOpen) > 0)) continue;
    let letter = letters.get(row.personId);
    if (!letter) {
      letter = {
        personId: row.personId,
        email: row.email,
        channel: row.channel ?? "PRINT",
        level: 0,
        date: row.date,
        title: "",
        person: {
          salutation: row.salutation,
          title: row.title,
          firstName: row.firstName,
          lastName: row.lastName,
          streetNumber: row.streetNumber,
          zip: row.zip,
          city: row.city,
        },
        club: null,
        items: [],
      };
      letters.set(row.personId, letter);
    }
    if (row.level > letter.level) {
      letter.level = row.level;
      letter.title = titles.get(row.level) ?? "";
    }
    letter.items.push({
      reminderId: row.reminderId,
      targetType: row.targetType,
      targetId: row.targetId,
      level: row.level,
      invoiceNumber: row.invoiceNumber,
      feeText: row.feeText,
      date: row.itemDate ?? row.date,
      dueDate: row.itemDueDate,
      openAmount: row.openAmount,
      newDueDate: row.newDueDate,
      // The fee beyond its interest: the reminder's actual costs (a reminder with interest has a fee).
      reminderFee: (row.reminderFee ?? 0) - row.interest,
      interest: interestOfLetter(row),
      // A fee's stored link while it fits its open amount (the run makes it first, see the job).
      paymentLink:
        row.targetType === "FEE"
          ? currentPaymentLink({ openAmount: Number(row.currentOpen ?? 0), paymentLinkUrl: row.paymentLinkUrl, paymentLinkAmount: row.paymentLinkAmount })
          : null,
    });
  }
  return [...letters.values()];
}

/**
 * The PENDING reminders of a person in a run whose item was paid (nothing open) or deleted since it
 * was reminded: no letter names them (reminderLetters leaves them out), so they are cancelled with
 * their fee when the person's letter is marked sent (markRemindersSent).
 */
export async function paidPendingReminders(db: Db, jobId: number, personId: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(sql`SELECT r.id AS id FROM ${reminders} r
    LEFT JOIN ${invoiceHeaders} h ON r.target_type = 'INVOICE' AND h.id = r.target_id
    LEFT JOIN ${fees} i ON r.target_type = 'FEE' AND i.id = r.target_id
    WHERE r.job_id = ${jobId} AND r.person_id = ${personId} AND r.status = 'PENDING' AND NOT (coalesce(h.open_amount, i.open_amount, 0) > 0)
    ORDER BY r.id`);
  return rows.map((row) => row.id);
}

/**
 * The reminders of a letter as sent: by mail (naming the run's mail to the person in the log) or
 * for print, with the letter's R2 key, only while still PENDING (a cancelled one stays so); and in
 * the same batch the person's reminders whose item was paid before sending (`paidIds`) cancelled
 * with their fee, as a user's 'Stornieren' does (cancelReminderStatements). Without a letter
 * (`reminderIds` empty) only the cancellations.
 */
export async function markRemindersSent(
  db: Db,
  input: { jobId: number; personId: number; reminderIds: readonly number[]; channel: ReminderChannel; pdfKey: string | null; paidIds?: readonly number[] },
  actor: Actor,
  now = new Date(),
): Promise<void> {
  const statements: Statement[] = [];
  if (input.reminderIds.length > 0) {
    const mailLogId =
      input.channel === "MAIL"
        ? sql`(SELECT m.id FROM ${mailLog} m WHERE m.kind = 'REMINDER' AND m.job_id = ${input.jobId} AND m.person_id = ${input.personId} AND m.status = 'SENT')`
        : sql`NULL`;
    const iso = now.toISOString();
    statements.push(
      render(sql`UPDATE ${reminders} SET status = 'SENT', channel = ${input.channel}, sent_on = ${iso}, sent_by = ${actor.name}, mail_log_id = ${mailLogId},
          pdf_key = ${input.pdfKey}, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
        WHERE id IN (${sql.join(
          input.reminderIds.map((id) => sql`${id}`),
          sql`, `,
        )}) AND status = 'PENDING'`),
    );
  }
  // After the sent ones: an item paid between reading the letter and now is sent, not cancelled.
  for (const id of input.paidIds ?? []) statements.push(...cancelReminderStatements(id, actor, now));
  if (statements.length > 0) await runAtomically(db, statements);
}

/** The reminders and fees of some people of a run, in one batch (idempotent, see above). */
export async function writeReminders(db: Db, jobId: number, personIds: readonly number[], params: ReminderRunParams, actor: Actor, now: Date): Promise<void> {
  // What each due item's reminder charges as interest, read before the batch (set-based SQL cannot
  // split days by half-year and payment); a half-year without a base rate charges none (the
  // preview refused to start then).
  const interest = await interestOfDue(db, params, await dueReminders(db, params, personIds));
  await runAtomically(db, reminderSliceStatements(jobId, personIds, params, interest, actor, now));
}
