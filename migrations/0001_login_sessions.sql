CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user` text NOT NULL,
	`id_token` text,
	`created_on` text NOT NULL,
	`last_seen_on` text NOT NULL,
	`expires_on` text NOT NULL,
	CONSTRAINT "sessions_user_json" CHECK(json_valid(user))
);
--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_on`);