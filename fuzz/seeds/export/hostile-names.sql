lab_7
UPDATE runs SET name = char(27) || '[2J' || char(8238) || name
UPDATE variants SET name = name || char(10) || '",=cmd|x' || char(0)
UPDATE metrics SET unit = char(7) || 's"<', name = 'a:b/c' WHERE rowid = 1
