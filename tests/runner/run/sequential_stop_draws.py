# The values sequential_stop_test.cc feeds a point, a side per series: 60
# draws at CV 2% from Python's random.Random(36).gauss(100, 2), the baseline
# first, then a variant 10% higher (each draw x 1.1), then an A/A one, each
# rounded to 0.01.
#   python3 tests/runner/run/sequential_stop_draws.py > tests/runner/run/sequential_stop_draws.json
import json
import random

rng = random.Random(36)
series = {}
for name, factor in (("base", 1.0), ("ten_pct", 1.1), ("same", 1.0)):
    series[name] = [round(rng.gauss(100, 2) * factor, 2) for _ in range(60)]
print("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in series.items()) + "\n}")
