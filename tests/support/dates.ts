import { addDaysToDate, berlinWallClockToInstant } from "~/lib/format";

/** Instants at a Berlin wall-clock hour, `offset` days from `today` (a test file's fixed day):
 *  `const dayAt = berlinDayAt(today); dayAt(3)` is 18:00 Berlin three days on. */
export const berlinDayAt =
  (today: string) =>
  (offset: number, hour = 18): string => {
    const [y, m, d] = addDaysToDate(today, offset).split("-").map(Number);
    return berlinWallClockToInstant(y, m, d, hour, 0);
  };
