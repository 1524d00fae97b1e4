/**
 * German numbers from one Intl.NumberFormat made once: `toLocaleString("de-DE")` builds a new one
 * on every call, about 50 µs in workerd (a grid page called it a few times, a number column once
 * per cell). A module of its own, without dependencies, so the grid can use it in the browser
 * without ./format's date code (the People page's JavaScript budget).
 */
const numberFormat = new Intl.NumberFormat("de-DE");

/** 12345 -> '12.345', 2.5 -> '2,5': a number as de-DE writes it (as `toLocaleString("de-DE")`). */
export const formatNumber = (value: number | bigint) => numberFormat.format(value);
