PRAGMA ignore_check_constraints = ON
UPDATE iterations SET status = 'pwned' WHERE id = 2
UPDATE iterations SET variant_id = 99 WHERE id = 3
UPDATE iterations SET params_json = '{"groups":1e999}' WHERE id = 4
DELETE FROM samples WHERE rowid > 2
UPDATE metrics SET direction = 'sideways'
