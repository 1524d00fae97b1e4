/**
 * The public course catalogue as its pages read it (issue 33 item 1): rate-limited like every
 * public address, the data kept at the edge for a minute (edge-cache.server.ts) and read fresh by
 * whatever books (a booking never trusts the copy).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { catalogue, type Catalogue } from "~/models/catalogue.server";
import { cachedJson, forgetCached } from "./edge-cache.server";
import { refuseOverLimit } from "./rate-limit.server";

const CATALOGUE_KEY = "catalogue";
/** How old the catalogue a visitor sees may be, in seconds. */
const CATALOGUE_MAX_AGE = 60;

/** The catalogue for a public page; a 429 with a German text once the caller's minute is used up. */
export async function publicCatalogue(request: Request, context: AppLoadContext): Promise<Catalogue> {
  const limited = await refuseOverLimit(request, context.cloudflare.env, "catalogue");
  if (limited) throw limited;
  return cachedJson(CATALOGUE_KEY, CATALOGUE_MAX_AGE, () => catalogue(context.db, new Date().toISOString()));
}

/** After a change of free places: the next visitor reads D1. */
export const forgetCatalogue = () => forgetCached(CATALOGUE_KEY);
