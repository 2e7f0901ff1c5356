#!/bin/sh
# Rerun the newcomers' single-mistake files (sets A to U) on the emulator and print, for
# each, its score and the kit's "fix this first" line (the JSON record's
# fix_first).  Usage: ./run.sh [setA|setB ...]   (default: all twenty-one sets)
# KIT=/path/to/kit overrides the kit this folder is in; the JSON records go to $OUT (default ./out).
HERE=$(cd "$(dirname "$0")" && pwd)
KIT=${KIT:-$(cd "$HERE/../../../.." && pwd)}
OUT=${OUT:-$HERE/out}
SETS=${*:-setA setB setC setD setE setF setG setH setI setJ setK setL setM setN setO setP setQ setR setS setT setU}
for set in $SETS; do
  mkdir -p "$OUT/$set"
  for f in "$HERE/$set"/*.cu; do
    b=$(basename "$f" .cu); lab=${b%%-*}
    (cd "$KIT" && nice ./gpulab check "$lab" "$f" --backend emu --format json \
        --maps "$OUT/$set/maps" > "$OUT/$set/$b.json" 2> "$OUT/$set/$b.err")
    python3 - "$OUT/$set/$b.json" "$set/$b" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("%s\tNO JSON (%s)" % (sys.argv[2], e)); sys.exit()
print("%s\t%s/%s\t%s" % (sys.argv[2], d.get("score"), d.get("max_score"), d.get("fix_first")))
PY
  done
done
