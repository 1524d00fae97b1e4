/**
 * Mein Wuff's kit (issue 32): the pieces every portal page is made of, phone first (390 px, one
 * column, big targets) and complete without JavaScript. A page declares its title and content;
 * the navigation, the fields and the notices look and behave alike everywhere.
 */
import { getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { isActiveLink } from "~/lib/active-link";
import { PlainLink, useFollowPlainLinks } from "./plain-links";

const PORTAL_LINKS = [
  { to: "/mein", label: "Übersicht", end: true },
  { to: "/mein/daten", label: "Meine Daten", end: false },
  { to: "/mein/hunde", label: "Meine Hunde", end: false },
  { to: "/mein/zahlungen", label: "Meine Zahlungen", end: false },
  { to: "/mein/kurse", label: "Meine Kurse", end: false },
  { to: "/mein/karten", label: "Meine Karten", end: false },
] as const;

/** The signed-in portal's navigation and 'Abmelden'. */
function PortalNav() {
  const { pathname } = useLocation();
  const follow = useFollowPlainLinks();
  return (
    <nav aria-label="Mein Wuff" onClick={follow} className="mb-4 flex flex-wrap items-center gap-2 border-b border-slate-200 pb-3">
      {PORTAL_LINKS.map((link) => {
        const active = isActiveLink(pathname, link.to, link.end);
        return (
          <PlainLink
            key={link.to}
            to={link.to}
            current={active ? "page" : undefined}
            className={`rounded px-3 py-2 text-sm font-medium ${active ? "bg-wuff-700 text-white" : "text-wuff-800 underline-offset-2 hover:underline"}`}
          >
            {link.label}
          </PlainLink>
        );
      })}
      <Form method="post" action="/mein" className="ml-auto">
        <input type="hidden" name="intent" value="logout" />
        <button type="submit" className="rounded border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 hover:bg-slate-50">
          Abmelden
        </button>
      </Form>
    </nav>
  );
}

/** A signed-in portal page: the navigation, its title (the page's one h1) and its content. */
export function PortalPage({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <>
      <PortalNav />
      <section aria-labelledby={id}>
        <h1 id={id} className="text-2xl font-semibold text-wuff-800">
          {title}
        </h1>
        {intro && <p className="mt-2 text-slate-700">{intro}</p>}
        {children}
      </section>
    </>
  );
}

/** A part of a portal page with its own heading. */
export function PortalPart({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-6 rounded border border-slate-200 bg-white p-4">
      <h2 id={id} className="text-lg font-semibold text-wuff-800">
        {title}
      </h2>
      {children}
    </section>
  );
}

const inputClass =
  "mt-1 block w-full rounded border border-slate-300 px-3 py-2 text-base focus:border-wuff-500 focus:outline-none focus:ring-1 focus:ring-wuff-500 aria-[invalid=true]:border-red-500";

/** A portal field's label above and its error below (the errors are the field's describedby). */
function PortalFieldFrame({ meta, label, className, children }: { meta: FieldMetadata<unknown>; label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {meta.errors && (
        <p id={meta.errorId} className="mt-1 text-sm text-red-700">
          {meta.errors.join(" ")}
        </p>
      )}
    </div>
  );
}

/** A text field of a portal form: label above, the browser's autofill named, the error below. */
export function PortalField({
  meta,
  label,
  type = "text",
  autoComplete,
  inputMode,
  className,
}: {
  meta: FieldMetadata<unknown>;
  label: string;
  type?: "text" | "email" | "tel" | "date";
  autoComplete: string;
  inputMode?: "numeric" | "email" | "tel";
  className?: string;
}) {
  return (
    <PortalFieldFrame meta={meta} label={label} className={className}>
      <input {...getInputProps(meta, { type })} key={meta.key} autoComplete={autoComplete} inputMode={inputMode} className={inputClass} />
    </PortalFieldFrame>
  );
}

/** A text area of a portal form (a message, a note). */
export function PortalTextArea({ meta, label, rows = 4 }: { meta: FieldMetadata<unknown>; label: string; rows?: number }) {
  return (
    <PortalFieldFrame meta={meta} label={label}>
      <textarea {...getTextareaProps(meta)} key={meta.key} rows={rows} className={inputClass} />
    </PortalFieldFrame>
  );
}

/** A select of a portal form. */
export function PortalSelect({
  meta,
  label,
  options,
  className,
}: {
  meta: FieldMetadata<unknown>;
  label: string;
  options: { value: string; label: string }[];
  className?: string;
}) {
  return (
    <PortalFieldFrame meta={meta} label={label} className={className}>
      <select
        id={meta.id}
        name={meta.name}
        defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : ""}
        key={meta.key}
        aria-invalid={meta.errors ? true : undefined}
        aria-describedby={meta.errors ? meta.errorId : undefined}
        className={inputClass}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </PortalFieldFrame>
  );
}

/** A choice of one in a portal form: a radio per option with its label beside it (a big target), a hint below it, the error after all. */
export function PortalRadioGroup({
  meta,
  legend,
  options,
}: {
  meta: FieldMetadata<unknown>;
  legend: string;
  options: { value: string; label: ReactNode; hint?: ReactNode }[];
}) {
  return (
    <fieldset className="mt-2" aria-describedby={meta.errors ? meta.errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <ul className="mt-2 space-y-3">
        {options.map((option) => {
          const id = `${meta.id}-${option.value}`;
          return (
            <li key={option.value}>
              <label htmlFor={id} className="flex items-start gap-3 text-slate-800">
                <input
                  id={id}
                  type="radio"
                  name={meta.name}
                  value={option.value}
                  defaultChecked={meta.initialValue === option.value}
                  className="mt-1 h-5 w-5 shrink-0"
                />
                <span>
                  {option.label}
                  {option.hint && <span className="block text-sm text-slate-600">{option.hint}</span>}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {meta.errors && (
        <p id={meta.errorId} role="alert" className="mt-1 text-sm text-red-700">
          {meta.errors.join(" ")}
        </p>
      )}
    </fieldset>
  );
}

/** A checkbox of a portal form with its label beside it (a big target) and the error below. */
export function PortalCheckbox({ meta, label }: { meta: FieldMetadata<unknown>; label: ReactNode }) {
  return (
    <div>
      <label htmlFor={meta.id} className="flex items-start gap-3 text-slate-800">
        <input {...getInputProps(meta, { type: "checkbox" })} key={meta.key} className="mt-1 h-5 w-5 shrink-0" />
        <span>{label}</span>
      </label>
      {meta.errors && (
        <p id={meta.errorId} role="alert" className="mt-1 text-sm text-red-700">
          {meta.errors.join(" ")}
        </p>
      )}
    </div>
  );
}

type TextVersion = { id: number; version: number };

/**
 * The terms of a contract made online (a booking, a purchase): links to the versions in force,
 * what the page says of the right of withdrawal, their ids (the server checks they are still the
 * ones in force) and the box that accepts them.
 */
export function PortalContractTerms({
  texts,
  withdrawalNote,
  accept,
}: {
  texts: { TERMS: TextVersion; WITHDRAWAL: TextVersion; PRIVACY: TextVersion };
  withdrawalNote: ReactNode;
  accept: FieldMetadata<unknown>;
}) {
  const links = [
    { to: "/mein/agb", label: "Allgemeine Geschäftsbedingungen (AGB)", text: texts.TERMS },
    { to: "/mein/widerrufsbelehrung", label: "Widerrufsbelehrung", text: texts.WITHDRAWAL },
    { to: "/mein/datenschutz", label: "Datenschutzhinweise", text: texts.PRIVACY },
  ];
  return (
    <PortalPart id="contract-terms" title="Bedingungen">
      <ul className="mt-2 space-y-1 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-wuff-800 underline" target="_blank">
              {`${link.label}, Fassung ${link.text.version}`}
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-700">{withdrawalNote}</p>
      <input type="hidden" name="termsId" value={texts.TERMS.id} />
      <input type="hidden" name="withdrawalId" value={texts.WITHDRAWAL.id} />
      <input type="hidden" name="privacyId" value={texts.PRIVACY.id} />
      <div className="mt-3">
        <PortalCheckbox meta={accept} label="Ich akzeptiere die AGB und habe die Widerrufsbelehrung und die Datenschutzhinweise gelesen." />
      </div>
    </PortalPart>
  );
}

/** What the club offers for a SEPA mandate: its name, creditor id and mandate text. */
export type MandateOffer = { club: string; creditorId: string; text: string };

/**
 * The SEPA mandate's part of a form (Mein Wuff's mandate, the membership application): the club's
 * creditor id and mandate text, the account and the box that grants it, never pre-ticked.
 */
export function PortalMandateFields({
  offer,
  titleId,
  fields,
}: {
  offer: MandateOffer;
  titleId: string;
  fields: { accountHolder: FieldMetadata<unknown>; iban: FieldMetadata<unknown>; bic: FieldMetadata<unknown>; agree: FieldMetadata<unknown> };
}) {
  return (
    <>
      <h3 id={titleId} className="font-semibold text-slate-800">
        SEPA-Lastschriftmandat für {offer.club}
      </h3>
      <p className="text-sm text-slate-700">Gläubiger-Identifikationsnummer {offer.creditorId}. Die Mandatsreferenz teilen wir dir nach der Bestätigung mit.</p>
      <p className="rounded bg-slate-50 p-3 text-sm text-slate-800">{offer.text}</p>
      <PortalField meta={fields.accountHolder} label="Kontoinhaber" autoComplete="name" />
      <PortalField meta={fields.iban} label="IBAN" autoComplete="off" />
      <PortalField meta={fields.bic} label="BIC (nur für Konten außerhalb Deutschlands)" autoComplete="off" />
      <PortalCheckbox meta={fields.agree} label="Ich erteile dieses SEPA-Lastschriftmandat für wiederkehrende Zahlungen." />
    </>
  );
}

/** The main button of a portal form: full width on the phone. */
export function PortalSubmit({ children, name, value, disabled }: { children: ReactNode; name?: string; value?: string; disabled?: boolean }) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={disabled}
      className="mt-4 w-full rounded bg-wuff-700 px-4 py-2 font-medium text-white hover:bg-wuff-800 disabled:opacity-60 sm:w-auto"
    >
      {children}
    </button>
  );
}

/** A notice at the top of a form: what happened (status) or what went wrong (alert). */
export function PortalNotice({ tone, children }: { tone: "success" | "error"; children: ReactNode }) {
  return tone === "success" ? (
    <p role="status" className="mt-3 rounded border border-emerald-300 bg-emerald-50 p-3 break-words text-emerald-900">
      {children}
    </p>
  ) : (
    <p role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 break-words text-red-800">
      {children}
    </p>
  );
}

/**
 * The page a link from a portal mail opens (sign in, confirm an address): opening it does nothing
 * (mail programs open links to check them); its one button does. After a refused post, the German
 * reason and the way back instead.
 */
export function PortalLinkPage(props: { id: string; title: string; intro: string; button: string; error?: string; back: { to: string; label: string } }) {
  return (
    <section aria-labelledby={props.id}>
      <h1 id={props.id} className="text-2xl font-semibold text-wuff-800">
        {props.title}
      </h1>
      {props.error ? (
        <>
          <p role="alert" className="mt-4 rounded border border-red-300 bg-red-50 p-3 text-red-900">
            {props.error}
          </p>
          <p className="mt-4">
            <Link to={props.back.to} className="text-wuff-700 underline">
              {props.back.label}
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" className="mt-4">
          <p className="text-slate-700">{props.intro}</p>
          <PortalSubmit>{props.button}</PortalSubmit>
        </Form>
      )}
    </section>
  );
}
