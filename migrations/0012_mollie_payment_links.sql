CREATE TABLE `mollie_payments` (
	`payment_id` text PRIMARY KEY NOT NULL,
	`fee_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`applied` integer NOT NULL,
	`paid_at` text,
	`processed_on` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mollie_payments_fee_idx` ON `mollie_payments` (`fee_id`);--> statement-breakpoint
ALTER TABLE `fees` ADD `payment_link_id` text;--> statement-breakpoint
ALTER TABLE `fees` ADD `payment_link_url` text;--> statement-breakpoint
ALTER TABLE `fees` ADD `payment_link_amount` integer;