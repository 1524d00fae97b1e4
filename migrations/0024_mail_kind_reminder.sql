-- The mail log's kind check gains 'REMINDER' (the Mahnlauf's mails, until now logged as MAILSHOT)
-- with its own claim per run and person. SQLite changes a CHECK only by rebuilding the table.
-- Nothing references mail_log (its ids carry no foreign keys on purpose) and it has no history
-- triggers (it is itself a log), so the copy loses nothing; D1 runs a migration in one
-- transaction, where foreign_keys=OFF has no effect, so defer_foreign_keys is used as in 0023.
PRAGMA defer_foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_mail_log` (
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
	CONSTRAINT "mail_log_kind_allowed" CHECK(kind IN ('SINGLE', 'MAILSHOT', 'BIRTHDAY', 'REMINDER')),
	CONSTRAINT "mail_log_status_allowed" CHECK(status IN ('CLAIMED', 'SENT', 'FAILED')),
	CONSTRAINT "mail_log_birthday_has_year" CHECK(kind <> 'BIRTHDAY' OR (birthday_year IS NOT NULL AND person_id IS NOT NULL)),
	CONSTRAINT "mail_log_mailshot_has_run" CHECK(kind <> 'MAILSHOT' OR (job_id IS NOT NULL AND person_id IS NOT NULL)),
	CONSTRAINT "mail_log_reminder_has_run" CHECK(kind <> 'REMINDER' OR (job_id IS NOT NULL AND person_id IS NOT NULL))
);
--> statement-breakpoint
INSERT INTO `__new_mail_log`("id", "kind", "status", "recipient", "intended_recipient", "cc", "intended_cc", "subject", "attachments", "sent_on", "sent_by", "person_id", "invoice_header_id", "fee_id", "mailshot_id", "job_id", "birthday_year", "smtp_response", "created_on") SELECT "id", "kind", "status", "recipient", "intended_recipient", "cc", "intended_cc", "subject", "attachments", "sent_on", "sent_by", "person_id", "invoice_header_id", "fee_id", "mailshot_id", "job_id", "birthday_year", "smtp_response", "created_on" FROM `mail_log`;--> statement-breakpoint
-- Keep the AUTOINCREMENT counter: a log id is never handed out twice.
DELETE FROM sqlite_sequence WHERE name = '__new_mail_log';--> statement-breakpoint
INSERT INTO sqlite_sequence (name, seq) SELECT '__new_mail_log', seq FROM sqlite_sequence WHERE name = 'mail_log';--> statement-breakpoint
DROP TABLE `mail_log`;--> statement-breakpoint
ALTER TABLE `__new_mail_log` RENAME TO `mail_log`;--> statement-breakpoint
PRAGMA defer_foreign_keys=OFF;--> statement-breakpoint
CREATE INDEX `mail_log_person_idx` ON `mail_log` (`person_id`,`created_on`);--> statement-breakpoint
CREATE INDEX `mail_log_invoice_idx` ON `mail_log` (`invoice_header_id`,`created_on`);--> statement-breakpoint
CREATE INDEX `mail_log_created_idx` ON `mail_log` (`created_on`);--> statement-breakpoint
CREATE UNIQUE INDEX `mail_log_birthday_unique` ON `mail_log` (`person_id`,`birthday_year`) WHERE kind = 'BIRTHDAY';--> statement-breakpoint
CREATE UNIQUE INDEX `mail_log_mailshot_unique` ON `mail_log` (`job_id`,`person_id`) WHERE kind = 'MAILSHOT';--> statement-breakpoint
CREATE UNIQUE INDEX `mail_log_reminder_unique` ON `mail_log` (`job_id`,`person_id`) WHERE kind = 'REMINDER';--> statement-breakpoint
-- Data: the Mahnlauf's mails logged before as MAILSHOT (with the run's job) become REMINDER, so a
-- run's claims are found under one kind. Hand-written: keep it when regenerating.
UPDATE `mail_log` SET `kind` = 'REMINDER' WHERE `kind` = 'MAILSHOT' AND `job_id` IN (SELECT `id` FROM `jobs` WHERE `type` = 'REMINDERS');
