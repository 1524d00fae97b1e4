-- Issue 32 item 1: Mein Wuff, the portal, signed in by a one-time e-mail link. The requests of
-- links (hashes only; the address when it is a person's) serve the rate limits and hold the link;
-- portal sessions are kept apart from the staff's. Neither has a history (technical records).
CREATE TABLE `portal_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`person_id` integer,
	`created_on` text NOT NULL,
	`last_seen_on` text NOT NULL,
	`expires_on` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `portal_sessions_expires_idx` ON `portal_sessions` (`expires_on`);--> statement-breakpoint
CREATE TABLE `portal_sign_in_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email_hash` text NOT NULL,
	`ip_hash` text NOT NULL,
	`email` text,
	`token_hash` text,
	`browser_hash` text,
	`created_on` text NOT NULL,
	`expires_on` text NOT NULL,
	`used_on` text
);
--> statement-breakpoint
CREATE INDEX `portal_sign_in_requests_email_idx` ON `portal_sign_in_requests` (`email_hash`,`created_on`);--> statement-breakpoint
CREATE INDEX `portal_sign_in_requests_ip_idx` ON `portal_sign_in_requests` (`ip_hash`,`created_on`);--> statement-breakpoint
CREATE UNIQUE INDEX `portal_sign_in_requests_token_unique` ON `portal_sign_in_requests` (`token_hash`) WHERE token_hash IS NOT NULL;--> statement-breakpoint
CREATE INDEX `portal_sign_in_requests_expires_idx` ON `portal_sign_in_requests` (`expires_on`);--> statement-breakpoint
INSERT OR REPLACE INTO write_context (id, actor, action, source) VALUES (1, 'Migration', 'ERASE', NULL);--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Anmeldelink (Mein Wuff)', 'MAIL', 'Dein Anmeldelink für Mein Wuff von {{club}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>Hallo,</p>
<p>mit diesem Link meldest du dich bei Mein Wuff von {{club}} an:</p>
<p><a href="{{link}}">{{link}}</a></p>
<p>Er gilt 15 Minuten, nur einmal und nur in dem Browser, in dem du ihn angefordert hast. Hast du keinen angefordert, lösche diese Mail einfach: Ohne den Link meldet sich niemand an.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', 'Hallo,

mit diesem Link meldest du dich bei Mein Wuff von {{club}} an:

{{link}}

Er gilt 15 Minuten, nur einmal und nur in dem Browser, in dem du ihn angefordert hast. Hast du keinen angefordert, lösche diese Mail einfach: Ohne den Link meldet sich niemand an.

Viele Grüße
{{club}}', 'Mein Wuff: die Mail mit dem Anmeldelink ({{link}}).', 'Migration');--> statement-breakpoint
DELETE FROM write_context WHERE id = 1;
