CREATE TABLE `mail_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'CLAIMED' NOT NULL,
	`recipient` text NOT NULL,
	`intended_recipient` text NOT NULL,
	`cc` text,
	`intended_cc` text,
	`subject` text NOT NULL,
	`attachments` text,
	`sent_on` text,
	`sent_by` text NOT NULL,
	`person_id` integer,
	`invoice_header_id` integer,
	`fee_id` integer,
	`mailshot_id` integer,
	`job_id` integer,
	`birthday_year` integer,
	`smtp_response` text,
	`created_on` text NOT NULL,
	CONSTRAINT "mail_log_kind_allowed" CHECK(kind IN ('SINGLE', 'MAILSHOT', 'BIRTHDAY')),
	CONSTRAINT "mail_log_status_allowed" CHECK(status IN ('CLAIMED', 'SENT', 'FAILED')),
	CONSTRAINT "mail_log_birthday_has_year" CHECK(kind <> 'BIRTHDAY' OR (birthday_year IS NOT NULL AND person_id IS NOT NULL)),
	CONSTRAINT "mail_log_mailshot_has_run" CHECK(kind <> 'MAILSHOT' OR (job_id IS NOT NULL AND person_id IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `mail_log_person_idx` ON `mail_log` (`person_id`,`created_on`);--> statement-breakpoint
CREATE INDEX `mail_log_invoice_idx` ON `mail_log` (`invoice_header_id`,`created_on`);--> statement-breakpoint
CREATE INDEX `mail_log_created_idx` ON `mail_log` (`created_on`);--> statement-breakpoint
CREATE UNIQUE INDEX `mail_log_birthday_unique` ON `mail_log` (`person_id`,`birthday_year`) WHERE kind = 'BIRTHDAY';--> statement-breakpoint
CREATE UNIQUE INDEX `mail_log_mailshot_unique` ON `mail_log` (`job_id`,`person_id`) WHERE kind = 'MAILSHOT';