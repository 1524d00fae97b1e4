CREATE TABLE `reminder_levels` (
	`level` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`title` text NOT NULL,
	`days` integer NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`payment_term_days` integer NOT NULL,
	`mail_template` text NOT NULL,
	`letter_template` text NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "reminder_levels_level_range" CHECK(level BETWEEN 1 AND 3),
	CONSTRAINT "reminder_levels_days_range" CHECK(days BETWEEN 1 AND 365),
	CONSTRAINT "reminder_levels_term_range" CHECK(payment_term_days BETWEEN 1 AND 365),
	CONSTRAINT "reminder_levels_title_length" CHECK(length(trim(title)) BETWEEN 1 AND 50),
	CONSTRAINT "reminder_levels_fee_is_money" CHECK(fee BETWEEN 0 AND 99999999)
);
--> statement-breakpoint
CREATE TABLE `reminders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`target_type` text NOT NULL,
	`target_id` integer NOT NULL,
	`person_id` integer NOT NULL,
	`level` integer NOT NULL,
	`date` text NOT NULL,
	`new_due_date` text NOT NULL,
	`open_amount` integer DEFAULT 0 NOT NULL,
	`fee_id` integer,
	`channel` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`job_id` integer,
	`sent_on` text,
	`sent_by` text,
	`cancelled_on` text,
	`cancelled_by` text,
	`mail_log_id` integer,
	`pdf_key` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fee_id`) REFERENCES `fees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reminders_target_type_allowed" CHECK(target_type IN ('INVOICE', 'FEE')),
	CONSTRAINT "reminders_status_allowed" CHECK(status IN ('PENDING', 'SENT', 'CANCELLED')),
	CONSTRAINT "reminders_channel_allowed" CHECK(channel IS NULL OR channel IN ('MAIL', 'PRINT')),
	CONSTRAINT "reminders_level_range" CHECK(level BETWEEN 1 AND 3),
	CONSTRAINT "reminders_date_is_date" CHECK(date IS NULL OR date(date) IS date),
	CONSTRAINT "reminders_new_due_date_is_date" CHECK(new_due_date IS NULL OR date(new_due_date) IS new_due_date),
	CONSTRAINT "reminders_open_amount_is_money" CHECK(open_amount BETWEEN 0 AND 99999999)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminders_target_level_unique` ON `reminders` (`target_type`,`target_id`,`level`) WHERE status <> 'CANCELLED';--> statement-breakpoint
CREATE INDEX `reminders_target_idx` ON `reminders` (`target_type`,`target_id`,`status`);--> statement-breakpoint
CREATE INDEX `reminders_person_idx` ON `reminders` (`person_id`,`date`);--> statement-breakpoint
CREATE INDEX `reminders_job_idx` ON `reminders` (`job_id`);--> statement-breakpoint
-- The kind check gains 'REMINDER': SQLite changes a CHECK only by rebuilding the table. D1 runs a
-- migration in one transaction, where foreign_keys=OFF has no effect: defer_foreign_keys lets the
-- references to fees (invoice_rows, reminders) dangle until the renamed table answers them again.
-- The generated column is_open is computed, not copied; the two new columns start NULL.
PRAGMA defer_foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_fees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person_id` integer NOT NULL,
	`date` text NOT NULL,
	`due_date` text,
	`text` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`open_amount` integer DEFAULT 0 NOT NULL,
	`is_open` integer GENERATED ALWAYS AS (open_amount > 0) VIRTUAL,
	`comments` text,
	`payment_comments` text,
	`send_invoice` integer DEFAULT false NOT NULL,
	`is_invoiced` integer DEFAULT false NOT NULL,
	`payment_reference` text,
	`course_membership_id` integer,
	`kind` text DEFAULT 'OTHER' NOT NULL,
	`period_year` integer,
	`job_id` integer,
	`payment_link_id` text,
	`payment_link_url` text,
	`payment_link_amount` integer,
	`reminded_invoice_id` integer,
	`reminded_fee_id` integer,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`course_membership_id`) REFERENCES `course_memberships`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "fees_text_length" CHECK(length(trim(text)) BETWEEN 1 AND 100),
	CONSTRAINT "fees_amount_is_money" CHECK(amount BETWEEN 0 AND 99999999),
	CONSTRAINT "fees_open_amount_range" CHECK(open_amount BETWEEN 0 AND amount),
	CONSTRAINT "fees_date_is_date" CHECK(date IS NULL OR date(date) IS date),
	CONSTRAINT "fees_due_date_is_date" CHECK(due_date IS NULL OR date(due_date) IS due_date),
	CONSTRAINT "fees_kind_allowed" CHECK(kind IN ('COURSE', 'ANNUAL', 'ENROLLMENT', 'OTHER', 'REMINDER')),
	CONSTRAINT "fees_annual_has_year" CHECK(kind <> 'ANNUAL' OR period_year IS NOT NULL)
);
--> statement-breakpoint
INSERT INTO `__new_fees`("id", "person_id", "date", "due_date", "text", "amount", "open_amount", "comments", "payment_comments", "send_invoice", "is_invoiced", "payment_reference", "course_membership_id", "kind", "period_year", "job_id", "payment_link_id", "payment_link_url", "payment_link_amount", "created_by", "created_on", "last_modified_by", "last_modified_on", "row_version") SELECT "id", "person_id", "date", "due_date", "text", "amount", "open_amount", "comments", "payment_comments", "send_invoice", "is_invoiced", "payment_reference", "course_membership_id", "kind", "period_year", "job_id", "payment_link_id", "payment_link_url", "payment_link_amount", "created_by", "created_on", "last_modified_by", "last_modified_on", "row_version" FROM `fees`;--> statement-breakpoint
-- Keep the AUTOINCREMENT counter: an id of a deleted fee (Papierkorb) is never handed out again.
DELETE FROM sqlite_sequence WHERE name = '__new_fees';--> statement-breakpoint
INSERT INTO sqlite_sequence (name, seq) SELECT '__new_fees', seq FROM sqlite_sequence WHERE name = 'fees';--> statement-breakpoint
DROP TABLE `fees`;--> statement-breakpoint
ALTER TABLE `__new_fees` RENAME TO `fees`;--> statement-breakpoint
PRAGMA defer_foreign_keys=OFF;--> statement-breakpoint
CREATE INDEX `fees_person_idx` ON `fees` (`person_id`);--> statement-breakpoint
CREATE INDEX `fees_job_idx` ON `fees` (`job_id`);--> statement-breakpoint
CREATE INDEX `fees_course_membership_idx` ON `fees` (`course_membership_id`);--> statement-breakpoint
CREATE INDEX `fees_billing_idx` ON `fees` (`send_invoice`,`is_invoiced`);--> statement-breakpoint
CREATE INDEX `fees_date_idx` ON `fees` (`date`);--> statement-breakpoint
CREATE INDEX `fees_due_date_idx` ON `fees` (`due_date`);--> statement-breakpoint
CREATE INDEX `fees_totals_idx` ON `fees` (`open_amount`,`is_invoiced`,`due_date`,`amount`);--> statement-breakpoint
CREATE UNIQUE INDEX `fees_annual_unique` ON `fees` (`person_id`,`period_year`) WHERE kind = 'ANNUAL';--> statement-breakpoint
CREATE UNIQUE INDEX `fees_enrollment_unique` ON `fees` (`person_id`) WHERE kind = 'ENROLLMENT';
--> statement-breakpoint
-- Data: the three reminder levels and their German default templates (mails of kind MAIL, letters
-- of kind INVOICE: HTML printed to PDF like the invoice). Hand-written: keep it when regenerating.
-- ON CONFLICT keeps a template an ADMIN already has under that name. The fee mail template
-- 'Zahlungserinnerung' (0015) stays as it is: the run's mails have their own names.
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Zahlungserinnerung (Mahnlauf)', 'MAIL', 'Zahlungserinnerung: {{itemText}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>bei uns ist noch ein Betrag offen, dessen Zahlungsfrist abgelaufen ist:</p>
<p><strong>{{itemText}}</strong>: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen <strong>{{total}}</strong>.</p>
<p>Bitte überweise den Betrag bis zum <strong>{{newDueDate}}</strong> unter Angabe von <strong>{{paymentReference}}</strong>. Das Schreiben liegt als PDF bei.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

bei uns ist noch ein Betrag offen, dessen Zahlungsfrist abgelaufen ist:

{{itemText}}: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen {{total}}.

Bitte überweise den Betrag bis zum {{newDueDate}} unter Angabe von {{paymentReference}}. Das Schreiben liegt als PDF bei.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.

Viele Grüße
{{club}}
', 'Mahnlauf, Stufe 1 (Zahlungserinnerung): die Mail, das Schreiben als PDF im Anhang', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Zahlungserinnerung (Brief)', 'INVOICE', NULL, '<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4; color: #1e293b; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; }
  .club { text-align: right; font-size: 9pt; }
  .club strong { display: block; font-size: 13pt; color: #7c2d12; }
  .sender { font-size: 7pt; color: #64748b; border-bottom: 0.5pt solid #94a3b8; display: inline-block; margin-bottom: 2mm; }
  .address { margin-top: 12mm; min-height: 35mm; }
  .facts { margin-top: 4mm; border-collapse: collapse; font-size: 9.5pt; }
  .facts th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  h1 { font-size: 16pt; margin: 10mm 0 4mm; }
  table.rows { width: 100%; border-collapse: collapse; margin-top: 4mm; }
  table.rows th { text-align: left; border-bottom: 1pt solid #334155; padding: 1.5mm 2mm; }
  table.rows td { border-bottom: 0.5pt solid #cbd5e1; padding: 1.5mm 2mm; vertical-align: top; }
  table.rows tr { page-break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: bold; border-bottom: none; border-top: 1pt solid #334155; }
  .payment { margin-top: 8mm; page-break-inside: avoid; }
  .bank { margin-top: 2mm; border-collapse: collapse; }
  .bank th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }
  .girocode svg { display: block; margin-bottom: 1mm; }
</style>
</head>
<body>
  <div class="head">
    <div class="address">
      <div class="sender">{{club.name}} · {{club.street}} · {{club.zipCity}}</div>
      <div>{{person.name}}</div>
      <div>{{person.street}}</div>
      <div>{{person.zipCity}}</div>
    </div>
    <div class="club">
      <strong>{{club.name}}</strong>
      <div>{{club.street}}</div>
      <div>{{club.zipCity}}</div>
      {{#club.phone}}<div>Telefon: {{club.phone}}</div>{{/club.phone}}
      {{#club.email}}<div>E-Mail: {{club.email}}</div>{{/club.email}}
    </div>
  </div>
  <table class="facts">
    <tr><th>Datum</th><td>{{date}}</td></tr>
    <tr><th>Zahlbar bis</th><td>{{newDueDate}}</td></tr>
  </table>
  <h1>{{title}}</h1>
  <p>{{salutation}}</p>
  <p>sicher ist es Ihrer Aufmerksamkeit entgangen: Die folgenden Beträge sind noch offen.</p>
  <table class="rows">
    <thead><tr><th>Posten</th><th>Fällig seit</th><th class="num">Offen</th></tr></thead>
    <tbody>
      {{#items}}<tr><td>{{text}}</td><td>{{dueDate}}</td><td class="num">{{openAmount}}</td></tr>{{/items}}
      {{#reminderFee}}<tr><td>Mahngebühr</td><td></td><td class="num">{{reminderFee}}</td></tr>{{/reminderFee}}
    </tbody>
    <tfoot><tr><td>Summe</td><td></td><td class="num">{{total}}</td></tr></tfoot>
  </table>
  <div class="payment">
    <p>Bitte überweisen Sie den Betrag von {{total}} bis zum <strong>{{newDueDate}}</strong> unter Angabe des Verwendungszwecks <strong>{{paymentReference}}</strong> auf folgendes Konto:</p>
    <table class="bank">
      <tr><th>Kontoinhaber</th><td>{{club.bank.accountHolder}}</td></tr>
      <tr><th>IBAN</th><td>{{club.bank.iban}}</td></tr>
      <tr><th>BIC</th><td>{{club.bank.bic}}</td></tr>
      {{#club.bank.name}}<tr><th>Bank</th><td>{{club.bank.name}}</td></tr>{{/club.bank.name}}
      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
    {{#paymentLink}}<p>Oder online bezahlen: {{paymentLink}}</p>{{/paymentLink}}
  </div>
  <p>Sollten Sie den Betrag inzwischen überwiesen haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.</p>
  <p>Mit freundlichen Grüßen<br>{{club.name}}</p>
</body>
</html>
', NULL, 'Mahnlauf, Stufe 1 (Zahlungserinnerung): das Schreiben (PDF)', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `reminder_levels` (`level`, `enabled`, `title`, `days`, `fee`, `payment_term_days`, `mail_template`, `letter_template`) VALUES (1, 1, 'Zahlungserinnerung', 14, 0, 14, 'Zahlungserinnerung (Mahnlauf)', 'Zahlungserinnerung (Brief)');
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('1. Mahnung', 'MAIL', '1. Mahnung: {{itemText}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>trotz unserer Zahlungserinnerung ist bei uns noch folgender Betrag offen:</p>
<p><strong>{{itemText}}</strong>: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen <strong>{{total}}</strong>.</p>
<p>Bitte überweise den Betrag bis zum <strong>{{newDueDate}}</strong> unter Angabe von <strong>{{paymentReference}}</strong>. Das Schreiben liegt als PDF bei.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

trotz unserer Zahlungserinnerung ist bei uns noch folgender Betrag offen:

{{itemText}}: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen {{total}}.

Bitte überweise den Betrag bis zum {{newDueDate}} unter Angabe von {{paymentReference}}. Das Schreiben liegt als PDF bei.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.

Viele Grüße
{{club}}
', 'Mahnlauf, Stufe 2 (1. Mahnung): die Mail, das Schreiben als PDF im Anhang', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('1. Mahnung (Brief)', 'INVOICE', NULL, '<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4; color: #1e293b; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; }
  .club { text-align: right; font-size: 9pt; }
  .club strong { display: block; font-size: 13pt; color: #7c2d12; }
  .sender { font-size: 7pt; color: #64748b; border-bottom: 0.5pt solid #94a3b8; display: inline-block; margin-bottom: 2mm; }
  .address { margin-top: 12mm; min-height: 35mm; }
  .facts { margin-top: 4mm; border-collapse: collapse; font-size: 9.5pt; }
  .facts th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  h1 { font-size: 16pt; margin: 10mm 0 4mm; }
  table.rows { width: 100%; border-collapse: collapse; margin-top: 4mm; }
  table.rows th { text-align: left; border-bottom: 1pt solid #334155; padding: 1.5mm 2mm; }
  table.rows td { border-bottom: 0.5pt solid #cbd5e1; padding: 1.5mm 2mm; vertical-align: top; }
  table.rows tr { page-break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: bold; border-bottom: none; border-top: 1pt solid #334155; }
  .payment { margin-top: 8mm; page-break-inside: avoid; }
  .bank { margin-top: 2mm; border-collapse: collapse; }
  .bank th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }
  .girocode svg { display: block; margin-bottom: 1mm; }
</style>
</head>
<body>
  <div class="head">
    <div class="address">
      <div class="sender">{{club.name}} · {{club.street}} · {{club.zipCity}}</div>
      <div>{{person.name}}</div>
      <div>{{person.street}}</div>
      <div>{{person.zipCity}}</div>
    </div>
    <div class="club">
      <strong>{{club.name}}</strong>
      <div>{{club.street}}</div>
      <div>{{club.zipCity}}</div>
      {{#club.phone}}<div>Telefon: {{club.phone}}</div>{{/club.phone}}
      {{#club.email}}<div>E-Mail: {{club.email}}</div>{{/club.email}}
    </div>
  </div>
  <table class="facts">
    <tr><th>Datum</th><td>{{date}}</td></tr>
    <tr><th>Zahlbar bis</th><td>{{newDueDate}}</td></tr>
  </table>
  <h1>{{title}}</h1>
  <p>{{salutation}}</p>
  <p>leider haben wir trotz unserer Zahlungserinnerung noch keinen Zahlungseingang feststellen können. Die folgenden Beträge sind weiterhin offen.</p>
  <table class="rows">
    <thead><tr><th>Posten</th><th>Fällig seit</th><th class="num">Offen</th></tr></thead>
    <tbody>
      {{#items}}<tr><td>{{text}}</td><td>{{dueDate}}</td><td class="num">{{openAmount}}</td></tr>{{/items}}
      {{#reminderFee}}<tr><td>Mahngebühr</td><td></td><td class="num">{{reminderFee}}</td></tr>{{/reminderFee}}
    </tbody>
    <tfoot><tr><td>Summe</td><td></td><td class="num">{{total}}</td></tr></tfoot>
  </table>
  <div class="payment">
    <p>Bitte überweisen Sie den Betrag von {{total}} bis zum <strong>{{newDueDate}}</strong> unter Angabe des Verwendungszwecks <strong>{{paymentReference}}</strong> auf folgendes Konto:</p>
    <table class="bank">
      <tr><th>Kontoinhaber</th><td>{{club.bank.accountHolder}}</td></tr>
      <tr><th>IBAN</th><td>{{club.bank.iban}}</td></tr>
      <tr><th>BIC</th><td>{{club.bank.bic}}</td></tr>
      {{#club.bank.name}}<tr><th>Bank</th><td>{{club.bank.name}}</td></tr>{{/club.bank.name}}
      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
    {{#paymentLink}}<p>Oder online bezahlen: {{paymentLink}}</p>{{/paymentLink}}
  </div>
  <p>Sollten Sie den Betrag inzwischen überwiesen haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.</p>
  <p>Mit freundlichen Grüßen<br>{{club.name}}</p>
</body>
</html>
', NULL, 'Mahnlauf, Stufe 2 (1. Mahnung): das Schreiben (PDF)', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `reminder_levels` (`level`, `enabled`, `title`, `days`, `fee`, `payment_term_days`, `mail_template`, `letter_template`) VALUES (2, 1, '1. Mahnung', 14, 500, 14, '1. Mahnung', '1. Mahnung (Brief)');
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('2. Mahnung', 'MAIL', '2. Mahnung: {{itemText}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>trotz unserer Mahnung ist bei uns noch immer folgender Betrag offen:</p>
<p><strong>{{itemText}}</strong>: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen <strong>{{total}}</strong>.</p>
<p>Bitte überweise den Betrag bis zum <strong>{{newDueDate}}</strong> unter Angabe von <strong>{{paymentReference}}</strong>. Das Schreiben liegt als PDF bei.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

trotz unserer Mahnung ist bei uns noch immer folgender Betrag offen:

{{itemText}}: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen {{total}}.

Bitte überweise den Betrag bis zum {{newDueDate}} unter Angabe von {{paymentReference}}. Das Schreiben liegt als PDF bei.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.

Viele Grüße
{{club}}
', 'Mahnlauf, Stufe 3 (2. Mahnung): die Mail, das Schreiben als PDF im Anhang', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('2. Mahnung (Brief)', 'INVOICE', NULL, '<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4; color: #1e293b; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; }
  .club { text-align: right; font-size: 9pt; }
  .club strong { display: block; font-size: 13pt; color: #7c2d12; }
  .sender { font-size: 7pt; color: #64748b; border-bottom: 0.5pt solid #94a3b8; display: inline-block; margin-bottom: 2mm; }
  .address { margin-top: 12mm; min-height: 35mm; }
  .facts { margin-top: 4mm; border-collapse: collapse; font-size: 9.5pt; }
  .facts th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  h1 { font-size: 16pt; margin: 10mm 0 4mm; }
  table.rows { width: 100%; border-collapse: collapse; margin-top: 4mm; }
  table.rows th { text-align: left; border-bottom: 1pt solid #334155; padding: 1.5mm 2mm; }
  table.rows td { border-bottom: 0.5pt solid #cbd5e1; padding: 1.5mm 2mm; vertical-align: top; }
  table.rows tr { page-break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: bold; border-bottom: none; border-top: 1pt solid #334155; }
  .payment { margin-top: 8mm; page-break-inside: avoid; }
  .bank { margin-top: 2mm; border-collapse: collapse; }
  .bank th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }
  .girocode svg { display: block; margin-bottom: 1mm; }
</style>
</head>
<body>
  <div class="head">
    <div class="address">
      <div class="sender">{{club.name}} · {{club.street}} · {{club.zipCity}}</div>
      <div>{{person.name}}</div>
      <div>{{person.street}}</div>
      <div>{{person.zipCity}}</div>
    </div>
    <div class="club">
      <strong>{{club.name}}</strong>
      <div>{{club.street}}</div>
      <div>{{club.zipCity}}</div>
      {{#club.phone}}<div>Telefon: {{club.phone}}</div>{{/club.phone}}
      {{#club.email}}<div>E-Mail: {{club.email}}</div>{{/club.email}}
    </div>
  </div>
  <table class="facts">
    <tr><th>Datum</th><td>{{date}}</td></tr>
    <tr><th>Zahlbar bis</th><td>{{newDueDate}}</td></tr>
  </table>
  <h1>{{title}}</h1>
  <p>{{salutation}}</p>
  <p>trotz unserer Mahnung sind die folgenden Beträge noch immer offen. Bitte begleichen Sie sie umgehend.</p>
  <table class="rows">
    <thead><tr><th>Posten</th><th>Fällig seit</th><th class="num">Offen</th></tr></thead>
    <tbody>
      {{#items}}<tr><td>{{text}}</td><td>{{dueDate}}</td><td class="num">{{openAmount}}</td></tr>{{/items}}
      {{#reminderFee}}<tr><td>Mahngebühr</td><td></td><td class="num">{{reminderFee}}</td></tr>{{/reminderFee}}
    </tbody>
    <tfoot><tr><td>Summe</td><td></td><td class="num">{{total}}</td></tr></tfoot>
  </table>
  <div class="payment">
    <p>Bitte überweisen Sie den Betrag von {{total}} bis zum <strong>{{newDueDate}}</strong> unter Angabe des Verwendungszwecks <strong>{{paymentReference}}</strong> auf folgendes Konto:</p>
    <table class="bank">
      <tr><th>Kontoinhaber</th><td>{{club.bank.accountHolder}}</td></tr>
      <tr><th>IBAN</th><td>{{club.bank.iban}}</td></tr>
      <tr><th>BIC</th><td>{{club.bank.bic}}</td></tr>
      {{#club.bank.name}}<tr><th>Bank</th><td>{{club.bank.name}}</td></tr>{{/club.bank.name}}
      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
    {{#paymentLink}}<p>Oder online bezahlen: {{paymentLink}}</p>{{/paymentLink}}
  </div>
  <p>Sollten Sie den Betrag inzwischen überwiesen haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.</p>
  <p>Mit freundlichen Grüßen<br>{{club.name}}</p>
</body>
</html>
', NULL, 'Mahnlauf, Stufe 3 (2. Mahnung): das Schreiben (PDF)', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `reminder_levels` (`level`, `enabled`, `title`, `days`, `fee`, `payment_term_days`, `mail_template`, `letter_template`) VALUES (3, 1, '2. Mahnung', 14, 1000, 7, '2. Mahnung', '2. Mahnung (Brief)');
