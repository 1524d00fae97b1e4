CREATE TABLE `attendances` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`course_date_id` integer NOT NULL,
	`course_membership_id` integer NOT NULL,
	`present` integer DEFAULT false NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`course_date_id`) REFERENCES `course_dates`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`course_membership_id`) REFERENCES `course_memberships`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attendances_date_membership_unique` ON `attendances` (`course_date_id`,`course_membership_id`);--> statement-breakpoint
CREATE INDEX `attendances_membership_idx` ON `attendances` (`course_membership_id`);