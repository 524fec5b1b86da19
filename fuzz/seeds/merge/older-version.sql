PRAGMA user_version = 9
DROP TABLE cell_summaries
DROP TABLE cell_summary_marks
