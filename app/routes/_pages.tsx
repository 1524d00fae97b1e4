/**
 * The pathless layout around every page (app/routes.ts), for its error boundary: an error of a
 * page is shown inside the app shell, with the top bar of the logged-in user. Remix does not run
 * the loaders at and below the boundary that catches an action's error; with the root's own
 * boundary catching it, the root loader (the user) would not run and the page looked logged out.
 * No component: the pages render straight into the root's <Outlet />.
 */
// Kept in root.tsx: a module of its own here would split the shared React/Remix chunk in two
// (about 2 KB more JavaScript on every page).
export { PageErrorBoundary as ErrorBoundary } from "~/root";
