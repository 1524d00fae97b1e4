/** 'Abo-Beiträge' (Tasks): each subscription's periods begun by today and not billed, as open items. */
import { todayInBerlin } from "~/lib/format";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import {
  nameSubscriptions,
  SUBSCRIPTION_FEE_SLICE_SIZE,
  subscriptionFeeSliceStatements,
  subscriptionFeesMessage,
  subscriptionsDue,
  subscriptionUndoState,
  type SubscriptionFeeParams,
} from "~/models/subscription-fees.server";
import { defineRunKind } from "./declare.server";

export const subscriptionFeesRun = defineRunKind({
  type: "SUBSCRIPTION_FEES",
  sliceSize: SUBSCRIPTION_FEE_SLICE_SIZE,
  plan: async ({ db }) => {
    const through = todayInBerlin();
    const due = await subscriptionsDue(db, through);
    const params: SubscriptionFeeParams = {
      through,
      periods: Object.fromEntries(due.map((subscription) => [String(subscription.cardId), subscription.periods])),
    };
    return {
      items: due.map((subscription) => subscription.cardId),
      params,
      emptyMessage: "0 Abo-Beiträge eingestellt: Alle begonnenen Zeiträume sind schon abgerechnet",
      label: JOB_TYPE_LABELS.SUBSCRIPTION_FEES,
    };
  },
  statements: (job, items, actor, now) => subscriptionFeeSliceStatements(job, items, actor, now),
  summarize: async (db, job) => ({ message: await subscriptionFeesMessage(db, job.id) }),
  // The items are cards: the run's failures name them by their holder and product.
  nameItems: nameSubscriptions,
  undo: { state: subscriptionUndoState },
});
