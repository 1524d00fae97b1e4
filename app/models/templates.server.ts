/**
 * All queries and writes of the templates (Vorlagen): the invoice PDF's HTML ('invoice', kind
 * INVOICE) and the mails' HTML and plain text (kind MAIL), kept by ADMIN. Names are unique.
 */
import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { templates, type TemplateKind } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { INVOICE_TEMPLATE_NAME } from "~/lib/invoice-document";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import { pageOfPosition, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin } from "./recycle-bin.server";

export type TemplateRecord = typeof templates.$inferSelect;
export type TemplateRow = Pick<TemplateRecord, "id" | "name" | "kind" | "subject" | "comments" | "lastModifiedOn">;
export type TemplateInput = { name: string; kind: TemplateKind; subject: string | null; html: string; text: string | null; comments: string | null };

export const TEMPLATE_DEFAULT_SORT: SortSpec = { id: "name", descending: false };

const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${templates.id}`),
  name: sortKey(sql`${templates.name} COLLATE NOCASE`),
  kind: sortKey(sql`${templates.kind}`),
  subject: sortKey(sql`${templates.subject} COLLATE NOCASE`),
  comments: sortKey(sql`${templates.comments} COLLATE NOCASE`),
  lastModifiedOn: sortKey(sql`coalesce(${templates.lastModifiedOn}, ${templates.createdOn})`),
};

const orderBy = (sort: SortSpec): SQL[] => [(SORTS[sort.id] ?? SORTS.name)(sort.descending), asc(templates.id)];

const rowColumns = {
  id: templates.id,
  name: templates.name,
  kind: templates.kind,
  subject: templates.subject,
  comments: templates.comments,
  lastModifiedOn: sql<string>`coalesce(${templates.lastModifiedOn}, ${templates.createdOn})`.as("changed_on"),
};

/** One page of templates (without their bodies) and the number of all, in one round trip. */
export async function listTemplates(db: Db, { sort, page, pageSize = PAGE_SIZE }: { sort: SortSpec; page: number; pageSize?: number }) {
  const [rows, [{ total }]] = await db.batch([
    db
      .select(rowColumns)
      .from(templates)
      .orderBy(...orderBy(sort))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(templates),
  ]);
  return { rows: rows as TemplateRow[], total };
}

export async function pageOfTemplate(db: Db, id: number, sort: SortSpec, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: templates.id, position: positionInOrder(orderBy(sort)) })
    .from(templates)
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export async function getTemplate(db: Db, id: number): Promise<TemplateRecord | undefined> {
  const [row] = await db.select().from(templates).where(eq(templates.id, id));
  return row;
}

/** Whether the invoice template uses `section` ('{{#taxLines}}'): a club's own template from before a
 *  feature cannot show it. Without a template there is nothing to show wrongly (no PDF is made). */
export async function invoiceTemplateHas(db: Db, section: string): Promise<boolean> {
  const [row] = await db.select({ html: templates.html }).from(templates).where(eq(templates.name, INVOICE_TEMPLATE_NAME));
  return row === undefined || row.html.includes(section);
}

export async function getTemplateByName(db: Db, name: string): Promise<TemplateRecord | undefined> {
  const [row] = await db.select().from(templates).where(eq(templates.name, name));
  return row;
}

/** Is the name taken by another template (without case: 'Invoice' next to 'invoice' would confuse)? */
export async function templateNameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  const [row] = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(sql`lower(${templates.name}) = lower(${name})`, exceptId ? sql`${templates.id} <> ${exceptId}` : undefined))
    .limit(1);
  return row !== undefined;
}

export async function insertTemplate(db: Db, input: TemplateInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(templates)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: templates.id });
  return row.id;
}

export async function updateTemplate(db: Db, id: number, rowVersion: number, input: TemplateInput, actor: Actor): Promise<UpdateOutcome<TemplateRecord>> {
  return updateVersioned(db, templates, { id, rowVersion }, input, actor, () => getTemplate(db, id));
}

/** Deletes a template into the Papierkorb (it can be restored from there). */
export async function deleteTemplate(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  if (!(await getTemplate(db, id))) return { status: "missing" };
  const transactionId = await moveToBin(db, {
    main: { table: templates, where: eq(templates.id, id), identifiers: [sql`${templates.name}`, sql`${templates.kind}`] },
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}
