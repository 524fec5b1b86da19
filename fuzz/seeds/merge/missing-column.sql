ALTER TABLE samples DROP COLUMN offset_s
