import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { APP_VERSION } from "~/lib/version";

/** Top bar (60 px) with title and version label above the page. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex h-topbar shrink-0 items-center gap-3 bg-wuff-700 px-4 text-white shadow">
        <Link to="/" className="text-lg font-semibold tracking-wide">
          Wuff
        </Link>
        <span className="rounded bg-white/15 px-2 py-0.5 text-xs" title="Version">
          {APP_VERSION}
        </span>
      </header>
      <main className="flex-1 p-6">{children}</main>
    </div>
  );
}
