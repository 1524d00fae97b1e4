/**
 * Remix's own browser entry, with one step before hydrating: the code of the dialog the URL opens
 * is loaded first, so the dialog the server rendered hydrates with the page (see
 * preloadOpenDialog in app/dialogs/host.tsx).
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { preloadOpenDialog } from "~/dialogs/host";

void preloadOpenDialog(window.location.search).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
