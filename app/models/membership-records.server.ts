/**
 * What hangs off participations beyond their attendance and fees, taken into the Papierkorb with
 * them and brought back together: the evidence of an online booking, the offers from a waiting
 * list and the withdrawals applied to them (issue 33). One list for every delete that takes
 * participations along (the participant, the person, the dog, the course).
 */
import { inArray, sql, type SQL } from "drizzle-orm";
import { onlineBookings, waitlistOffers, withdrawalDeclarations } from "~/db/schema";
import type { Capture } from "./recycle-bin.server";

export const membershipRecordsCapture = (membershipIds: SQL): Capture[] => [
  { table: onlineBookings, where: inArray(onlineBookings.courseMembershipId, membershipIds), identifiers: [sql`${onlineBookings.bookedOn}`] },
  { table: waitlistOffers, where: inArray(waitlistOffers.courseMembershipId, membershipIds), identifiers: [sql`${waitlistOffers.offeredOn}`] },
  {
    table: withdrawalDeclarations,
    where: inArray(withdrawalDeclarations.courseMembershipId, membershipIds),
    identifiers: [sql`${withdrawalDeclarations.name}`, sql`${withdrawalDeclarations.receivedOn}`],
  },
];
