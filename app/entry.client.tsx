/**
 * Remix's own browser entry, with two steps before hydrating, so that nothing suspends while the
 * page hydrates: the code of the dialog the URL opens is loaded (see preloadOpenDialog in
 * app/dialogs/host.tsx), and the page's data is decoded (see decodeRemixState).
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { preloadOpenDialog } from "~/dialogs/host";

type RemixWindow = { __remixContext?: { future?: { v3_singleFetch?: boolean }; stream?: unknown } };

/**
 * With single fetch, RemixBrowser's first render suspends until it has decoded the page's data
 * (window.__remixContext.stream). A key pressed while the page hydrates in that state makes React
 * hydrate the whole page at once, as it does for a discrete event; the render suspends again and
 * React gives up: error #345 "Root did not complete", and the page never hydrated (a dialog stayed
 * the server's, the page without JavaScript). So the data is decoded before hydrating: called
 * before that, RemixBrowser only starts the decoding and throws its promise (it creates nothing,
 * calls no hook); the render of the hydration then finds the data and does not suspend.
 */
async function decodeRemixState() {
  const context = (window as unknown as RemixWindow).__remixContext;
  if (!context?.future?.v3_singleFetch || !context.stream) return;
  try {
    (RemixBrowser as unknown as (props: object) => unknown)({});
  } catch (thrown) {
    if (thrown && typeof (thrown as PromiseLike<unknown>).then === "function") await (thrown as PromiseLike<unknown>);
  }
}

void Promise.all([preloadOpenDialog(window.location.search), decodeRemixState()]).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
