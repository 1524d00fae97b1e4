/**
 * What a registered dialog declares (app/dialogs/<entity>/dialog.server.ts exports
 * `dialog = defineDialog({...})`), and the helpers its actions share. The kit that finds and runs
 * the dialogs is kit.server.ts.
 */
import type { SubmissionResult } from "@conform-to/react";
import type { AnyGridDecl, ParentType, SavedRecord } from "~/components/data-grid/declare";
import type { GridData } from "~/lib/grid";
import type { Db } from "~/db/client.server";
import type { Area, Permission, User } from "~/lib/access";
import type { HistoryEntry } from "~/models/change-history.server";
import { auditText, formatCount, formatDateTimeWithSeconds, joinGerman } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { isForeignKeyViolation } from "~/models/constraints.server";

export { auditText };

export type DialogParent = { type: ParentType; id: number };

export type DialogViewContext = {
  db: Db;
  user: User;
  id: number | null;
  parent: DialogParent | null;
  search: URLSearchParams;
  /** The values a 'draft' outcome carried back (dialogDraft.<field> in the URL). */
  draft: Record<string, string>;
  /** The Worker's bindings and vars (e.g. where a mail would go, APP_ENV). */
  env: Env;
};

/** URL parameter of a draft value: it closes with the dialog. */
export const draftParam = (field: string) => `dialogDraft.${field}`;

/** `env`: the Worker's bindings, for dialogs that start work elsewhere (a bulk run on the queue). */
export type DialogActionContext = { db: Db; user: User; form: FormData; env: Env };

/** A confirmation the kit shows itself (delete, restore): title, 'Bist du sicher?', one button. */
export type ConfirmData = {
  confirm: {
    title: string;
    message: string;
    details?: string[];
    intent: string;
    id: number;
    confirmLabel: string;
    /** Why it cannot be done (e.g. an issued invoice is never deleted): shown, the button disabled. */
    refusal?: string;
  };
};

export type DialogOutcome =
  | { status: "invalid"; result: SubmissionResult<string[]> }
  | { status: "saved"; id: number; message: string; saved?: SavedRecord; /** A warning instead of a success toast. */ warning?: boolean }
  /** The dialog opens again with these values (choices that depend on others, without JavaScript too). */
  | { status: "draft"; draft: Record<string, string> }
  | { status: "deleted"; id: number; message: string; /** The bin transaction 'Rückgängig' restores. */ undo?: number }
  | { status: "done"; message: string }
  | { status: "conflict"; result: SubmissionResult<string[]>; message: string; current: unknown }
  | { status: "missing" }
  | { status: "refused"; message: string };

/** A refusal of the model as the form shows it: beside its field, or above the form. */
export const refusedOn = (reply: (options?: object) => SubmissionResult<string[]>, field: string | undefined, message: string): DialogOutcome => ({
  status: "invalid",
  result: field ? reply({ fieldErrors: { [field]: [message] } }) : reply({ formErrors: [message] }),
});

/**
 * The Änderungsverlauf the dialog shows below its form (the kit's 'Verlauf' section): the
 * record's table, and where its German field labels come from.
 */
export type DialogHistory = {
  /** The SQL table of the record ('people'). */
  table: string;
  /** The grid whose column headers label the fields; a column it shows only with a permission
   *  (`requires`) is left out of the history for the others too. */
  grid?: { columns: readonly { id: string; header: string; requires?: Permission }[] };
  /** Labels of fields the grid does not name (by TypeScript key). */
  labels?: Record<string, string>;
  /** Fields only users with the permission see (neither value nor change). */
  requires?: Record<string, Permission>;
  /** Fields shown as the dialog shows them (e.g. an IBAN grouped). */
  formats?: Record<string, (value: unknown) => string>;
  /** The record whose history the open view shows; by default the dialogId of the 'edit' view. */
  record?: (view: string, id: number | null, data: unknown) => number | null;
};

export type DialogServer = {
  /** Who may open the dialog and post its forms (besides the page's own area). */
  area: Area;
  /** The record's Änderungsverlauf in the dialog (every edit dialog declares it). */
  history?: DialogHistory;
  /** The record as the parent of CHILD grids shown below the dialog's form (a fee's reminders):
   *  each grid declares the mount (`mounts: { FEE: ... }`); shown to the users of its area, with
   *  its paging, sort, Excel export and row actions, in the views named (default: edit). */
  children?: { parentType: ParentType; grids: readonly AnyGridDecl[]; views?: readonly string[] };
  /** The entity whose records the dialog's saves and deletes are (default: its own folder's
   *  name), so the page's grid of that entity follows them (e.g. 'erasure' deletes a 'person'). */
  recordEntity?: string;
  /** What each view ('add', 'edit', 'delete', ...) shows; null when its record is gone. */
  views: Record<string, (context: DialogViewContext) => Promise<unknown>>;
  /** The form posts, by the part after the colon of the intent ('save' of 'person:save'). */
  actions: Record<string, (context: DialogActionContext) => Promise<DialogOutcome>>;
};

export const defineDialog = (dialog: DialogServer) => dialog;

/** What the dialog component gets back when the action does not redirect. */
export type DialogActionData = { result?: SubmissionResult<string[]>; conflict?: string; current?: unknown; error?: string };

export type OpenDialog = {
  entity: string;
  view: string;
  data: unknown;
  /** The record's Änderungsverlauf, newest first. */
  history?: HistoryEntry[];
  /** The CHILD grids under the record (`children`). */
  grids?: GridData[];
};

export const GONE = "Der Datensatz existiert nicht mehr (inzwischen gelöscht?).";
/** A save that names a record the database does not have (any more): nothing was written. */
export const REFERENCE_GONE = "Ein ausgewählter Eintrag existiert nicht (mehr). Bitte prüfe die Auswahl und speichere erneut.";
/** A delete of a record that others still refer to: nothing was deleted. */
export const STILL_IN_USE = "Der Datensatz wird noch verwendet und kann nicht gelöscht werden.";

/** The write, or null when the database refused it on a foreign key (every later reference too). */
async function unlessForeignKeyFails<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) return null;
    throw error;
  }
}
export const UNKNOWN_ACTION = "Unbekannte Aktion";

/** The German message of a refused stale save: who changed the record, and when. */
export function conflictMessage(current: { lastModifiedBy: string | null; lastModifiedOn: string | null }) {
  const who = current.lastModifiedBy ?? "jemand anderem";
  const when = current.lastModifiedOn ? ` am ${formatDateTimeWithSeconds(current.lastModifiedOn)}` : "";
  return `Der Datensatz wurde inzwischen von ${who}${when} geändert. Die aktuellen Werte werden angezeigt: Bitte prüfe sie und speichere erneut.`;
}

/** What the Papierkorb promises in every delete confirmation. */
export const BIN_KEEPS = "Der Papierkorb bewahrt alles auf: Mit „Rückgängig“ gleich danach oder im Papierkorb kommt alles wieder zurück.";

/**
 * The lines a delete confirmation adds below 'Bist du sicher?': what is deleted with the record
 * (only what there is, e.g. "Mit ihr werden auch gelöscht: 2 Hunde und 3 Kursteilnahmen.") and
 * that the Papierkorb keeps it all.
 */
export function deletionDetails(pronoun: "ihr" | "ihm", goesWith: [count: number, singular: string, plural: string][]): string[] {
  const parts = goesWith.filter(([count]) => count > 0).map(([count, singular, plural]) => formatCount(count, singular, plural));
  return [...(parts.length > 0 ? [`Mit ${pronoun} werden auch gelöscht: ${joinGerman(parts)}.`] : []), BIN_KEEPS];
}

/** The posted id of a delete (or other confirmation), or null. */
export const postedId = (form: FormData) => parseId(form.get("id"));

/** A confirmed delete through a model's delete: the kit's outcome. */
export async function deleteOutcome(
  id: number | null,
  remove: (id: number) => Promise<{ status: "deleted"; transactionId?: number } | { status: "refused"; message: string } | { status: "missing" }>,
  message: string,
): Promise<DialogOutcome> {
  if (!id) return { status: "missing" };
  const outcome = await unlessForeignKeyFails(() => remove(id));
  if (!outcome) return { status: "refused", message: STILL_IN_USE };
  return outcome.status === "deleted" ? { status: "deleted", id, message, undo: outcome.transactionId } : outcome;
}

type Versioned = { id: number | null; rowVersion?: number | null };
type VersionedUpdate<Current> =
  | { status: "updated" }
  | { status: "conflict"; current: Current }
  | { status: "missing" }
  /** The model refused the change (e.g. an issued invoice's date): the message at the field, or for the form. */
  | { status: "refused"; message: string; field?: string };

/**
 * The save of an add/edit form whose record carries a rowVersion: validate with the dialog's
 * schema, insert or update quoting the version, and report the outcome the kit maps. A stale
 * form gets the current record (as `present` shapes it for the form) and who changed it.
 */
export async function saveVersioned<Value extends Versioned, Current extends { lastModifiedBy: string | null; lastModifiedOn: string | null }>(
  submission:
    | { status: "success"; value: Value; reply: (options?: object) => SubmissionResult<string[]> }
    | { status: "error" | undefined; reply: (options?: object) => SubmissionResult<string[]> },
  steps: {
    /** Checks the database must make (e.g. the owner exists): field errors, or null. */
    check?: (value: Value) => Promise<Record<string, string[]> | null>;
    insert: (value: Value) => Promise<number>;
    update: (id: number, rowVersion: number, value: Value) => Promise<VersionedUpdate<Current>>;
    present: (current: Current) => unknown;
    /** What toggles of the grid may follow (e.g. { archived: true }). */
    saved?: (value: Value) => SavedRecord;
    messages: { created: string; saved: string };
  },
): Promise<DialogOutcome> {
  if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
  const { value } = submission;
  const fieldErrors = await steps.check?.(value);
  if (fieldErrors) return { status: "invalid", result: submission.reply({ fieldErrors }) };
  const saved = steps.saved?.(value);
  const refused: DialogOutcome = { status: "invalid", result: submission.reply({ formErrors: [REFERENCE_GONE] }) };
  if (!value.id) {
    const id = await unlessForeignKeyFails(() => steps.insert(value));
    return id === null ? refused : { status: "saved", id, message: steps.messages.created, saved };
  }
  if (!value.rowVersion) return { status: "invalid", result: submission.reply({ formErrors: ["Version fehlt"] }) };
  const { id, rowVersion } = value;
  const outcome = await unlessForeignKeyFails(() => steps.update(id, rowVersion, value));
  if (!outcome) return refused;
  if (outcome.status === "missing") return { status: "missing" };
  if (outcome.status === "refused") {
    return refusedOn(submission.reply, outcome.field, outcome.message);
  }
  if (outcome.status === "conflict") {
    // The form starts over from the current record; the message is shown beside it.
    return {
      status: "conflict",
      result: submission.reply({ resetForm: true }),
      message: conflictMessage(outcome.current),
      current: steps.present(outcome.current),
    };
  }
  return { status: "saved", id: value.id, message: steps.messages.saved, saved };
}
