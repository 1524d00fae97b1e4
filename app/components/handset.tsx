/**
 * The handset views' kit: a phone held in one hand outdoors. Large type and touch targets (at
 * least 44 px), strong contrast for sunlight, one column that never scrolls sideways, plain
 * links and GET forms so everything works without JavaScript on a slow connection.
 */
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDate, mailtoHref, telHref } from "~/lib/format";
import { isRabiesExpired } from "~/lib/rabies";

/** A touch target: at least 44 px high (WCAG 2.5.5), with room around the text. */
export const TOUCH = "inline-flex min-h-11 items-center justify-center rounded-lg px-4 text-base font-semibold";
const PRIMARY = `${TOUCH} bg-wuff-800 text-white active:bg-wuff-700`;
const SECONDARY = `${TOUCH} border-2 border-wuff-800 bg-white text-wuff-800 active:bg-wuff-50`;

export function HandsetScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 break-words text-base text-slate-950">
      <h1 className="text-2xl font-bold text-wuff-800">{title}</h1>
      {children}
    </div>
  );
}

/** A search over the list (GET, so the address holds it and the back button returns to it). */
export function HandsetSearch({ label, value, placeholder }: { label: string; value: string; placeholder: string }) {
  return (
    <Form method="get" role="search" aria-label={label} className="flex gap-2">
      <input
        type="search"
        name="q"
        defaultValue={value}
        placeholder={placeholder}
        aria-label={label}
        maxLength={40}
        autoComplete="off"
        className="min-h-11 min-w-0 flex-1 rounded-lg border-2 border-slate-500 px-3 text-lg"
      />
      <button type="submit" className={PRIMARY}>
        Suchen
      </button>
    </Form>
  );
}

export function Card({ label, children }: { label: string; children: ReactNode }) {
  return (
    <li aria-label={label} className="flex flex-col gap-2 rounded-xl border-2 border-slate-300 bg-white p-4">
      {children}
    </li>
  );
}

export function CardList({ label, empty, children }: { label: string; empty: string; children: ReactNode[] }) {
  if (children.length === 0) return <p className="rounded-xl bg-slate-100 p-4 text-lg">{empty}</p>;
  return (
    <ul aria-label={label} className="flex flex-col gap-3">
      {children}
    </ul>
  );
}

/** A button per number a person has ('Mobil: 0170 …'; tel: links open the phone's dialler). The
 *  card around it names the person, so the link's name is what it shows. */
export function CallButtons({ phones }: { phones: { label: string; number: string | null }[] }) {
  const callable = phones.map((phone) => ({ ...phone, href: telHref(phone.number) })).filter((phone) => phone.href);
  if (callable.length === 0) return <p className="text-slate-700">Keine Telefonnummer</p>;
  return (
    <div className="flex flex-wrap gap-2">
      {callable.map((phone) => (
        <a key={phone.label} href={phone.href!} className={SECONDARY}>
          {phone.label}: {phone.number}
        </a>
      ))}
    </div>
  );
}

export function MailButton({ email }: { email: string | null }) {
  const href = mailtoHref(email);
  if (!href) return null;
  return (
    <a href={href} className={`${SECONDARY} max-w-full`}>
      <span className="truncate">{email}</span>
    </a>
  );
}

/** 'Tollwut bis 12.03.2026', red and bold once it has run out (or when none is known). */
export function RabiesDate({ until, today }: { until: string | null; today: string }) {
  if (!until) return <span className="font-semibold text-red-800">Tollwutimpfung fehlt</span>;
  if (isRabiesExpired(until, today)) return <span className="font-semibold text-red-800">Tollwut abgelaufen am {formatDate(until)}</span>;
  return <span>Tollwut bis {formatDate(until)}</span>;
}

/** 'Weitere …' when the list was cut: the search narrows it (no paging on a phone). */
export function MoreHint({ more }: { more: boolean }) {
  return more ? <p className="text-slate-700">Es gibt weitere Treffer: bitte die Suche genauer fassen.</p> : null;
}

export function HandsetLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={PRIMARY}>
      {children}
    </Link>
  );
}
