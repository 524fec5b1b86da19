UPDATE runs SET manifest_json = '{"pairs":[1,2],"pair_order":{"a":1},"merged_parts":7,"kernel_release":null}'
