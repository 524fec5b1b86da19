UPDATE samples SET value = 1e308 * 10
UPDATE samples SET value = NULL WHERE rowid = 2
UPDATE samples SET offset_s = -1e-300
