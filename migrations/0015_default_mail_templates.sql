-- The German default mail templates (mustache: {{x}} escaped, see app/lib/mail.ts for the
-- variables; {{paymentLink}} is the hook for payment links). Hand-written data migration: keep it
-- when regenerating. ON CONFLICT keeps a template an ADMIN already has under that name.
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Geburtstagsmail', 'MAIL', 'Alles Gute zum Geburtstag, {{firstName}}!', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>zu Deinem {{#age}}{{age}}. {{/age}}Geburtstag gratulieren wir Dir ganz herzlich und wünschen Dir alles Gute, Gesundheit und viele schöne Stunden mit Deinem Hund.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

zu Deinem {{#age}}{{age}}. {{/age}}Geburtstag gratulieren wir Dir ganz herzlich und wünschen Dir alles Gute, Gesundheit und viele schöne Stunden mit Deinem Hund.

Viele Grüße
{{club}}
', 'Geburtstagsmail (täglicher Cron und Tasks: Geburtstagsmails senden)', 'system') ON CONFLICT(`name`) DO NOTHING;--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Rechnungsmail', 'MAIL', 'Rechnung {{invoiceNumber}} von {{club}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>anbei erhältst Du unsere Rechnung Nr. {{invoiceNumber}} vom {{invoiceDate}} über <strong>{{invoiceAmount}}</strong>{{#dueDate}}, fällig am {{dueDate}}{{/dueDate}}.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Bei Fragen zur Rechnung antworte einfach auf diese Mail.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

anbei erhältst Du unsere Rechnung Nr. {{invoiceNumber}} vom {{invoiceDate}} über {{invoiceAmount}}{{#dueDate}}, fällig am {{dueDate}}{{/dueDate}}.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Bei Fragen zur Rechnung antworte einfach auf diese Mail.

Viele Grüße
{{club}}
', 'Mail zu einer Rechnung (die Rechnung als PDF im Anhang)', 'system') ON CONFLICT(`name`) DO NOTHING;--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Zahlungserinnerung', 'MAIL', 'Offener Posten: {{feeText}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>bei uns ist noch folgender Posten offen: <strong>{{feeText}}</strong> über {{feeOpenAmount}}{{#feeDueDate}}, fällig am {{feeDueDate}}{{/feeDueDate}}.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Falls Du schon bezahlt hast, betrachte diese Mail bitte als gegenstandslos.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

bei uns ist noch folgender Posten offen: {{feeText}} über {{feeOpenAmount}}{{#feeDueDate}}, fällig am {{feeDueDate}}{{/feeDueDate}}.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Falls Du schon bezahlt hast, betrachte diese Mail bitte als gegenstandslos.

Viele Grüße
{{club}}
', 'Mail zu einem offenen Posten (Kontenblatt)', 'system') ON CONFLICT(`name`) DO NOTHING;--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Nachricht', 'MAIL', 'Nachricht von {{club}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>wir möchten Dich kurz über Neuigkeiten aus unserem Verein informieren.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

wir möchten Dich kurz über Neuigkeiten aus unserem Verein informieren.

Viele Grüße
{{club}}
', 'Allgemeine Mail an eine Person', 'system') ON CONFLICT(`name`) DO NOTHING;--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Einladung Mitgliederversammlung', 'MAIL', 'Einladung zur Mitgliederversammlung', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>hiermit laden wir Dich herzlich zu unserer diesjährigen Mitgliederversammlung ein. Ort, Zeit und Tagesordnung findest Du im Anhang.</p>
<p>Wir freuen uns auf Dich!</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

hiermit laden wir Dich herzlich zu unserer diesjährigen Mitgliederversammlung ein. Ort, Zeit und Tagesordnung findest Du im Anhang.

Wir freuen uns auf Dich!

Viele Grüße
{{club}}
', 'Beispiel für einen Mailshot', 'system') ON CONFLICT(`name`) DO NOTHING;
