"""Prints, for each entry of a compile_commands.json, the target, the source's
file name, the configuration (multi-config generators) and whether its
command aligns loops (-falign-loops=64), sorted."""
import json
import os
import re
import sys

rows = []
for entry in json.load(open(sys.argv[1])):
    words = entry["command"].split()
    obj = re.search(r"CMakeFiles/([^/]+)\.dir/(?:(Debug|Release|RelWithDebInfo|MinSizeRel)/)?", words[words.index("-o") + 1])
    target, config = obj.group(1), obj.group(2)
    aligned = "aligned" if "-falign-loops=64" in words else "unaligned"
    rows.append(" ".join(filter(None, [target, os.path.basename(entry["file"]), config, aligned])))
print("\n".join(sorted(rows)))
