INSERT INTO iterations (run_id, variant_id, pair, workload, block, row, row_order, params_json, iteration, status, started_at, duration_s, stdout, stderr, error) VALUES (7, 9, 'n2', 'hackbench', 'b', 'r', 0, '{}', 0, 'ok', 't', 0, '', '', '')
UPDATE variants SET run_id = 42 WHERE id = 2
