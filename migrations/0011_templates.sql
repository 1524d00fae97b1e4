CREATE TABLE `templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text,
	`html` text NOT NULL,
	`text` text,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "templates_kind_allowed" CHECK(kind IN ('INVOICE', 'MAIL'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `templates_name_unique` ON `templates` (`name`);