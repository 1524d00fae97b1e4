/**
 * Where the dialogs' code is: each registered dialog's component (app/dialogs/<entity>/dialog.tsx,
 * found by its folder) and the kit's confirmation. Loaded with the first dialog that opens, not
 * with every page (app/dialogs/host.tsx): the list names every dialog's file and the files each
 * one needs (so they load in parallel), about 1 KB of gzip no page needs before a dialog opens.
 */
import type { ComponentType } from "react";
import type { DialogProps } from "~/components/dialog-form";

type DialogComponent = ComponentType<DialogProps<unknown>>;

const registered = import.meta.glob<{ default: DialogComponent }>("./*/dialog.tsx");
const path = (entity: string) => `./${entity}/dialog.tsx`;

/** Whether the entity has a dialog of its own (else it has only the kit's confirmations). */
export const hasDialog = (entity: string) => Object.hasOwn(registered, path(entity));

/** The entity's dialog component; an entity without one renders nothing. */
export async function loadDialog(entity: string): Promise<DialogComponent> {
  return hasDialog(entity) ? (await registered[path(entity)]()).default : () => null;
}

/** The kit's confirmation (delete, restore). */
export const loadConfirm = () => import("~/components/dialog").then((module) => module.ConfirmDialog);
