CREATE TABLE `change_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`table_name` text NOT NULL,
	`record_id` integer NOT NULL,
	`action` text NOT NULL,
	`changed_by` text NOT NULL,
	`changed_on` text NOT NULL,
	`changes` text,
	CONSTRAINT "change_history_action_allowed" CHECK(action IN ('INSERT', 'UPDATE', 'DELETE', 'RESTORE'))
);
--> statement-breakpoint
CREATE INDEX `change_history_record_idx` ON `change_history` (`table_name`,`record_id`,`id`);