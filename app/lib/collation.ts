/**
 * Names in the order German users expect (DIN 5007 variant 1, "Wörterbuch"): Ä sorts as A, Ö as
 * O, Ü as U, ß as ss, without case; other accented Latin letters as their base letter (é as e,
 * ł as l). SQLite's NOCASE folds A-Z only and puts 'Ärmel' after 'Zander'.
 *
 * The database keeps the key as indexed generated columns (people.last_name_key, ...), computed
 * by the SQL expression of `nameSortKeySql`; `nameSortKey` computes the same key in JavaScript.
 * Both are built from FOLDS, so they cannot disagree. Changing FOLDS changes the columns: it
 * needs a migration (`npm run db:generate`).
 */

/**
 * Base letters and the letters folded to them: German umlauts in both cases, the accented letters
 * of names common in Germany (French, Italian, Spanish, Portuguese, Turkish, Polish, Czech,
 * Croatian, Hungarian, Romanian, Scandinavian) in lower case and as capitals where names begin
 * with them. Not every Latin letter: D1 allows expressions 100 levels deep, and every letter is
 * one nested replace() in the key's SQL (a test keeps the count below that).
 */
const LETTERS: Record<string, string> = {
  a: "äàáâãåăąÄÀÁÂÅ",
  c: "çćčÇĆČ",
  d: "đĐ",
  e: "èéêëęěÈÉÊË",
  g: "ğ",
  i: "ìíîïıÍÎİ",
  l: "łŁ",
  n: "ñńň",
  o: "öòóôõøőÖÓÔØ",
  r: "řŘ",
  s: "śşšșŚŞŠȘ",
  t: "ţțŢȚ",
  u: "üùúûůűÜÚ",
  y: "ýÿ",
  z: "źżžŹŻŽ",
};

/** Every non-ASCII letter the key folds, and what it becomes (ASCII, lower case). */
export const FOLDS: ReadonlyMap<string, string> = new Map([
  ...Object.entries(LETTERS).flatMap(([base, letters]) => [...letters].map((letter) => [letter, base] as const)),
  ["ß", "ss"],
  ["ẞ", "ss"],
  ["æ", "ae"],
  ["Æ", "ae"],
  ["œ", "oe"],
]);

const FOLDABLE = new RegExp(`[${[...FOLDS.keys()].join("")}]`, "gu");

/**
 * The sort key of a name: FOLDS applied, then A-Z lower-cased (like SQLite's lower(), which
 * leaves every other character as it is). 'Ärmel' -> 'armel', 'Straße' -> 'strasse'.
 */
export function nameSortKey(name: string): string {
  return name.replace(FOLDABLE, (letter) => FOLDS.get(letter)!).replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * The same key as an SQLite expression over `column` (a column name): nested replace() for the
 * letters of FOLDS, lower() for A-Z. Each replace() turns one letter into ASCII, so their order
 * does not matter. For generated columns: deterministic built-in functions only.
 */
export function nameSortKeySql(column: string): string {
  let expression = `"${column}"`;
  for (const [letter, folded] of FOLDS) expression = `replace(${expression}, '${letter}', '${folded}')`;
  return `lower(${expression})`;
}

/** Umlauts spelled out (ae, oe, ue: DIN 5007 variant 2) read as the umlaut's key (variant 1). */
const SPELLED_OUT = [
  ["ae", "a"],
  ["oe", "o"],
  ["ue", "u"],
] as const;

/**
 * What a name search compares: the name's key (`nameSortKey`) with umlauts spelled out read as
 * the umlaut, so 'Müller', 'Mueller', 'muller' and 'MÜLLER' all find Müller and Mueller, and
 * 'Strasse' finds 'Straße' and back. Applied to the typed term and (by `nameSearchKeySql`) to the
 * stored key alike.
 */
export function nameSearchKey(name: string): string {
  return SPELLED_OUT.reduce((key, [spelled, letter]) => key.replaceAll(spelled, letter), nameSortKey(name));
}

/** `nameSearchKey` in SQL over an expression that already is a name's sort key (a stored key column). */
export function nameSearchKeySql(sortKeyExpression: string): string {
  return SPELLED_OUT.reduce((expression, [spelled, letter]) => `replace(${expression}, '${spelled}', '${letter}')`, sortKeyExpression);
}
