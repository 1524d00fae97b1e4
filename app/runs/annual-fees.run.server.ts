/** 'Jahresbeiträge' (Tasks): each member's annual fee of the chosen year as an open item. */
import { currentYearInBerlin, todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import {
  ANNUAL_FEE_SLICE_SIZE,
  annualFeeSliceStatements,
  annualFeesMessage,
  membersOwingAnnualFees,
  previewAnnualFees,
  type AnnualFeeParams,
} from "~/models/annual-fees.server";
import { paramsOfJob } from "~/models/jobs.server";
import { defineRunKind } from "./declare.server";

/** The years a run of annual fees may be for: around today, nothing far off by a typo. */
const ANNUAL_FEE_YEARS = { before: 1, after: 1 };

export function annualFeeYearsOffered(): number[] {
  const year = currentYearInBerlin();
  const years: number[] = [];
  for (let offset = -ANNUAL_FEE_YEARS.before; offset <= ANNUAL_FEE_YEARS.after; offset++) years.push(year + offset);
  return years;
}

export const offeredYear = (value: number | null) => (value !== null && annualFeeYearsOffered().includes(value) ? value : null);

export const annualFeesRun = defineRunKind({
  type: "ANNUAL_FEES",
  sliceSize: ANNUAL_FEE_SLICE_SIZE,
  plan: async ({ db, form }) => {
    const year = offeredYear(parseId(form.get("year")));
    if (year === null) return { refused: `Bitte ein Beitragsjahr wählen: ${annualFeeYearsOffered().join(", ")}.` };
    const preview = await previewAnnualFees(db, year);
    if (preview.problem || !preview.configured) return { refused: preview.problem ?? "Die Einstellungen fehlen." };
    const params: AnnualFeeParams = { year, date: todayInBerlin(), ...preview.configured };
    const items = await membersOwingAnnualFees(db, year);
    return { items, params, emptyMessage: "0 offene Posten für Jahresbeiträge eingestellt", label: `${JOB_TYPE_LABELS.ANNUAL_FEES} ${year}` };
  },
  statements: (job, items, actor, now) => annualFeeSliceStatements(job.id, items, paramsOfJob<AnnualFeeParams>(job), actor, now),
  summarize: async (db, job) => ({ message: await annualFeesMessage(db, job.id) }),
});
