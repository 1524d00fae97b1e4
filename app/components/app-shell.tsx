import { Form, Link, useLocation, type Location } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { mayUse, type Area, type User } from "~/lib/access";
import { isActiveLink } from "~/lib/active-link";
import { PlainLink, useFollowPlainLinks } from "./plain-links";
import { HANDSET_MENU, HANDSET_MORE, HANDSET_VIEW_OF, LISTS_GROUP, SCREEN_TITLES, SIDEBAR, visibleEntries, type NavEntry } from "./navigation";
import { PendingBar } from "./pending-bar";

const navLinkClass = (isActive: boolean) =>
  `block rounded px-3 py-1.5 text-sm ${isActive ? "bg-wuff-100 font-semibold text-wuff-800" : "text-slate-700 hover:bg-slate-100"}`;

/** A menu's entries (plain anchors, followed by the menu's listener: plain-links.tsx). */
function NavItems({ entries, location }: { entries: NavEntry[]; location: Location }) {
  // A dialog entry remembers the page it was opened on: Abbruch leads back there.
  const returnTo = `?${new URLSearchParams({ returnTo: location.pathname + location.search })}`;
  return entries.map((item) => {
    const active = isActiveLink(location.pathname, item.to);
    return (
      <li key={item.area}>
        <PlainLink
          to={item.keepsPlace && location.pathname !== item.to ? item.to + returnTo : item.to}
          current={active ? "page" : undefined}
          className={navLinkClass(active)}
        >
          {item.label}
        </PlainLink>
      </li>
    );
  });
}

function Sidebar({ user }: { user: User | null }) {
  const lists = visibleEntries(LISTS_GROUP, user);
  const location = useLocation();
  const follow = useFollowPlainLinks();
  const home = isActiveLink(location.pathname, "/", true);
  return (
    <nav aria-label="Hauptmenü" onClick={follow} className="hidden w-sidebar shrink-0 border-r border-slate-200 bg-white p-2 md:block print:hidden">
      <ul className="space-y-0.5">
        <li>
          <PlainLink to="/" current={home ? "page" : undefined} className={navLinkClass(home)}>
            Startseite
          </PlainLink>
        </li>
        <NavItems entries={visibleEntries(SIDEBAR, user)} location={location} />
        {lists.length > 0 && (
          <li>
            {/* A disclosure that opens and closes without JavaScript. */}
            <details className="group" open>
              <summary className="cursor-pointer list-none rounded px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100">
                <span className="inline-block transition-transform group-open:rotate-90" aria-hidden>
                  ›
                </span>{" "}
                Listen
              </summary>
              <ul className="ml-3 space-y-0.5">
                <NavItems entries={lists} location={location} />
              </ul>
            </details>
          </li>
        )}
      </ul>
    </nav>
  );
}

/** Handset widths: a burger/close button in the top bar opens the short menu (a disclosure, so
 *  it works without JavaScript); choosing an entry closes it. */
function HandsetMenu({ user, version }: { user: User; version: string }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const follow = useFollowPlainLinks();
  const shownKey = useRef(location.key);
  useEffect(() => {
    // Close after a navigation, not at hydration (the user may have opened it already).
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (menu.current) menu.current.open = false;
  }, [location.key]);
  return (
    <details ref={menu} className="group md:hidden">
      <summary className="flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded hover:bg-white/15" aria-label="Menü">
        <span className="text-2xl leading-none group-open:hidden" aria-hidden>
          ☰
        </span>
        <span className="hidden text-2xl leading-none group-open:inline" aria-hidden>
          ✕
        </span>
      </summary>
      <nav
        aria-label="Mobiles Menü"
        onClick={follow}
        className="absolute inset-x-0 top-topbar z-40 border-b border-slate-200 bg-white p-2 text-slate-900 shadow-lg"
      >
        <ul className="space-y-0.5">
          <NavItems entries={visibleEntries(HANDSET_MENU, user)} location={location} />
        </ul>
        <p id="handset-more" className="mt-2 border-t border-slate-100 px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
          Weitere Bildschirme
        </p>
        <ul className="space-y-0.5" aria-labelledby="handset-more">
          <NavItems entries={visibleEntries(HANDSET_MORE, user)} location={location} />
        </ul>
        <p className="mt-2 border-t border-slate-100 px-3 pt-2 text-xs text-slate-500">Version {version}</p>
      </nav>
    </details>
  );
}

function TopBar({ user, version }: { user: User | null; version: string }) {
  const location = useLocation();
  const loginHref = `/login?${new URLSearchParams({ redirectTo: location.pathname === "/" ? "/" : location.pathname + location.search })}`;
  return (
    <header className="relative flex h-topbar shrink-0 items-center gap-3 bg-wuff-700 px-3 text-white shadow print:hidden">
      {user && <HandsetMenu user={user} version={version} />}
      <Link to="/" className="shrink-0 text-lg font-semibold tracking-wide">
        Wuff
      </Link>
      {/* On handsets the version label moves into the menu, so the greeting and Abmelden fit. */}
      <span className={`${user ? "hidden sm:inline" : ""} whitespace-nowrap rounded bg-white/15 px-2 py-0.5 text-xs`} title="Version">
        {version}
      </span>
      <div className="ml-auto flex min-w-0 items-center gap-3">
        {user ? (
          <>
            <span className="min-w-0 truncate text-sm" title={user.name}>
              Willkommen, {user.name}
            </span>
            <Form method="post" action="/logout" reloadDocument className="shrink-0">
              <button type="submit" className="rounded bg-white/15 px-3 py-1.5 text-sm hover:bg-white/25">
                Abmelden
              </button>
            </Form>
          </>
        ) : (
          <a href={loginHref} className="rounded bg-white px-3 py-1.5 text-sm font-medium text-wuff-800 hover:bg-wuff-50">
            Anmelden
          </a>
        )}
      </div>
    </header>
  );
}

/** On a phone, a desktop screen that has a handset view points to it (hidden from md width on and in print). */
function HandsetViewHint({ user }: { user: User }) {
  const area = useLocation().pathname.split("/")[1] as Area;
  const handset = Object.hasOwn(HANDSET_VIEW_OF, area) ? HANDSET_VIEW_OF[area] : undefined;
  if (!handset || !mayUse(user, handset)) return null;
  return (
    <p className="mb-3 md:hidden print:hidden">
      <Link to={`/${handset}`} className="inline-flex min-h-11 items-center rounded-lg border-2 border-wuff-800 bg-white px-4 font-semibold text-wuff-800">
        Zur Handy-Ansicht: {SCREEN_TITLES[handset]}
      </Link>
    </p>
  );
}

/** Top bar (60 px) over the sidebar (200 px) and the page. */
export function AppShell({ user, version, children }: { user: User | null; version: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#inhalt"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-wuff-800 focus:shadow"
      >
        Zum Inhalt springen
      </a>
      <PendingBar />
      <TopBar user={user} version={version} />
      <div className="flex flex-1">
        {user && <Sidebar user={user} />}
        <main id="inhalt" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-6 print:p-0">
          {user && <HandsetViewHint user={user} />}
          {children}
        </main>
      </div>
    </div>
  );
}

/** Mein Wuff's frame (issue 32): no staff menus, phone first; the pages bring their own actions. */
/** Mein Wuff's frame: the club's logo and name, the page, and the links to the club's privacy
 *  notice, imprint, statutes, terms and withdrawal notice (Einstellungen → Texte für Mein Wuff) on
 *  every portal page. */
export function PortalFrame({ club, children }: { club: { name: string | null; hasLogo: boolean } | null; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="bg-wuff-800 px-4 py-3 text-white">
        <a href="/mein" className="flex items-center gap-3 text-lg font-semibold">
          {club?.hasLogo && <img src="/mein/logo" alt="" className="h-10 w-auto max-w-[8rem] rounded bg-white object-contain p-0.5" />}
          <span>
            Mein Wuff
            {club?.name && <span className="block text-sm font-normal text-wuff-100">{club.name}</span>}
          </span>
        </a>
      </header>
      <main id="inhalt" className="mx-auto w-full max-w-xl flex-1 p-4">
        {children}
      </main>
      <footer className="border-t border-slate-200 px-4 py-3 text-sm text-slate-700">
        <nav aria-label="Rechtliches" className="mx-auto flex max-w-xl flex-wrap gap-4">
          <a href="/mein/datenschutz" className="underline">
            Datenschutz
          </a>
          <a href="/mein/impressum" className="underline">
            Impressum
          </a>
          <a href="/mein/satzung" className="underline">
            Satzung
          </a>
          <a href="/mein/agb" className="underline">
            AGB
          </a>
          <a href="/mein/widerrufsbelehrung" className="underline">
            Widerrufsbelehrung
          </a>
          <a href="/mitglied-werden" className="underline">
            Mitglied werden
          </a>
          <a href="/kurse" className="underline">
            Kursangebot
          </a>
          {/* § 356a BGB: the withdrawal function always at hand, without an account too. */}
          <a href="/mein/widerruf" className="font-semibold underline">
            Vertrag widerrufen
          </a>
          {/* § 312k BGB: the notice button for contracts made online, readable and without an account. */}
          <a href="/mein/kuendigen" className="font-semibold underline">
            Verträge hier kündigen
          </a>
        </nav>
      </footer>
    </div>
  );
}
