/**
 * Default interest (issue 31 item 5), the pure rule: days of each half-year at its base rate plus
 * 5 (consumer) or 9 (business) points, the principal lowered the day after a payment, summed
 * exactly and rounded once. The figures are worked out by hand in the comments.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BUSINESS_SURCHARGE, CONSUMER_SURCHARGE, daysCounted, defaultInterest, halfYearOf, interestRateText, type BaseRate } from "~/lib/default-interest";

// § 247 BGB as the Bundesbank announced it.
const RATES: BaseRate[] = [
  { validFrom: "2024-07-01", rate: 337 },
  { validFrom: "2025-01-01", rate: 227 },
  { validFrom: "2025-07-01", rate: 127 },
  { validFrom: "2026-01-01", rate: 127 },
];

describe("default interest", () => {
  it("splits the days at the change of the base rate and rounds once, to the cent", () => {
    // 1.000,00 € from 01.06. to 31.07.2025: 30 days at 2,27 + 5 = 7,27 %, 31 days at 1,27 + 5 = 6,27 %.
    // 100000 x 727 x 30 + 100000 x 627 x 31 = 4 124 700 000; / (10000 x 365) = 1130,05 cents -> 11,30 €.
    // (Rounding each stretch would give 5,98 + 5,33 = 11,31 €.)
    const outcome = defaultInterest({ from: "2025-06-01", to: "2025-07-31", openNow: 100_000, payments: [], rates: RATES, surcharge: CONSUMER_SURCHARGE });
    expect(outcome).toEqual({
      status: "computed",
      amount: 1130,
      from: "2025-06-01",
      to: "2025-07-31",
      surcharge: 500,
      stretches: [
        { from: "2025-06-01", to: "2025-06-30", days: 30, principal: 100_000, rate: 727 },
        { from: "2025-07-01", to: "2025-07-31", days: 31, principal: 100_000, rate: 627 },
      ],
    });
  });

  it("charges an Unternehmer 9 points above the base rate (§ 288 Abs. 2 BGB)", () => {
    // 500,00 € for 10 days at 1,27 + 9 = 10,27 %: 50000 x 1027 x 10 / 3 650 000 = 140,68 cents -> 1,41 €.
    const outcome = defaultInterest({ from: "2026-03-01", to: "2026-03-10", openNow: 50_000, payments: [], rates: RATES, surcharge: BUSINESS_SURCHARGE });
    expect(outcome).toMatchObject({ status: "computed", amount: 141, stretches: [{ days: 10, rate: 1027 }] });
    if (outcome.status === "computed")
      expect(interestRateText(outcome.surcharge, outcome.stretches)).toBe("9 Prozentpunkte über dem Basiszinssatz (10,27 % p. a.)");
  });

  it("lowers the principal from the day after a payment, and a counter-entry raises it again", () => {
    // Open now 0,00 €; paid 600,00 € on 10.02. and 400,00 € on 20.02.2026: owed 1.000,00 € from 01.02. to 10.02.
    // (10 days), 400,00 € from 11.02. to 20.02. (10 days), nothing after. At 6,27 %:
    // (100000 x 10 + 40000 x 10) x 627 / 3 650 000 = 240,49 cents -> 2,40 €.
    const paid = [
      { date: "2026-02-10", amount: 60_000 },
      { date: "2026-02-20", amount: 40_000 },
    ];
    const outcome = defaultInterest({ from: "2026-02-01", to: "2026-02-28", openNow: 0, payments: paid, rates: RATES, surcharge: CONSUMER_SURCHARGE });
    expect(outcome).toMatchObject({
      status: "computed",
      amount: 240,
      stretches: [
        { from: "2026-02-01", to: "2026-02-10", days: 10, principal: 100_000 },
        { from: "2026-02-11", to: "2026-02-20", days: 10, principal: 40_000 },
      ],
    });
    // The 400,00 € came back (a returned debit on 25.02.): owed again from 26.02.
    const returned = [...paid, { date: "2026-02-25", amount: -40_000 }];
    const after = defaultInterest({ from: "2026-02-01", to: "2026-02-28", openNow: 40_000, payments: returned, rates: RATES, surcharge: CONSUMER_SURCHARGE });
    expect(after.status === "computed" && after.stretches.at(-1)).toEqual({ from: "2026-02-26", to: "2026-02-28", days: 3, principal: 40_000, rate: 627 });
  });

  it("names the half-year whose base rate is missing, and charges nothing for no days", () => {
    expect(defaultInterest({ from: "2026-06-20", to: "2026-07-10", openNow: 1000, payments: [], rates: RATES, surcharge: CONSUMER_SURCHARGE })).toEqual({
      status: "missingRate",
      halfYear: "2026-07-01",
    });
    expect(defaultInterest({ from: "2026-03-02", to: "2026-03-01", openNow: 1000, payments: [], rates: RATES, surcharge: CONSUMER_SURCHARGE })).toEqual({
      status: "none",
    });
    expect(halfYearOf("2026-06-30")).toBe("2026-01-01");
    expect(halfYearOf("2026-07-01")).toBe("2026-07-01");
  });

  it("is additive: two reminders charging consecutive stretches charge what one would, give or take the rounding", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 700 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 300 }),
        fc.boolean(),
        (openNow, startOffset, firstDays, secondDays, business) => {
          const day = (offset: number) => new Date(Date.UTC(2024, 6, 1) + offset * 86_400_000).toISOString().slice(0, 10);
          const from = day(startOffset);
          const middle = day(startOffset + firstDays - 1);
          const to = day(startOffset + firstDays + secondDays - 1);
          const surcharge = business ? BUSINESS_SURCHARGE : CONSUMER_SURCHARGE;
          const amountOf = (a: string, b: string) => {
            const outcome = defaultInterest({ from: a, to: b, openNow, payments: [], rates: RATES, surcharge });
            return outcome.status === "computed" ? outcome.amount : 0;
          };
          const whole = defaultInterest({ from, to, openNow, payments: [], rates: RATES, surcharge });
          if (whole.status !== "computed") return;
          expect(whole.stretches.reduce((sum, stretch) => sum + stretch.days, 0)).toBe(daysCounted(from, to));
          const parts = amountOf(from, middle) + (secondDays > 0 ? amountOf(day(startOffset + firstDays), to) : 0);
          expect(Math.abs(parts - whole.amount)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });
});
