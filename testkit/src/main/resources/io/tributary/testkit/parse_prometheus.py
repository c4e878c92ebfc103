# Reads a Prometheus text exposition on stdin with the Prometheus Python client's own parser and prints every
# sample as one JSON object a line: {"name": ..., "labels": {...}, "value": ...}.
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

for family in text_string_to_metric_families(sys.stdin.read()):
    for sample in family.samples:
        print(json.dumps({"name": sample.name, "type": family.type, "labels": sample.labels, "value": sample.value}))
