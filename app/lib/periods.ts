/** The period filters of the money screens (Zahlungen, Kasse): a period around today. */
export const PERIODS = ["all", "thisYear", "lastYear", "thisMonth", "lastMonth"] as const;
export type Period = (typeof PERIODS)[number];

/** The filter's choices, as the toolbars show them. */
export const PERIOD_OPTIONS: readonly { value: Period; label: string }[] = [
  { value: "all", label: "Immer" },
  { value: "thisMonth", label: "Dieser Monat" },
  { value: "lastMonth", label: "Letzter Monat" },
  { value: "thisYear", label: "Dieses Jahr" },
  { value: "lastYear", label: "Letztes Jahr" },
];

/** The first and the last day of a period around `today` ('YYYY-MM-DD'), or null for all. */
export function periodRange(period: Period, today: string): [string, string] | null {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const monthRange = (y: number, m: number): [string, string] => {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const mm = String(m).padStart(2, "0");
    return [`${y}-${mm}-01`, `${y}-${mm}-${String(last).padStart(2, "0")}`];
  };
  switch (period) {
    case "thisYear":
      return [`${year}-01-01`, `${year}-12-31`];
    case "lastYear":
      return [`${year - 1}-01-01`, `${year - 1}-12-31`];
    case "thisMonth":
      return monthRange(year, month);
    case "lastMonth":
      return month === 1 ? monthRange(year - 1, 12) : monthRange(year, month - 1);
    default:
      return null;
  }
}
