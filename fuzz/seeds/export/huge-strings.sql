UPDATE runs SET name = hex(randomblob(60000))
UPDATE iterations SET row = hex(randomblob(30000)), block = hex(randomblob(2000))
