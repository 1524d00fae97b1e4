/**
 * The waiting lists' run (issue 33 item 3), from the cron every five minutes: offers past their
 * time lapse, freed places are offered down the lists, and each new offer's mail goes out once
 * (claimed before sending; a failed send is tried again by the next run). Rules and statements in
 * app/models/waitlist.server.ts.
 */
import type { Db } from "~/db/client.server";
import type { Actor } from "~/models/audit.server";
import { claimOfferMail, lapseOffers, offerFreedPlaces, offersToMail, settleOfferMail } from "~/models/waitlist.server";
import { mailWaitlistOffer } from "./portal.server";
import { forgetCatalogue } from "./catalogue.server";

export type WaitlistRun = { lapsed: number; offered: number; mailed: number; failed: number };

export async function runWaitlists(env: Env, db: Db, actor: Actor, now: Date): Promise<WaitlistRun> {
  const lapsed = await lapseOffers(db, actor, now);
  const offered = await offerFreedPlaces(db, actor, now);
  if (lapsed > 0 || offered > 0) await forgetCatalogue();
  const origin = new URL(env.APP_URL).origin;
  let mailed = 0;
  let failed = 0;
  for (const offer of await offersToMail(db)) {
    if (!(await claimOfferMail(db, offer.id, now))) continue;
    try {
      await mailWaitlistOffer(env, db, offer, origin);
      await settleOfferMail(db, offer.id, true, new Date());
      mailed++;
    } catch (error) {
      console.error("Angebot aus der Warteliste nicht gesendet", offer.id, error);
      await settleOfferMail(db, offer.id, false, new Date());
      failed++;
    }
  }
  return { lapsed, offered, mailed, failed };
}
