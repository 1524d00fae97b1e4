-- Issue 29 item 11: the Kontenblatt under 'Mahnung fällig' walks the open fees reminded on their
-- own by date (fees.server.ts listFees) and stops after its page, instead of every fee by date.
CREATE INDEX `fees_remindable_date_idx` ON `fees` (`date`) WHERE send_invoice = 0 AND kind <> 'REMINDER' AND open_amount > 0;
