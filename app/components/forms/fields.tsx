import { getCollectionProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Form, useLocation, useSubmit } from "@remix-run/react";
import { useContext, useEffect, useRef, type FormEvent, type ReactNode } from "react";
import { mailtoHref, telHref } from "~/lib/format";
import { SPHERE_OPTIONS } from "~/lib/ledger";
import { DialogFormContext } from "../dialog-form";

const inputClass =
  "block w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-wuff-500 focus:outline-none focus:ring-1 focus:ring-wuff-500 aria-[invalid=true]:border-red-500";

type FieldProps = { meta: FieldMetadata<unknown>; label: string; className?: string };

function FieldFrame({ meta, label, className, children }: FieldProps & { children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {meta.errors && (
        <p id={meta.errorId} className="mt-1 text-sm text-red-600">
          {meta.errors.join(" ")}
        </p>
      )}
    </div>
  );
}

type TextFieldProps = FieldProps & {
  type?: "text" | "email" | "tel";
  suffix?: string;
  placeholder?: string;
  /** The keypad a phone shows: numbers, or numbers with the decimal comma. */
  inputMode?: "numeric" | "decimal";
};

/** A phone number or e-mail address typed in leads to the phone or mail app, next to the field. */
function ContactLink({ type, value, label }: { type: TextFieldProps["type"]; value: unknown; label: string }) {
  const text = typeof value === "string" ? value : "";
  const href = type === "tel" ? telHref(text) : type === "email" ? mailtoHref(text) : null;
  if (!href) return null;
  // The name starts with the visible word and says whom: "Anrufen (Mobil 0170 123456)".
  return (
    <a href={href} className="shrink-0 rounded border border-slate-300 px-2 py-1.5 text-sm text-wuff-700 hover:bg-slate-50">
      {type === "tel" ? "Anrufen" : "Schreiben"}
      <span className="sr-only">
        {" "}
        ({label} {text.trim()})
      </span>
    </a>
  );
}

export function TextField({ meta, label, className, type = "text", suffix, placeholder, inputMode }: TextFieldProps) {
  return (
    <FieldFrame meta={meta} label={label} className={className}>
      <div className="flex items-center gap-1">
        <input {...getInputProps(meta, { type })} key={meta.key} className={inputClass} placeholder={placeholder} inputMode={inputMode} autoComplete="off" />
        {suffix && <span className="text-sm text-slate-600">{suffix}</span>}
        <ContactLink type={type} value={meta.value} label={label} />
      </div>
    </FieldFrame>
  );
}

/** A whole number (typed as text, checked by the schema): phones show the number keypad. */
export function NumberField(props: FieldProps) {
  return <TextField {...props} inputMode="numeric" />;
}

/** An amount typed the German way (1.234,56 €): the keypad with the decimal comma. */
export function MoneyField(props: FieldProps) {
  return <TextField {...props} suffix="€" inputMode="decimal" />;
}

/** dd.MM.yyyy as text: typed the German way, checked by the same rules in browser and server. */
export function DateField(props: FieldProps) {
  return <TextField {...props} placeholder="TT.MM.JJJJ" />;
}

export function SelectField({
  meta,
  label,
  className,
  options,
  placeholder,
  disabled,
}: FieldProps & { options: { value: string | number; label: string }[]; placeholder?: string; disabled?: boolean }) {
  return (
    <FieldFrame meta={meta} label={label} className={className}>
      <select {...getSelectProps(meta)} key={meta.key} className={`${inputClass} disabled:bg-slate-100`} disabled={disabled}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export function CheckboxField({ meta, label, className }: FieldProps) {
  return (
    <div className={className}>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input {...getInputProps(meta, { type: "checkbox" })} key={meta.key} className="accent-wuff-700" />
        {label}
      </label>
      {meta.errors && <p className="mt-1 text-sm text-red-600">{meta.errors.join(" ")}</p>}
    </div>
  );
}

/** Several of a list ticked (an array field): a fieldset of checkboxes, the error below. */
export function CheckboxGroupField({ meta, label, className, options }: FieldProps & { options: { value: string | number; label: string }[] }) {
  const boxes = getCollectionProps(meta, { type: "checkbox", options: options.map((option) => String(option.value)) });
  return (
    <fieldset className={className} aria-describedby={meta.errors ? meta.errorId : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-700">{label}</legend>
      <div className="grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
        {boxes.map((box, index) => (
          <label key={box.key} className="flex items-center gap-2 text-sm text-slate-700">
            <input {...box} className="accent-wuff-700" />
            {options[index].label}
          </label>
        ))}
      </div>
      {meta.errors && (
        <p id={meta.errorId} className="mt-1 text-sm text-red-600">
          {meta.errors.join(" ")}
        </p>
      )}
    </fieldset>
  );
}

export function TextAreaField({
  meta,
  label,
  className,
  rows = 3,
  code = false,
}: FieldProps & { rows?: number; /** Source text (HTML, a template): monospace, no spell check. */ code?: boolean }) {
  return (
    <FieldFrame meta={meta} label={label} className={className}>
      <textarea
        {...getTextareaProps(meta)}
        key={meta.key}
        rows={rows}
        className={code ? `${inputClass} font-mono text-xs` : inputClass}
        spellCheck={code ? false : undefined}
      />
    </FieldFrame>
  );
}

/** Errors of the whole form, shown above the buttons; `conflict` is the message of a refused
 *  stale save, which comes beside the form's own errors (the form itself starts over). */
export function FormErrors({ errors, conflict, id }: { errors?: string[]; conflict?: string; id?: string }) {
  const all = [...(conflict ? [conflict] : []), ...(errors ?? [])];
  if (all.length === 0) return null;
  return (
    <div id={id} role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800">
      {all.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

/** Who created and last changed the record, and when (formatted on the server: auditText). */
export type AuditInfo = { created: string; modified: string };

/** The audit block of the edit dialogs. */
export function AuditBlock({ audit }: { audit: AuditInfo }) {
  return (
    <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded bg-slate-50 p-3 text-xs text-slate-600">
      <dt>Angelegt von</dt>
      <dd>{audit.created}</dd>
      <dt>Geändert von</dt>
      <dd>{audit.modified}</dd>
    </dl>
  );
}

/**
 * The search of a lookup field (a select whose choices a search finds, e.g. the owner among
 * thousands of people): a GET form of its own beside the dialog's form, so it works without
 * JavaScript; its parameter closes with the dialog (lookupOptions on the server).
 */
export function LookupSearch({ field, label, term }: { field: string; label: string; term: string }) {
  const location = useLocation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const typing = useRef<ReturnType<typeof setTimeout>>();
  // A search is a navigation: sent while the dialog's draft (or save) is on its way, it would win
  // over the page the draft's answer leads to, and the choice just made (e.g. the person, whose
  // dog the draft brings) would be lost. It waits for that answer and then goes from the page the
  // answer opened (the form's hidden fields keep the draft's values).
  const dialog = useContext(DialogFormContext);
  const busy = dialog !== null && dialog.fetcher.state !== "idle";
  const waiting = useRef({ busy, held: false });
  const search = () => {
    if (waiting.current.busy) waiting.current.held = true;
    else submit(form.current, { replace: true, preventScrollReset: true });
  };
  useEffect(() => {
    waiting.current.busy = busy;
    if (busy || !waiting.current.held) return;
    waiting.current.held = false;
    submit(form.current, { replace: true, preventScrollReset: true });
  }, [busy, submit]);
  // With JavaScript the choices follow the typing (autocomplete); without, Suchen sends the search.
  const onChange = () => {
    clearTimeout(typing.current);
    typing.current = setTimeout(search, 350);
  };
  // Suchen (or Enter) sends the search at once: the autocomplete still waiting for the typing to
  // pause has nothing left to do (sent later, it would be a second navigation, e.g. across a draft).
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    clearTimeout(typing.current);
    if (!waiting.current.busy) return;
    event.preventDefault();
    waiting.current.held = true;
  };
  useEffect(() => () => clearTimeout(typing.current), []);
  const name = `dialogSearch.${field}`;
  const keep = [...new URLSearchParams(location.search)].filter(([param]) => param !== name && param !== "index");
  const id = `lookup-${field}`;
  return (
    <Form
      ref={form}
      method="get"
      action={location.pathname}
      preventScrollReset
      replace
      onSubmit={onSubmit}
      className="mb-3 flex items-end gap-2"
      role="search"
      aria-label={label}
    >
      {keep.map(([param, value]) => (
        <input key={param} type="hidden" name={param} value={value} />
      ))}
      <div className="flex-1">
        <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
          {label}
        </label>
        <input
          id={id}
          name={name}
          defaultValue={term}
          placeholder="Name"
          maxLength={20}
          onChange={onChange}
          autoComplete="off"
          className="block w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
        />
      </div>
      <button type="submit" className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">
        Suchen
      </button>
    </Form>
  );
}

/** The select of a lookup field: the current choice and what the search found; until then it
 *  says what to search for (`emptyHint`). */
export function LookupSelect({
  meta,
  label,
  options,
  emptyHint,
  className = "col-span-2",
  disabled,
}: FieldProps & { options: { id: number; label: string }[]; emptyHint: string; disabled?: boolean }) {
  return (
    <SelectField
      meta={meta}
      label={label}
      className={className}
      disabled={disabled}
      options={options.map((option) => ({ value: option.id, label: option.label }))}
      placeholder={options.length ? "Bitte wählen" : emptyHint}
    />
  );
}

/** A choice that is fixed here (the parent a dialog was opened under): shown, not changeable. */
export function LockedField({
  name,
  label,
  id,
  text,
  className = "col-span-2",
}: {
  name: string;
  label: string;
  id: number | null;
  text: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <span className="mb-1 block text-sm font-medium text-slate-700">{label}</span>
      <p className="rounded border border-slate-200 bg-slate-50 px-2 py-1.5 text-sm">{text}</p>
      {id && <input type="hidden" name={name} value={id} />}
    </div>
  );
}

/** The id and rowVersion an edit form posts back: the save quotes the version it was based on. */
export function RecordKeys({ record }: { record: { id: number; rowVersion: number } | null | undefined }) {
  if (!record) return null;
  return (
    <>
      <input type="hidden" name="id" value={record.id} />
      <input type="hidden" name="rowVersion" value={record.rowVersion} />
    </>
  );
}

/**
 * Konto and Sphäre for the books (issue 35 item 1), declared once for every dialog that may set
 * them (Kurs-Typ, Karten-Produkt, Posten, Rechnungszeile): empty means what the next level says,
 * in the end the account of Buchhaltung for the kind of fee.
 */
export function AccountFields({ account, sphere, disabled }: { account: FieldProps["meta"]; sphere: FieldProps["meta"]; disabled?: boolean }) {
  return (
    <fieldset className="col-span-2 grid grid-cols-2 gap-3 border-t border-slate-200 pt-3">
      <legend className="col-span-2 text-sm font-medium text-slate-800">Buchhaltung</legend>
      <TextField meta={account} label="Konto" inputMode="numeric" placeholder="wie Vorgabe" />
      <SelectField meta={sphere} label="Sphäre" options={SPHERE_OPTIONS} placeholder="wie Vorgabe" disabled={disabled} />
    </fieldset>
  );
}
