/**
 * What a user typed or chose in a server-rendered dialog before the page's JavaScript ran. The
 * static dialog (it works without JavaScript) is replaced by Headless UI's once the page has
 * hydrated; without this, a field filled in that moment (a slow phone, a fast hand) came back
 * empty and the form was then refused for a field the user had filled. The field with the focus
 * and its caret go along, so typing goes on in the new field, and so do the sections the user
 * opened (the Verlauf) and how far the dialog was scrolled.
 */
export type CarriedFields = {
  fields: CarriedField[];
  focused: { name: string; value: string; selection: [number, number] | null } | null;
  /** Which of the dialog's <details> (in document order) the user opened, e.g. its 'Verlauf'. */
  openDetails: number[];
  /** How far the dialog's content was scrolled. */
  scrollTop: number;
};

/** The dialog's scrolling content (RouteDialog marks it). */
const contentOf = (container: HTMLElement) =>
  container.matches("[data-dialog-content]") ? container : container.querySelector<HTMLElement>("[data-dialog-content]");

type CarriedField =
  | { kind: "text"; name: string; value: string }
  | { kind: "choice"; name: string; value: string; checked: boolean }
  | { kind: "select"; name: string; values: string[] };

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const NOT_CARRIED = new Set(["hidden", "file", "submit", "button", "reset", "image"]);

function namedFields(container: HTMLElement): Field[] {
  const fields: Field[] = [];
  for (const element of Array.from(container.querySelectorAll<HTMLElement>("input[name], select[name], textarea[name]"))) {
    if (element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) fields.push(element);
    else if (element instanceof HTMLInputElement && !NOT_CARRIED.has(element.type)) fields.push(element);
  }
  return fields;
}

/** The options a select shows before anyone touches it (no `selected` attribute: the first). */
function defaultSelection(select: HTMLSelectElement): string[] {
  const chosen = Array.from(select.options).filter((option) => option.defaultSelected);
  if (chosen.length > 0 || select.multiple) return chosen.map((option) => option.value);
  return select.options.length > 0 ? [select.options[0].value] : [];
}

const sameValues = (a: string[], b: string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/** Every field whose value differs from what the server rendered, and the field with the focus. */
export function readChangedFields(container: HTMLElement): CarriedFields {
  const fields: CarriedField[] = [];
  for (const field of namedFields(container)) {
    if (field instanceof HTMLSelectElement) {
      const values = Array.from(field.selectedOptions).map((option) => option.value);
      if (!sameValues(values, defaultSelection(field))) fields.push({ kind: "select", name: field.name, values });
    } else if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
      if (field.checked !== field.defaultChecked) fields.push({ kind: "choice", name: field.name, value: field.value, checked: field.checked });
    } else if (field.value !== field.defaultValue) {
      fields.push({ kind: "text", name: field.name, value: field.value });
    }
  }
  const active = document.activeElement;
  const focused =
    active instanceof HTMLElement && container.contains(active) && "name" in active && typeof active.name === "string" && active.name
      ? { name: active.name, value: "value" in active && typeof active.value === "string" ? active.value : "", selection: selectionOf(active) }
      : null;
  const openDetails = Array.from(container.querySelectorAll("details")).flatMap((details, index) => (details.open ? [index] : []));
  return { fields, focused, openDetails, scrollTop: contentOf(container)?.scrollTop ?? 0 };
}

/** Where the caret (or the selection) is in a text field; null for fields without one. */
function selectionOf(element: HTMLElement): [number, number] | null {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return null;
  // Reading the selection of e.g. a check box gives null in browsers that follow the standard.
  const { selectionStart, selectionEnd } = element;
  return selectionStart === null || selectionEnd === null ? null : [selectionStart, selectionEnd];
}

/** Puts the caret where it was in the replaced field, so typing goes on at the same place. */
export function restoreSelection(field: Field, carried: CarriedFields) {
  const selection = carried.focused?.selection;
  if (!selection || field instanceof HTMLSelectElement) return;
  try {
    field.setSelectionRange(selection[0], selection[1]);
  } catch {
    // A field type without a caret (date, number in some browsers): nothing to restore.
  }
}

/**
 * Keeps the static dialog's forms from posting once React has let go of them. The field with the
 * focus is blurred as it is removed, and conform validates a blurred field by submitting its form:
 * with nobody left to handle that submit, the browser posted the old form and reloaded the page.
 */
export function silenceForms(container: HTMLElement) {
  const forms = new Set<HTMLFormElement>(container.querySelectorAll("form"));
  for (const field of namedFields(container)) if (field.form) forms.add(field.form);
  for (const form of forms) form.addEventListener("submit", (event) => event.preventDefault(), { capture: true });
}

/**
 * Sets a value the way typing does: through the element's own setter (React keeps a copy of the
 * last value and would otherwise ignore the change) and with the events forms listen to.
 */
function setValue(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, "value")?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.dispatchEvent(new Event("change", { bubbles: true }));
}

/** Puts the carried values into the hydrated dialog's fields of the same names; returns the field to focus. */
export function applyCarriedFields(container: HTMLElement, carried: CarriedFields): Field | null {
  const fields = namedFields(container);
  const byName = (name: string) => fields.filter((field) => field.name === name);
  for (const entry of carried.fields) {
    for (const field of byName(entry.name)) {
      if (entry.kind === "text" && !(field instanceof HTMLSelectElement)) {
        if (field.value !== entry.value) setValue(field, entry.value);
      } else if (entry.kind === "choice" && field instanceof HTMLInputElement && field.value === entry.value) {
        // A click is what React and the form listen to for check boxes and radio buttons.
        if (field.checked !== entry.checked) field.click();
      } else if (entry.kind === "select" && field instanceof HTMLSelectElement) {
        for (const option of Array.from(field.options)) option.selected = entry.values.includes(option.value);
        field.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
  }
  const details = Array.from(container.querySelectorAll("details"));
  for (const index of carried.openDetails) if (details[index]) details[index].open = true;
  const content = contentOf(container);
  if (content) content.scrollTop = carried.scrollTop;
  if (!carried.focused) return null;
  const { name, value } = carried.focused;
  return byName(name).find((field) => !(field instanceof HTMLInputElement && field.type === "radio") || field.value === value) ?? null;
}
