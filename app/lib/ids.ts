/** The largest id SQLite's INTEGER columns hold that JavaScript and D1 pass around safely. */
export const MAX_ID = 2_147_483_647;

/** A database id from a URL, form or route parameter, or null when it cannot be one. */
export function parseId(value: unknown): number | null {
  const id = typeof value === "string" && value.trim() !== "" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isInteger(id) && id > 0 && id <= MAX_ID ? id : null;
}
