UPDATE runs SET manifest_json = '{"kernel_release":"6.1\u202e","lab":{"build":{"commit":"0123456789abcdef0123456789abcdef01234567","describe":"v6.1\u001b[2J","seconds":1e308}}}'
UPDATE runs SET manifest_json = 'not json' WHERE id = 2
