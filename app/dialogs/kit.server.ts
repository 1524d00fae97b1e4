/**
 * The dialog kit on the server. Every folder app/dialogs/<entity>/ with a dialog.server.ts is a
 * registered dialog (found by the folder, nothing else to edit): its views load what a dialog
 * named in the URL shows (?dialog=person-edit&dialogId=17), its actions answer the form posts
 * (intent 'person:save'). One generic action guards, reads the form, calls the entity's action and
 * maps the outcome: saved and deleted redirect to the page with the row selected (or not) and a
 * toast; invalid, conflict, gone and refused answer the dialog with German messages.
 */
import { data, replace, type ActionFunctionArgs, type AppLoadContext } from "@remix-run/cloudflare";
import { PARENT_TYPES, type ParentType } from "~/components/data-grid/declare";
import { childPlacement, loadGrid, urlAfterChange, type PageGrid } from "~/components/data-grid/grid.server";
import { may, mayUse, type Area, type User } from "~/lib/access";
import { cashBookRefusal } from "~/models/cash-refusal.server";
import { recordHistory } from "~/models/change-history.server";
import { parseId } from "~/lib/ids";
import { dialogSourceLabel } from "~/lib/labels";
import { setWriteSource } from "~/models/audit.server";
import { requireAccess, requireAccessToAll } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import {
  draftParam,
  GONE,
  UNKNOWN_ACTION,
  type DialogActionData,
  type DialogHistory,
  type DialogOutcome,
  type DialogParent,
  type DialogServer,
  type OpenDialog,
} from "./define.server";

const registered = import.meta.glob<{ dialog: DialogServer }>("./*/dialog.server.ts", { eager: true });
const DIALOGS = new Map(Object.entries(registered).map(([path, module]) => [path.split("/")[1], module.dialog]));

/** 'person-edit' -> person, edit. */
function splitDialogName(name: string | null): { entity: string; view: string } | null {
  const match = /^([a-zA-Z]+)-([a-zA-Z]+)$/.exec(name ?? "");
  return match ? { entity: match[1], view: match[2] } : null;
}

const DRAFT_PREFIX = draftParam("");

/** The page with the dialog open again on these draft values (the previous draft replaced). */
function draftHref(request: Request, draft: Record<string, string>) {
  const url = new URL(request.url);
  for (const name of [...url.searchParams.keys()]) if (name.startsWith(DRAFT_PREFIX) || name === "index") url.searchParams.delete(name);
  for (const [field, value] of Object.entries(draft)) if (value !== "") url.searchParams.set(draftParam(field), value);
  return `${url.pathname}${url.search}`;
}

/** 'PERSON:17': the parent a CHILD grid's add dialog was opened under. */
function parseParent(value: string | null): DialogParent | null {
  const [type, id] = (value ?? "").split(":");
  const parentId = parseId(id);
  return PARENT_TYPES.includes(type as ParentType) && parentId ? { type: type as ParentType, id: parentId } : null;
}

/** The dialog the URL names, with its data; null when none is open, unknown, not allowed or gone. */
export async function loadOpenDialog(request: Request, context: AppLoadContext, user: User): Promise<OpenDialog | null> {
  const search = new URL(request.url).searchParams;
  const name = splitDialogName(search.get("dialog"));
  const dialog = name && DIALOGS.get(name.entity);
  const view = name && dialog && Object.hasOwn(dialog.views, name.view) ? dialog.views[name.view] : null;
  if (!name || !dialog || !view || !mayUse(user, dialog.area)) return null;
  const draft = Object.fromEntries(
    [...search].filter(([param]) => param.startsWith(DRAFT_PREFIX)).map(([param, value]) => [param.slice(DRAFT_PREFIX.length), value]),
  );
  const id = parseId(search.get("dialogId"));
  const { history } = dialog;
  // The history of the edit view's record is read together with the view's own data.
  const early = history && !history.record && name.view === "edit" && id ? dialogHistory(context, user, history, id) : null;
  early?.catch(() => {});
  // The record's CHILD grids go to D1 together with the view's data too.
  const grids = id ? childGrids(request, context, user, dialog, name.view, id) : null;
  grids?.catch(() => {});
  const loaded = await view({ db: context.db, user, id, parent: parseParent(search.get("dialogParent")), search, draft, env: context.cloudflare.env });
  if (loaded === null || loaded === undefined) return null;
  const recordId = history?.record ? history.record(name.view, id, loaded) : null;
  const entries = early ? await early : history && recordId ? await dialogHistory(context, user, history, recordId) : undefined;
  const shown = (await grids) ?? [];
  return { ...name, data: loaded, ...(entries ? { history: entries } : {}), ...(shown.length > 0 ? { grids: shown } : {}) };
}

/**
 * The CHILD grids a dialog shows under its record (`children`), for the users of each grid's area.
 * Without a search (its form would close the dialog: a grid's search keeps no dialog parameters)
 * and without the column chooser (its checkboxes would repeat the form's labels: Datum, Offen).
 */
async function childGrids(request: Request, context: AppLoadContext, user: User, dialog: DialogServer, view: string, id: number) {
  const children = dialog.children;
  if (!children || !(children.views ?? ["edit"]).includes(view)) return [];
  const parent = { type: children.parentType, id, name: "" };
  const grids = children.grids.filter((grid) => grid.mounts[children.parentType] && mayUse(user, grid.area));
  const loaded = await Promise.all(grids.map((grid) => loadGrid({ request, context }, grid, childPlacement(grid, parent), user)));
  return loaded.map((grid) => ({ ...grid, search: null, columnChooser: false }));
}

/** The record's history as the user may see it: labels from the grid, hidden what they may not see. */
function dialogHistory(context: AppLoadContext, user: User, history: DialogHistory, recordId: number) {
  const labels: Record<string, string> = {};
  const hidden = new Set<string>();
  for (const column of history.grid?.columns ?? []) {
    labels[column.id] = column.header;
    // A reference is labelled as the grid's column of what it refers to (memberTypeId: Mitgliedsart).
    labels[`${column.id}Id`] ??= column.header;
    if (column.requires && !may(user, column.requires)) hidden.add(column.id).add(`${column.id}Id`);
  }
  Object.assign(labels, history.labels);
  for (const [key, permission] of Object.entries(history.requires ?? {})) if (!may(user, permission)) hidden.add(key);
  return recordHistory(context.db, { table: history.table, labels, hidden, formats: history.formats }, recordId);
}

/** The answer for the dialog; kept for the page rendered after a post without JavaScript. */
function answer(context: AppLoadContext, body: DialogActionData, status: number) {
  context.dialogResult = body;
  return data(body, { status });
}

/**
 * The action of every page: the posts of the dialogs opened on it. `areas` are the page's own
 * guards (screen, tab); `pageGrids` the grids the page shows, so a saved row can be selected.
 */
export async function dialogAction(args: ActionFunctionArgs, areas: readonly [Area, ...Area[]], pageGrids: readonly PageGrid[]) {
  const user = await requireAccessToAll(args, areas);
  const { context } = args;
  const form = await readForm(args.request);
  const [entity, actionName] = String(form.get("intent") ?? "").split(":");
  const dialog = DIALOGS.get(entity);
  const handler = dialog && actionName && Object.hasOwn(dialog.actions, actionName) ? dialog.actions[actionName] : null;
  if (!dialog || !handler) return answer(context, { error: UNKNOWN_ACTION }, 400);
  await requireAccess(args, dialog.area);
  // The Änderungsverlauf names the dialog as how the change was made.
  setWriteSource(context.db, dialogSourceLabel(entity));

  // A cash booking the Kassenbuch refused (balance below zero, back-dated): its German message,
  // whichever dialog booked it (app/models/cash-refusal.server.ts).
  const outcome: DialogOutcome = await handler({ db: context.db, user, form, env: context.cloudflare.env }).catch(async (error: unknown) => {
    const message = await cashBookRefusal(context.db, error);
    if (message === null) throw error;
    return { status: "refused", message };
  });
  const { env } = context.cloudflare;
  switch (outcome.status) {
    case "invalid":
      return answer(context, { result: outcome.result }, 400);
    case "conflict":
      return answer(context, { result: outcome.result, conflict: outcome.message, current: outcome.current }, 409);
    case "missing":
      return answer(context, { error: GONE }, 404);
    case "refused":
      return answer(context, { error: outcome.message }, 409);
    case "saved":
    case "deleted": {
      const to = await urlAfterChange(args, pageGrids, user, {
        entity: dialog.recordEntity ?? entity,
        id: outcome.id,
        deleted: outcome.status === "deleted",
        saved: outcome.status === "saved" ? outcome.saved : undefined,
      });
      const undo = outcome.status === "deleted" ? outcome.undo : undefined;
      const type = outcome.status === "saved" && outcome.warning ? "warning" : "success";
      return redirectWithToast(env, to, { type, message: outcome.message, ...(undo ? { undo } : {}) }, undefined, { replaceEntry: true });
    }
    case "draft":
      return replace(draftHref(args.request, outcome.draft));
    case "done": {
      const to = await urlAfterChange(args, [], user, { entity, id: 0, deleted: false });
      return redirectWithToast(env, to, { type: "success", message: outcome.message }, undefined, { replaceEntry: true });
    }
  }
}
