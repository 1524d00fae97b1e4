import type { AppLoadContext } from "@remix-run/cloudflare";
import { createDb, type Db, type QueryTimer } from "./db/client.server";
import { appEnv } from "./services/env.server";
import { startPhaseClock, type PhaseClock } from "./services/phase-timing.server";
import { newNonce } from "./services/security-headers.server";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException"> };
    db: Db;
    /** D1 time of this request (Server-Timing). */
    queryTimer: QueryTimer;
    /** Where this request's time goes, only for the bench (PHASE_TIMING, phase-timing.server.ts). */
    phases?: PhaseClock;
    /** This request's script nonce: the document's scripts carry it, the CSP header names it. */
    nonce: string;
    /** The signed session cookie, read once per request (auth.server.ts). */
    sessionCookie?: Promise<unknown>;
    /** The login session, read once per request however many loaders ask (auth.server.ts). */
    sessionState?: Promise<unknown>;
    /** Preferences by user id, read once per request (preferences.server.ts). */
    userPreferences?: Map<string, Promise<Map<string, string>>>;
    /** Data several loaders of one request share (grid lists, parent names): see once(). */
    requestCache?: Map<string, Promise<unknown>>;
    /** A dialog action's answer, for the page rendered after it (forms posted without JavaScript). */
    dialogResult?: unknown;
  }
}

type GetLoadContextArgs = {
  request: Request;
  context: { cloudflare: AppLoadContext["cloudflare"] };
};

/** Shared by the worker entry and the Vite dev proxy, so loaders see the same context in both. */
export function getLoadContext({ context }: GetLoadContextArgs): AppLoadContext {
  const phases = appEnv(context.cloudflare.env).PHASE_TIMING === "1" ? startPhaseClock() : undefined;
  const queryTimer: QueryTimer = { count: 0, milliseconds: 0 };
  return { cloudflare: context.cloudflare, db: createDb(context.cloudflare.env.DB, queryTimer), queryTimer, nonce: newNonce(), phases };
}
