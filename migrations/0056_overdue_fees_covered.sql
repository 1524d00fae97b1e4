-- Issue 29 item 11: the open fees reminded on their own, with every column 'Mahnung fällig'
-- reads (overdue, due level, sums), so the toggle's count is answered from the index alone.
DROP INDEX `fees_remindable_idx`;--> statement-breakpoint
CREATE INDEX `fees_remindable_idx` ON `fees` (`send_invoice`,`due_date`,`person_id`,`collection_stop`,`reminder_level`,`reminder_due_date`,`kind`,`open_amount`,`amount`) WHERE send_invoice = 0 AND kind <> 'REMINDER' AND open_amount > 0;
