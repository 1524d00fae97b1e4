import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { NonceContext } from "./components/nonce";
import { preloadOpenDialog } from "./dialogs/host";
import { endPhase } from "./services/phase-timing.server";

const ABORT_DELAY_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  await endPhase(loadContext.phases, "loaders");
  const controller = new AbortController();
  const timeoutId = setTimeout(() => controller.abort(), ABORT_DELAY_MS);

  // The open dialog's code is there before rendering, as it is in the browser before hydrating
  // (app/entry.client.tsx): both render the dialog in the page's own pass, the same tree, so the
  // ids React gives (useId: labels, the dialog's title) match.
  await preloadOpenDialog(new URL(request.url).search);

  // Every inline script (Remix's, React's) carries this request's nonce: the CSP allows no other.
  const { nonce } = loadContext;
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
    </NonceContext.Provider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error);
        responseStatusCode = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeoutId));

  // The complete document in one piece, for everyone: content that suspended during rendering
  // (the lazily loaded dialogs) is then inlined, so it shows without JavaScript too. Wuff defers
  // no data, so streaming would gain nothing.
  await body.allReady;
  await endPhase(loadContext.phases, "render");

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
