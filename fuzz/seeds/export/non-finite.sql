UPDATE samples SET value = 9e999 WHERE rowid = 1
UPDATE samples SET value = -9e999 WHERE rowid = 2
UPDATE samples SET value = 1e308 WHERE rowid = 3
UPDATE samples SET value = 'fast' WHERE rowid = 4
UPDATE samples SET value = NULL WHERE rowid = 5
