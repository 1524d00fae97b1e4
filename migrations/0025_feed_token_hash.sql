PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_calendar_feeds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`subject_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "calendar_feeds_kind_allowed" CHECK(kind IN ('COURSE', 'TRAINER')),
	CONSTRAINT "calendar_feeds_token_shape" CHECK(length(token_hash) = 43)
);
--> statement-breakpoint
INSERT INTO `__new_calendar_feeds`("id", "kind", "subject_id", "token_hash", "created_by", "created_on", "last_modified_by", "last_modified_on", "row_version") SELECT "id", "kind", "subject_id", "token_hash", "created_by", "created_on", "last_modified_by", "last_modified_on", "row_version" FROM `calendar_feeds`;--> statement-breakpoint
DROP TABLE `calendar_feeds`;--> statement-breakpoint
ALTER TABLE `__new_calendar_feeds` RENAME TO `calendar_feeds`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_kind_subject_unique` ON `calendar_feeds` (`kind`,`subject_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_hash_unique` ON `calendar_feeds` (`token_hash`);