-- A dog's DIN 5007 name key by id (issue 29 item 11), as people_id_name_keys_idx holds a person's:
-- lists that sort joined rows by dog and owner name (a course's participants, a dog's courses, the
-- Erfolge, the course sheet, the home page's rabies card) read the keys from the indexes instead of
-- working out the generated columns (a hundred replace()s each) for every row they sort.
CREATE INDEX `dogs_id_name_key_idx` ON `dogs` (`id`,`common_name_key`);