UPDATE metrics SET direction = 'higher'
UPDATE samples SET value = value + 1
INSERT INTO samples (iteration_id, metric, value) VALUES (1, 'time', 2)
