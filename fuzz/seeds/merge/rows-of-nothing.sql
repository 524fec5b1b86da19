PRAGMA ignore_check_constraints = ON
UPDATE iterations SET status = 'pwned' WHERE id = 2
UPDATE iterations SET variant_id = 99 WHERE id = 3
UPDATE iterations SET run_id = 42 WHERE id = 4
UPDATE point_stops SET seq_design_json = '{"alpha":"nan"}'
