import type { AppLoadContext } from "@remix-run/cloudflare";
import { createDb, type Db } from "./db/client.server";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException"> };
    db: Db;
  }
}

type GetLoadContextArgs = {
  request: Request;
  context: { cloudflare: AppLoadContext["cloudflare"] };
};

/** Shared by the worker entry and the Vite dev proxy, so loaders see the same context in both. */
export function getLoadContext({ context }: GetLoadContextArgs): AppLoadContext {
  return { cloudflare: context.cloudflare, db: createDb(context.cloudflare.env.DB) };
}
