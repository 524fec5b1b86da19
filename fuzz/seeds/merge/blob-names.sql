UPDATE runs SET name = x'ff00fe', config_sha256 = x'00'
UPDATE variants SET name = char(27) || '[2J' || name
