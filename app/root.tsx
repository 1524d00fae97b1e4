// First: before any module builds a zod schema (see the file).
import "~/lib/zod-setup";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { AppShell, PortalFrame } from "~/components/app-shell";
import { portalClub } from "~/models/club-look.server";
import { ErrorMessage } from "~/components/error-message";
import { useNonce } from "~/components/nonce";
import { IdleLogout } from "~/components/idle-logout";
import { ToastMessage } from "~/components/toast";
import { DialogHost } from "~/dialogs/host";
import type { DialogActionData } from "~/dialogs/define.server";
import { loadOpenDialog } from "~/dialogs/kit.server";
import { APP_VERSION } from "~/lib/version";
import { getOptionalUser, idleSettings } from "~/services/auth.server";
import { takeToast } from "~/services/toast.server";
import stylesheet from "~/styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const { env } = args.context.cloudflare;
  // Mein Wuff's pages never read the staff's session: a staff member signed in in the same
  // browser is not named there, and nothing of the staff's reaches a portal page.
  const portal = isPortalPath(new URL(args.request.url).pathname);
  const [user, { toast, clearCookie }, club] = await Promise.all([
    portal ? null : getOptionalUser(args),
    takeToast(args.request, env),
    // Mein Wuff shows the club's name and logo (Einstellungen).
    portal ? portalClub(args.context.db) : null,
  ]);
  // The dialog the URL names, on whatever page it is opened; and the answer of its last post when
  // the page is rendered right after it (a form posted without JavaScript).
  const dialog = user ? await loadOpenDialog(args.request, args.context, user) : null;
  const dialogResult = args.context.dialogResult as DialogActionData | undefined;
  return data(
    { user, toast, idle: idleSettings(env), version: APP_VERSION, dialog, dialogResult: dialogResult ?? null, club },
    { headers: clearCookie ? { "Set-Cookie": clearCookie } : undefined },
  );
}

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="de">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 break-words text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Mein Wuff (issue 32), the public application for membership and the course catalogue (issue
 *  33): the portal's frame, no staff login. */
const PORTAL_PATHS = ["/mein", "/mitglied-werden", "/kurse"];
const isPortalPath = (pathname: string) => PORTAL_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));

export default function App() {
  const root = useRootData();
  const { pathname } = useLocation();
  // Marks the page as interactive (hydrated); browser tests wait for it before driving timers.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const user = root?.user ?? null;
  if (isPortalPath(pathname)) {
    return (
      <PortalFrame club={root?.club ?? null}>
        <ToastMessage toast={root?.toast ?? null} />
        <Outlet />
      </PortalFrame>
    );
  }
  return (
    <AppShell user={user} version={root?.version ?? APP_VERSION}>
      <ToastMessage toast={root?.toast ?? null} />
      {user && root && <IdleLogout {...root.idle} />}
      <Outlet />
      {user && root && <DialogHost dialog={root.dialog} result={root.dialogResult ?? undefined} />}
    </AppShell>
  );
}

/** Errors of the root itself (its loader); a page's errors are shown by routes/_pages.tsx. */
export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRootData();
  return (
    <AppShell user={root?.user ?? null} version={root?.version ?? APP_VERSION}>
      <ErrorMessage error={error} />
    </AppShell>
  );
}

/** A page's error, inside the app shell: the error boundary of routes/_pages.tsx (see there). */
export function PageErrorBoundary() {
  return <ErrorMessage error={useRouteError()} />;
}
