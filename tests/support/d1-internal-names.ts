/** A WHERE clause on sqlite_master leaving out what SQLite and D1 keep for themselves (never dropped, dumped or created by the tests' database script). */
export const NOT_INTERNAL = "name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'";
