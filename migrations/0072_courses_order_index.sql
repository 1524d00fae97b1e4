-- The courses grid's default order (year, start, name; issue 29 item 11): SQLite sorted every course
-- and worked out its participants and dates before keeping a page (300 courses of the benchmark
-- data: 22 ms in sql.js); along this index it reads the page's courses only (2 ms).
CREATE INDEX `courses_order_idx` ON `courses` (`start_year`,`start_date_time`,"name" COLLATE NOCASE);