-- Sessions are now stored under the SHA-256 of their id, not the id itself: rows written before
-- match no cookie any more. Clearing them ends every login once; users simply log in again.
DELETE FROM `sessions`;
