-- GDPR (issue 16 items 1, 2, 5): an erased person keeps only a pseudonymised row holding the
-- retained bookkeeping records (erased_on, retained_until); a retained invoice keeps the name and
-- address it was issued to (issued_*); the retention overview's number of years (configuration).
-- Plain ADD COLUMNs: drizzle-kit would rebuild people and configuration for the new columns.
ALTER TABLE `people` ADD `erased_on` text;--> statement-breakpoint
ALTER TABLE `people` ADD `retained_until` text;--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `issued_salutation` text;--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `issued_title` text;--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `issued_first_name` text;--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `issued_last_name` text;--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `issued_street_number` text;--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `issued_zip` text;--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `issued_city` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `retention_years` integer DEFAULT 3 NOT NULL;
