"""Reads n-up DXF files with ezdxf (strict readfile, then audit) and prints, per file: audit errors,
the INSERTs (block, point, rotation), the block names, and each layer's total length over every
entity as placed (INSERTs exploded into virtual entities)."""
import json
import math
import sys

import ezdxf


def length(entity):
    kind = entity.dxftype()
    if kind == "LINE":
        return math.dist((entity.dxf.start.x, entity.dxf.start.y), (entity.dxf.end.x, entity.dxf.end.y))
    if kind == "ARC":
        span = (entity.dxf.end_angle - entity.dxf.start_angle) % 360
        return math.radians(span) * entity.dxf.radius
    if kind == "CIRCLE":
        return 2 * math.pi * entity.dxf.radius
    raise ValueError(kind)


result = {}
for path in sys.argv[1:]:
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    msp = doc.modelspace()
    lengths = {}
    inserts = []
    for entity in msp:
        if entity.dxftype() == "INSERT":
            inserts.append({"block": entity.dxf.name, "x": entity.dxf.insert.x, "y": entity.dxf.insert.y, "rotation": entity.dxf.rotation})
            placed = list(entity.virtual_entities())
        else:
            placed = [entity]
        for item in placed:
            lengths[item.dxf.layer] = lengths.get(item.dxf.layer, 0.0) + length(item)
    result[path] = {
        "version": doc.dxfversion,
        "errors": [str(error.message) for error in auditor.errors],
        "inserts": inserts,
        "blocks": sorted(block.name for block in doc.blocks if not block.name.startswith("*")),
        "lengths": lengths,
    }
json.dump(result, sys.stdout)
