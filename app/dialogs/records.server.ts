/**
 * The person and dog dialogs of the People and Dogs screens, on the server: what a dialog named
 * in the URL (?dialog=person-edit&dialogId=12) needs, and what its form posts do.
 *
 * Dialogs live in the URL so they open without JavaScript; their forms post to the page they are
 * on, whose action hands them here. After a change the browser is sent back to the grid with the
 * changed record selected (each screen says where that is).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { dogSchema } from "~/components/forms/dog-schema";
import { personSchema } from "~/components/forms/person-schema";
import type { Area, User } from "~/lib/access";
import { formatDateTimeWithSeconds } from "~/lib/format";
import { parseChoice } from "~/lib/grid";
import { parseId } from "~/lib/ids";
import { deleteDog, getDog, insertDog, searchOwners, updateDog, type DogInput, type DogRecord } from "~/models/dogs.server";
import {
  deletePerson,
  getPerson,
  insertPerson,
  personFormOptions,
  personName,
  updatePerson,
  visiblePerson,
  type PersonInput,
  type PersonRecord,
} from "~/models/people.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

import { DIALOG_KINDS, DIALOG_PARAMS, type DialogKind } from "./dialog-params";

/** Membership dates and GDPR consent are for ADMIN and GDPR only (spec 000 §6). */
export const maySeeProtectedPersonData = (user: User) => user.roles.includes("ADMIN") || user.roles.includes("GDPR");

export type PersonDialogData = {
  kind: "person-add" | "person-edit" | "person-delete";
  person: PersonRecord | null;
  options: Awaited<ReturnType<typeof personFormOptions>>;
  withProtected: boolean;
};
export type OwnerOption = { id: number; fullName: string | null };
export type DogDialogData = {
  kind: "dog-add" | "dog-edit" | "dog-delete";
  dog: DogRecord | null;
  owner: OwnerOption | null;
  owners: OwnerOption[];
  ownerSearch: string;
};
export type RecordDialogData = PersonDialogData | DogDialogData | null;


/** The data of the dialog named in the URL, or null when none is open (or its record is gone). */
export async function loadRecordDialog({ request, context }: LoaderFunctionArgs, user: User): Promise<RecordDialogData> {
  const search = new URL(request.url).searchParams;
  const kind = parseChoice<DialogKind | "none">(search, "dialog", DIALOG_KINDS, "none");
  if (kind === "none") return null;
  const db = context.db;
  const withProtected = maySeeProtectedPersonData(user);
  const id = parseId(search.get("dialogId"));

  if (kind === "person-add") return { kind, person: null, options: await personFormOptions(db), withProtected };
  if (kind === "person-edit" || kind === "person-delete") {
    const person = id ? await getPerson(db, id, withProtected) : undefined;
    return person ? { kind, person, options: await personFormOptions(db), withProtected } : null;
  }
  const ownerSearch = (search.get("ownerSearch") ?? "").slice(0, 100);
  const owners = ownerSearch.trim() ? await searchOwners(db, ownerSearch) : [];
  if (kind === "dog-add") {
    const ownerId = Number(search.get("ownerId"));
    const owner = Number.isInteger(ownerId) && ownerId > 0 ? await personName(db, ownerId) : undefined;
    return { kind, dog: null, owner: owner ?? null, owners, ownerSearch };
  }
  const dog = id ? await getDog(db, id) : undefined;
  return dog ? { kind, dog, owner: { id: dog.ownerId, fullName: dog.ownerFullName }, owners, ownerSearch } : null;
}

/** Where a screen shows the grid again after a dialog changed something. */
export type ScreenReturns = {
  area: Area;
  afterPersonSaved: (personId: number, user: User) => Promise<string> | string;
  afterPersonDeleted: () => string;
  afterDogSaved: (dog: { id: number; ownerId: number; archived: boolean }) => string;
  afterDogDeleted: () => string;
};

/** The page the request came from, without the dialog's parameters. */
export function closedDialogUrl(request: Request, changes: Record<string, string | number | null> = {}): string {
  const url = new URL(request.url);
  for (const name of DIALOG_PARAMS) url.searchParams.delete(name);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, String(value));
  }
  return url.pathname + url.search;
}

function conflictMessage(current: { lastModifiedBy: string | null; lastModifiedOn: string | null }) {
  const who = current.lastModifiedBy ?? "jemand anderes";
  const when = current.lastModifiedOn ? ` am ${formatDateTimeWithSeconds(current.lastModifiedOn)}` : "";
  return `Der Datensatz wurde inzwischen von ${who}${when} geändert. Die aktuellen Werte werden angezeigt: Bitte prüfe sie und speichere erneut.`;
}

const GONE = "Der Datensatz existiert nicht mehr (inzwischen gelöscht?).";

/** The action of every pane of the People and Dogs screens: the dialogs' form posts. */
export async function recordDialogAction(args: ActionFunctionArgs, screen: ScreenReturns) {
  const user = await requireAccess(args, screen.area);
  const { env } = args.context.cloudflare;
  const db = args.context.db;
  const form = await readForm(args.request);
  const intent = form.get("intent");

  if (intent === "person-save") {
    const submission = parseWithZod(form, { schema: personSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const { id, rowVersion, memberSince, memberUntil, hasGdpr, ...fields } = submission.value;
    // Protected fields are written only by those who may see them; others leave them untouched.
    const input: PersonInput = maySeeProtectedPersonData(user) ? { ...fields, memberSince, memberUntil, hasGdpr } : fields;
    if (!id) {
      const newId = await insertPerson(db, input, user);
      return redirectWithToast(env, await screen.afterPersonSaved(newId, user), { type: "success", message: "Person wurde angelegt" });
    }
    if (!rowVersion) return data({ result: submission.reply({ formErrors: ["Version fehlt"] }) }, { status: 400 });
    const outcome = await updatePerson(db, id, rowVersion, input, user);
    if (outcome.status === "missing") return data({ result: submission.reply({ formErrors: [GONE] }) }, { status: 404 });
    if (outcome.status === "conflict") {
      const current = visiblePerson(outcome.current, maySeeProtectedPersonData(user));
      // The form starts over from the current record; the message is sent beside it.
      return data({ result: submission.reply({ resetForm: true }), conflict: conflictMessage(current), currentPerson: current }, { status: 409 });
    }
    return redirectWithToast(env, await screen.afterPersonSaved(id, user), { type: "success", message: "Person wurde gespeichert" });
  }

  if (intent === "dog-save") {
    const submission = parseWithZod(form, { schema: dogSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const { id, rowVersion, ...input } = submission.value;
    if (!(await personName(db, input.ownerId))) {
      return data({ result: submission.reply({ fieldErrors: { ownerId: ["Diese Person gibt es nicht (mehr)"] } }) }, { status: 400 });
    }
    const dogInput: DogInput = input;
    if (!id) {
      const newId = await insertDog(db, dogInput, user);
      return redirectWithToast(env, screen.afterDogSaved({ id: newId, ownerId: input.ownerId, archived: input.archived }), {
        type: "success",
        message: "Hund wurde angelegt",
      });
    }
    if (!rowVersion) return data({ result: submission.reply({ formErrors: ["Version fehlt"] }) }, { status: 400 });
    const outcome = await updateDog(db, id, rowVersion, dogInput, user);
    if (outcome.status === "missing") return data({ result: submission.reply({ formErrors: [GONE] }) }, { status: 404 });
    if (outcome.status === "conflict") {
      return data({ result: submission.reply({ resetForm: true }), conflict: conflictMessage(outcome.current), currentDog: outcome.current }, { status: 409 });
    }
    return redirectWithToast(env, screen.afterDogSaved({ id, ownerId: input.ownerId, archived: input.archived }), {
      type: "success",
      message: "Hund wurde gespeichert",
    });
  }

  if (intent === "person-delete" || intent === "dog-delete") {
    const id = parseId(form.get("id"));
    if (!id) return data({ deleteError: GONE }, { status: 400 });
    const outcome = intent === "person-delete" ? await deletePerson(db, id, user) : await deleteDog(db, id, user);
    if (outcome.status === "missing") return data({ deleteError: GONE }, { status: 404 });
    if (outcome.status === "refused") return data({ deleteError: outcome.message }, { status: 409 });
    return intent === "person-delete"
      ? redirectWithToast(env, screen.afterPersonDeleted(), { type: "success", message: "Person wurde gelöscht" })
      : redirectWithToast(env, screen.afterDogDeleted(), { type: "success", message: "Hund wurde gelöscht" });
  }

  return data({ deleteError: "Unbekannte Aktion" }, { status: 400 });
}

