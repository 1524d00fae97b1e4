CREATE TABLE `job_failures` (
	`job_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`message` text NOT NULL,
	`attempts` integer DEFAULT 1 NOT NULL,
	`last_attempt_on` text NOT NULL,
	PRIMARY KEY(`job_id`, `item_id`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `job_slices` (
	`job_id` integer NOT NULL,
	`slice` integer NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`settled_on` text NOT NULL,
	PRIMARY KEY(`job_id`, `slice`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "job_slices_counts_sane" CHECK(done >= 0 AND failed >= 0)
);
--> statement-breakpoint
ALTER TABLE `fees` ADD `job_id` integer REFERENCES jobs(id);--> statement-breakpoint
CREATE INDEX `fees_job_idx` ON `fees` (`job_id`);--> statement-breakpoint
ALTER TABLE `invoice_headers` ADD `job_id` integer REFERENCES jobs(id);--> statement-breakpoint
CREATE INDEX `invoice_headers_job_idx` ON `invoice_headers` (`job_id`);--> statement-breakpoint
ALTER TABLE `invoice_rows` ADD `job_id` integer REFERENCES jobs(id);--> statement-breakpoint
CREATE INDEX `invoice_rows_job_idx` ON `invoice_rows` (`job_id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `undone_on` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `undone_by` text;--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_one_active_per_type` ON `jobs` (`type`) WHERE status IN ('QUEUED', 'RUNNING');