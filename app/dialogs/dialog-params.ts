/** The URL parameters of the person and dog dialogs (shared by server and browser). */
export const DIALOG_KINDS = ["person-add", "person-edit", "person-delete", "dog-add", "dog-edit", "dog-delete"] as const;
export type DialogKind = (typeof DIALOG_KINDS)[number];

/** Parameters that only exist while a dialog is open; closing a dialog removes them. */
export const DIALOG_PARAMS = ["dialog", "dialogId", "ownerId", "ownerSearch"] as const;

/** The URL (path + search) with a dialog opened, keeping everything else. */
export function dialogHref(pathname: string, search: string | URLSearchParams, kind: DialogKind | "restore", params: Record<string, string | number> = {}): string {
  const next = new URLSearchParams(search);
  for (const name of DIALOG_PARAMS) next.delete(name);
  next.set("dialog", kind);
  for (const [name, value] of Object.entries(params)) next.set(name, String(value));
  return `${pathname}?${next}`;
}

/** The same URL without any dialog. */
export function closedHref(pathname: string, search: string | URLSearchParams): string {
  const next = new URLSearchParams(search);
  for (const name of DIALOG_PARAMS) next.delete(name);
  const text = next.toString();
  return text ? `${pathname}?${text}` : pathname;
}
