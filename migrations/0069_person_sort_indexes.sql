-- Indexes for lists that grew with the data (issue 29 item 11):
-- - people_id_name_keys_idx: a person's DIN 5007 name keys by id. Lists that sort many joined rows
--   by person (the Kontenblatt sorts every fee of a date by name) read both keys from it instead of
--   working them out for each row (personNameKeys, app/models/paging.server.ts).
-- - fees_person_idx by person and date: Datenschutz's last activity (the newest fee up to today)
--   and a person's fees in date order come from the index alone.
DROP INDEX `fees_person_idx`;--> statement-breakpoint
CREATE INDEX `fees_person_idx` ON `fees` (`person_id`,`date`);--> statement-breakpoint
CREATE INDEX `people_id_name_keys_idx` ON `people` (`id`,`last_name_key`,`first_name_key`);