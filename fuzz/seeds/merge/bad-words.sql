UPDATE runs SET manifest_json = 'not json', status = 'bogus', ended_at = NULL
UPDATE iterations SET params_json = '{', status = 'weird'
