-- Indexes for queries that read every row (issue 29 item 11, found by D1's rows_read per statement):
-- - dogs_owner_idx now also by archived and DIN 5007 name key: a person's Hunde tab (shown with
--   the first person on /people) walked all 5,500 current dogs of the benchmark data by name to
--   find one owner's; now it reads that owner's dogs in order.
-- - people_erased_idx, only erased people: the retention schedule (Datenschutz) looked for them
--   among every person, once for each kind of record kept.
DROP INDEX `dogs_owner_idx`;--> statement-breakpoint
CREATE INDEX `dogs_owner_idx` ON `dogs` (`owner_id`,`archived`,`common_name_key`);--> statement-breakpoint
CREATE INDEX `people_erased_idx` ON `people` (`erased_on`) WHERE erased_on IS NOT NULL;